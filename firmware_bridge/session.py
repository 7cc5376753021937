"""The referee session: one game, its journal, its referee and what the table sees.

The session owns all state. Events come in one at a time from the loop; every
accepted action is journaled and committed before the display shows it.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from games.core import Action, Game, Verdict
from hardware.board import BoardSettled, BoardStatus
from hardware.dice import DiceSource
from wiring.profile import Profile

from .events import ButtonEvent, Event, Tick
from .fixes import Fix, reconcile
from .journal import Entry, Journal, JournalError, JournalFull
from .referee import Referee
from .screens import Screen, render

log = logging.getLogger("tabletop")

RETRY_FULL_DISK_S = 1.0
"""How often a session held by a full disk tries to save its input again."""

DISK_FULL_SCREEN = Screen(
    "Disk full", "", ("Move not saved yet:", "free space on the", "SD card to go on.")
)


class Display(Protocol):
    def show(self, image: Any) -> None: ...


class Signals(Protocol):
    def accepted(self) -> None: ...

    def rejected(self) -> None: ...

    def attention(self) -> None: ...


class _Silent:
    def accepted(self) -> None:
        pass

    def rejected(self) -> None:
        pass

    def attention(self) -> None:
        pass


Listener = Callable[[dict[str, Any]], None]
LastPlayed = tuple[int, Action, Verdict]
"""An accepted action with the seat it is credited to and its verdict."""


def mover_of(game: Game, action: Action) -> int:
    """The seat ``action`` is credited to, judged before it is played."""
    # An action that names its player (a rack seen, a resignation) is that
    # player's, whoever is to move.
    player: int = getattr(action, "player", game.to_move)
    return player


def replay_entries(
    journal: Journal, game_id: int, game: Game
) -> Iterator[tuple[Entry, int, Verdict]]:
    """Play a game's journaled actions on ``game``: each entry, its mover and its verdict."""
    for entry in journal.entries(game_id):
        if entry.kind != "action":
            continue
        try:
            action = game.decode(entry.payload)
        except ValueError as exc:
            raise JournalError(
                f"journal {journal.path}, game {game_id}, entry {entry.seq}: {exc}"
            ) from exc
        mover = mover_of(game, action)
        verdict = game.play(action)
        if not verdict.accepted:
            raise JournalError(
                f"journal {journal.path}, game {game_id}, entry {entry.seq} does not "
                f"replay: {verdict.reason}; the journal was written by another version "
                "or edited — start a new game or restore the file"
            )
        yield entry, mover, verdict


class Session:
    """Plays one game on one board."""

    def __init__(
        self,
        game: Game,
        journal: Journal,
        game_id: int,
        make_referee: Callable[[Session], Referee],
        display: Display | None = None,
        signals: Signals | None = None,
        labels: Callable[[str], str | None] | None = None,
        dice: DiceSource | None = None,
        profile: Profile | None = None,
        last_played: LastPlayed | None = None,
    ) -> None:
        self.game = game
        self.journal = journal
        self.game_id = game_id
        self.display = display
        self.signals: Signals = signals or _Silent()
        self.labels = labels
        """Tag id → enrolled piece label, on RFID boards."""
        self.profile = profile
        """The board's profile (rack cells and the like), when the caller has it."""
        self.dice = dice or DiceSource.system()
        """The station's dice: the OS's randomness on the Pi, seeded in simulation."""
        self.observation: dict[str, str] = {}
        self.connected = True
        self.link_message = ""
        self.restoring = False
        """After a resume the board must match the layout before play goes on."""
        self.last_verdict: Verdict | None = None
        self.last_move: dict[str, Any] | None = None
        self.listeners: list[Listener] = []
        self._last_state: dict[str, Any] | None = None
        self._last_screen: Screen | None = None
        self.now = 0.0
        self.disk_full: str | None = None
        """Why an accepted input could not be journaled (the disk is full), until it is."""
        self._held: list[Event] = []
        self._retry_at = 0.0
        self.referee = make_referee(self)
        if last_played is not None:
            # A resumed game shows its last move as it was shown before the stop.
            self._announce(*last_played)

    # -- building ---------------------------------------------------------------
    @staticmethod
    def replay(journal: Journal, game_id: int, make_game: Callable[..., Game]) -> Game:
        """Rebuild a game from its journal entries."""
        return Session.rebuild(journal, game_id, make_game)[0]

    @staticmethod
    def rebuild(
        journal: Journal, game_id: int, make_game: Callable[..., Game]
    ) -> tuple[Game, LastPlayed | None]:
        """Rebuild a game, with its last accepted action (its mover, itself, its verdict)."""
        record = journal.game(game_id)
        game = make_game(record.players, random.Random(record.seed), record.options)
        last: LastPlayed | None = None
        for _, mover, verdict in replay_entries(journal, game_id, game):
            last = (mover, game.history[-1], verdict)
        if game.outcome is not None and record.finished is None:
            # The power went between journaling the last input and marking the game
            # over; left so, the ended game would be resumed at every start.
            journal.finish(game_id, game.outcome.to_dict())
        return game, last

    # -- what referees call -----------------------------------------------------
    def commit(self, action: Action) -> Verdict:
        """Judge ``action``; if legal, journal it, play it and announce it."""
        mover = mover_of(self.game, action)
        verdict = self.game.check(action)
        if not verdict.accepted:
            return verdict
        self.journal.append(self.game_id, "action", action.to_dict())
        verdict = self.game.play(action)
        self._announce(mover, action, verdict)
        outcome = self.game.outcome
        if outcome is not None:
            try:
                self.journal.finish(self.game_id, outcome.to_dict())
            except JournalFull as exc:
                # Every input is saved: the next start marks the game over (see rebuild).
                log.warning("%s", exc)
        self.signals.accepted()
        return verdict

    def _announce(self, mover: int, action: Action, verdict: Verdict) -> None:
        """Make ``action`` the last move the table sees."""
        self.last_verdict = verdict
        points = verdict.points(self.game.players)
        self.last_move = {
            "player": self.game.seat_name(mover),
            "action": action.to_dict(),
            "text": self.referee.describe(action),
            "points": {self.game.seat_name(p): n for p, n in enumerate(points)},
        }

    def reject(self, verdict: Verdict) -> None:
        """Record that the table tried something illegal."""
        if self.last_verdict is None or self.last_verdict.reason != verdict.reason:
            self.signals.rejected()
        self.last_verdict = verdict

    def fixes(self) -> list[Fix]:
        """Fixes that make the game's cells match its layout.

        Cells the game does not use (rack slots, a scan pad) are the referee's business.
        """
        cells = self.game.cells()
        used = set(cells)
        return reconcile(
            self.game.layout(),
            {c: v for c, v in self.observation.items() if c in used},
            cells,
            self.referee.matches,
            self.labels,
        )

    # -- events -----------------------------------------------------------------
    def wants_ticks(self) -> bool:
        return bool(self._held) or self.referee.wants_ticks()

    def handle(self, event: Event) -> None:
        """Handle ``event``; on a full disk, hold it and what follows until it is saved.

        An input the journal cannot take raises JournalFull before anything is played
        or shown; the event is then held and delivered again, with every event held
        after it, once a second has passed, until the journal takes it.
        """
        if isinstance(event, Tick):
            self.now = event.now
        if not self._held or isinstance(event, BoardStatus):
            self._try(event)
        elif not isinstance(event, Tick):
            # Of the board states that come after the held event, only the newest matters.
            if (
                isinstance(event, BoardSettled)
                and len(self._held) > 1
                and isinstance(self._held[-1], BoardSettled)
            ):
                self._held.pop()
            self._held.append(event)
        if self._held and self.now >= self._retry_at:
            held, self._held = self._held, []
            for i, waiting in enumerate(held):
                if not self._try(Tick(self.now) if isinstance(waiting, Tick) else waiting):
                    self._held.extend(held[i + 1 :])
                    break
            else:
                self.disk_full = None
        self.refresh()

    def _try(self, event: Event) -> bool:
        """Deliver ``event``; False if it is held because the journal is full."""
        try:
            self._dispatch(event)
        except JournalFull as exc:
            if self.disk_full is None:
                log.error("%s", exc)
                self.signals.attention()
            self.disk_full = str(exc)
            self._held.insert(0, event)
            self._retry_at = self.now + RETRY_FULL_DISK_S
            return False
        return True

    def _dispatch(self, event: Event) -> None:
        if isinstance(event, Tick):
            self.now = event.now
            self.referee.on_tick(event.now)
        elif isinstance(event, BoardSettled):
            self.observation = dict(event.observation)
            if self.restoring and not self.fixes():
                self.restoring = False
            self.referee.on_board()
        elif isinstance(event, BoardStatus):
            self.connected = event.connected
            self.link_message = event.message
        elif isinstance(event, ButtonEvent):
            self.referee.on_button(event)

    def screen(self) -> Screen:
        if self.disk_full is not None:
            return DISK_FULL_SCREEN
        if not self.connected:
            return Screen("Board offline", "", (self.link_message or "Check the cable.",))
        if self.restoring:
            fixes = self.fixes()
            if fixes:
                return self.referee.fix_screen("Set up the board", fixes)
        return self.referee.screen()

    def refresh(self) -> None:
        screen = self.screen()
        if screen != self._last_screen:
            self._last_screen = screen
            if self.display is not None:
                self.display.show(render(screen))
        state = self.state(screen)
        if state != self._last_state:
            self._last_state = state
            for listener in self.listeners:
                listener(state)

    def state(self, screen: Screen | None = None) -> dict[str, Any]:
        """Everything the ``--json`` stream reports about the table now."""
        screen = screen or self.screen()
        game = self.game
        verdict = self.last_verdict
        outcome = game.outcome
        return {
            "turn": game.seat_name(game.to_move) if outcome is None else None,
            "scores": {game.seat_name(p): s for p, s in enumerate(game.scores())},
            "oled": screen.text(),
            "fixes": [f.to_dict() for f in self.pending_fixes()],
            "verdict": verdict.to_dict() if verdict else None,
            "move": self.last_move,
            "moves_played": len(game.history),
            "layout": game.state_dict()["layout"],
            "connected": self.connected,
            "outcome": outcome.to_dict() if outcome else None,
            **self.referee.extra_state(),
        }

    def pending_fixes(self) -> list[Fix]:
        if self.restoring:
            return self.fixes()
        return self.referee.pending_fixes()
