"""The referee session: one game, its journal, its referee and what the table sees.

The session owns all state, the referee's turn state among it. Events come in one at a
time from the loop; the referee decides on each (its one call), and the session carries
the decisions out and shows the ruling: an action is judged once, journaled, applied, and
shown only once the journal has it on disk (the frame is drawn while the commit's file
sync is waited for, :mod:`.overlap`; nothing leaves the session before it returned).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Generic, TypeVar

from games.core import Action, Game, Verdict
from hardware.board import BoardSettled, BoardStatus
from hardware.dice import DiceSource
from wiring.profile import Profile

from ..journal import Journal, JournalError, JournalFull
from ..kits import find_kit
from ..referees.decisions import Commit, Confirm, Decision, Played, RollDice, TakeBack
from ..referees.events import (
    BoardChanged,
    BoardWait,
    ButtonEvent,
    Committed,
    Event,
    RefereeEvent,
    Refused,
    TakenUp,
    Tick,
)
from ..referees.facts import Facts
from ..referees.prompt import Prompt
from ..referees.referee import HintCame, Referee
from ..referees.ruling import Ruling
from ..screen.layout import LaidOut
from ..screen.screens import Screen
from . import seats as seats_
from . import takeback
from .errors import TakeBackRefused
from .held import Held
from .lights import Lighting
from .lightsink import LightSink, NoLights
from .replay import computer_levels, computer_seats, mover_of
from .saving import Outbox
from .session_facts import RulingView, record_of
from .session_screen import OledState, game_screen, oled_size, table_screen
from .session_signals import Display, SignalSink, Silent
from .session_state import Listener, Stream, TableState, table_state
from .thinking import Thought

G = TypeVar("G", bound=Game)
T = TypeVar("T")

log = logging.getLogger("tabletop")

BOARD_BUTTONS = ("ok", "back", "roll")
"""The buttons whose meaning depends on the board (ok commits, a long ok asks for a
hint, back opens the take-back, roll starts a turn): each waits for the board to be
read after it was pressed. Left and right only move through a menu."""


class Session(RulingView[G], Generic[G]):
    """Plays one game on one board."""

    def __init__(
        self,
        game: G,
        journal: Journal,
        game_id: int,
        make_referee: Callable[[G, Facts], Referee[G]],
        display: Display | None = None,
        signals: SignalSink | None = None,
        labels: Callable[[str], str | None] | None = None,
        dice: DiceSource | None = None,
        profile: Profile | None = None,
        last_played: takeback.LastPlayed | None = None,
    ) -> None:
        self.game = game
        self.journal = journal
        self.game_id = game_id
        self.display = display
        self.signals: SignalSink = signals or Silent()
        self.dice = dice or DiceSource.system()  # rolled when a referee decides RollDice
        record, animated = record_of(journal, game_id), display is not None
        self.facts = Facts(labels=labels, profile=profile, animated=animated, record=record)
        self.size = oled_size(profile)  # the display's pixels, from the profile
        self.connected = True
        self.link_message = ""
        self.reading = False  # a press waits for the board to be read
        self.board_failure = ""  # why the last press was not judged: the board was silent
        self.last_verdict: Verdict | None = None
        self.listeners: list[Listener] = []
        """Called with the ``--json`` state after every change; none, and it is not built."""
        self.played: list[Callable[[Played], None]] = []
        """Called with every accepted action, in order, once it is journaled and applied."""
        self.refused: list[Callable[[str], None]] = []
        """Called with each new refusal's reason, once the fixes it asks for are ruled."""
        self._stream = Stream(self.listeners)
        self._oled = OledState(self.size)  # the screen last drawn, since when; the status LED
        self.lighting = Lighting()
        self._lights: LightSink = NoLights()
        self.disk_full: str | None = None  # why an accepted input could not be journaled
        self._held = Held()
        self._outbox = Outbox()
        self._make_referee = make_referee
        self.unseen: takeback.Unseen | None = None  # what its seed did not deal (a guest's)
        self.referee: Referee[G] = make_referee(game, self.facts)
        """The game's referee, made by its kit with its turn state and its view."""
        self._answers: list[Decision] = []  # the referee's decisions on the last commit
        seated = journal.entries(game_id)
        seats, levels = computer_seats(seated), computer_levels(seated)
        self.computer = seats_.computer_for(game.name, self.facts.record, seats, levels)
        """The computer's choice for a hint, and the seats it plays (journaled)."""
        if self.computer is not None:
            self.facts.advise, self.facts.expected = self.computer.hint, self.computer.expected
            self.facts.think_hint = self.computer.hint
        self.think_wait: Callable[[], None] | None = None
        """Waits while the computer thinks, the clock running on (the simulation's)."""
        self._ruling: Ruling = self.referee.decide(TakenUp(last_played))
        """What the referee ruled on the last event (a game resumed: its last move)."""

    def seat_computer(self, seats: frozenset[int], levels: Mapping[int, int] | None = None) -> None:
        """Let the computer play ``seats`` at ``levels`` (journaled: a resumed game keeps them)."""
        computer = seats_.check_seats(self.game, self.computer, seats, levels)
        computer.seat(seats, levels)
        self.journal.append(self.game_id, "seats", computer.to_dict())
        self._ruling = self.referee.decide(TakenUp())

    def thought(self, thought: Thought) -> None:
        """The computer's move or a hint came back (:mod:`.thinking`): shown at once, if
        for the game as it stands and known on the loop's clock (else a tick shows it)."""
        if self.computer is None:
            return
        learn = self.computer.learn_hint if thought.hint else self.computer.learn
        if learn(thought, self.game):
            self.handle(Tick(self.now))

    def _decide(self, event: RefereeEvent | HintCame) -> list[Decision]:
        """The referee's ruling on ``event``, kept; its decisions returned."""
        self._ruling = self.referee.decide(event)
        return list(self._ruling.decisions)

    def _carry_out(self, decided: list[Decision]) -> None:
        """Do what the referee decided; what it decides in answer comes first."""
        pending = list(decided)
        while pending:
            decision = pending.pop(0)
            if isinstance(decision, Commit):
                self._commit(decision.action)
            elif isinstance(decision, Confirm):
                self.signals.accepted()
            elif isinstance(decision, TakeBack):
                self._take_back(decision)
            elif isinstance(decision, RollDice):
                self._commit(decision.make(self.dice.roll(decision.count)))
            else:
                self._reject(decision.reason)
            pending[0:0], self._answers = self._answers, []

    def commit(self, action: Action) -> Verdict:
        """Judge ``action`` and, if legal, journal and play it (set-up, tests, a held move)."""
        try:
            verdict = self._commit(action)
            self._carry_out([])
            self._save(lambda: None)
        except JournalError:
            self._unsaved()
            raise
        return verdict

    def _commit(self, action: Action) -> Verdict:
        game = self.game
        mover = mover_of(game, action)
        verdict = game.judge(action)
        wanted = self.computer.refuses(game, action, mover) if self.computer else None
        if verdict.accepted and wanted is not None and self.computer is not None:
            verdict = Verdict.reject(self.computer.refusal(game, self._ruling.instruction))
        if not verdict.accepted:
            self._answers += self._decide(Refused(action, verdict))
            return verdict
        if self.computer is not None and self.computer.holds(game, action, mover):
            return verdict  # made at the board; played once another board made it first
        # Saved with the event's other inputs, before anything is shown (see _save).
        self.journal.stage(self.game_id, "action", action.to_dict())
        before = dict(game.layout())
        verdict = game.apply(action)
        self.lighting.played(before, game.layout())
        self.last_verdict = verdict
        outcome = game.outcome
        if outcome is not None:
            self.journal.finish(self.game_id, outcome.to_dict())
            self._outbox.append(self.signals.game_over)
        else:
            self._outbox.append(self.signals.accepted)
        self._answers += self._decide(Committed(action, verdict, mover))
        played = self._ruling.played
        assert played is not None
        if self.listeners:
            # Every accepted action reaches the stream, also one followed at once by
            # another (an automatic pass).
            self._outbox.append(partial(self._stream.emit, self.state().to_json()))
        self._outbox.extend(partial(hook, played) for hook in self.played)
        return verdict

    def _take_back(self, decision: TakeBack) -> None:
        """Take back the last action (:func:`.takeback.take_back`); replay without it."""
        seats = self.computer.seats if self.computer is not None else frozenset[int]()
        auto, last = takeback.marked(self.game.history, decision.automatic), self.facts.last
        try:
            reason = takeback.take_back(self.journal, self.game_id, self.game, auto, seats, last)
        except TakeBackRefused as refused:
            self._reject(str(refused))
            return
        self.restore_reason = reason
        self.restore_title = "Take back"
        self.restoring = True
        self._rebuild()
        self._outbox.append(self.signals.attention)
        self.restoring = bool(self.fixes())

    def withdraw(self, count: int, title: str, reason: str) -> None:
        """Take back the last ``count`` actions (another board's referee refused one) and
        set the board up again under ``title`` saying ``reason``; the listeners hear it."""
        takeback.withdraw(self.journal, self.game_id, count)
        self.restore_reason = reason
        self.restore_title = title
        self.restoring = True
        self._rebuild()
        self._outbox.append(self.signals.rejected)
        self._outbox.extend(partial(hook, reason) for hook in self.refused)
        self.restoring = bool(self.fixes())
        self._save(lambda: None)

    def _rebuild(self) -> None:
        """Replay the game from its journal and give it a fresh referee."""
        make = find_kit(self.game.name).new_game
        game, last = takeback.rebuild(self.journal, self.game_id, make, self.unseen)
        self.game = game  # type: ignore[assignment]
        self.facts.prompt = Prompt()
        self.referee = self._make_referee(self.game, self.facts)
        self._answers = []
        if last is None:
            self.facts.last = None
        self._ruling = self.referee.decide(TakenUp(last))
        self.last_verdict = None
        self.lighting.event()

    def _reject(self, reason: str) -> None:
        if self.last_verdict is None or self.last_verdict.reason != reason:
            self._outbox.append(self.signals.rejected)
            self._outbox.extend(partial(hook, reason) for hook in self.refused)
        self.last_verdict = Verdict.reject(reason)

    def waits_for_board(self, event: ButtonEvent) -> bool:
        return event.name in BOARD_BUTTONS

    def wants_ticks(self) -> bool:
        span = self._ruling.ticks
        ticking = span is not None and span[0] <= self.now < span[1]
        thinks = self.computer is not None and self.computer.wants_ticks(self.game, self.now)
        return self._held.waiting() or self._oled.page_due(self.now) or ticking or thinks

    def handle(self, event: Event) -> None:
        """Handle ``event``; on a full disk, hold it and what follows until it is saved.

        What an event plays is saved to the journal in one commit before anything of
        it is shown or told. When the journal cannot take it (a full disk) the game
        goes back to what the journal holds, and the events are held (:class:`.Held`).
        """
        if isinstance(event, Tick):
            self.now = event.now
        fresh, held, again = self._held.sort(event, self.now)
        before = self.facts.observation
        try:
            for each in fresh + again:
                self._dispatch(each)
            self.refresh()
        except JournalFull as exc:
            self._unsaved()
            if self.disk_full is None:
                log.error("%s", exc)
                self.signals.attention()
            self.disk_full = str(exc)
            self._held.hold(fresh, held, self.now, before)
            self.refresh()
        except JournalError:
            self._unsaved()
            raise
        except Exception:
            # Not the journal: what was played stays played, and is saved, as it
            # would have been before it was played.
            try:
                self._save(lambda: None)
            except JournalError:
                self._unsaved()
            raise
        else:
            if held:
                self.disk_full = None
                self._held.saved()
        # Once the frame is out: the journal's housekeeping waits until now.
        self.journal.tidy()

    def _save(self, meanwhile: Callable[[], T]) -> T:
        """Save, doing ``meanwhile`` as the disk syncs, then tell (:meth:`.Outbox.save`)."""
        return self._outbox.save(self.journal, meanwhile)

    def _unsaved(self) -> None:
        """Go back to the game as the journal holds it: what was not saved is undone."""
        self.journal.discard()
        self._outbox.clear()
        self._rebuild()

    def _dispatch(self, event: Event) -> None:
        """Give ``event`` to the referee and carry out what it decides."""
        decided: list[Decision] = []
        if isinstance(event, Tick):
            self.now = event.now
            decided = self._decide(event)
            came = self.computer is not None and self.computer.hint_came(self.game)
            if came and self.facts.prompt.menu is None:  # else the person went on to a menu
                decided += self._decide(HintCame())
        elif isinstance(event, BoardSettled):
            self.facts.observation = dict(event.observation)
            self.facts.prompt.clear_hint()
            self.lighting.event()
            decided = self._decide(BoardChanged())
        elif isinstance(event, BoardStatus):
            self.connected = event.connected
            self.link_message = event.message
        elif isinstance(event, BoardWait):
            self.reading = event.reading
            self.board_failure = event.failure
        elif isinstance(event, ButtonEvent):
            self.board_failure = ""
            self.facts.prompt.clear_hint()
            self.lighting.event()
            decided = self._decide(event)
        self._carry_out(decided)

    def screen(self) -> Screen:
        link = (self.connected, self.link_message, self.board_failure, self.reading)
        return table_screen(self.disk_full, *link, self._game_screen)

    def _game_screen(self) -> Screen:
        menu_open = self.facts.prompt.menu is not None
        note, fixes = self.note(), self.pending_fixes()
        hinted, why = self.facts.prompt.hint_action, ""
        if hinted is not None and self.facts.prompt.hint and self.computer is not None:
            why = self.computer.why(self.game, hinted)
        return game_screen(self._ruling, self.restoring, note, menu_open, fixes, why)

    @property
    def layout(self) -> LaidOut | None:
        """The screen last drawn, as laid out (None before the first)."""
        return self._oled.last

    def _layout(self) -> LaidOut:
        return self._oled.lay_out(self.screen(), self.now)

    def show_first(self) -> None:
        """Hand the display the screen as it stands, before the board has been read (the
        rest, the pages' count, the status LED and the listeners, waits for :meth:`refresh`)."""
        if self.display is not None:
            self.display.show(self._oled.first_frame(self.screen()))

    def refresh(self) -> None:
        """Save what the journal has staged and show the screen as it now stands, laid
        out and drawn while the save waits for the disk."""
        layout, changed, image = self._save(self._frame)
        if changed:
            self._oled.last = layout
            if self.display is not None:
                self.display.show(image)
            led = self._oled.led_change(self.connected, self.pending_fixes)
            if led is not None:
                self.signals.led_status(led)
        self.lighting.show(self.leds(), self.lights)
        if self.listeners:
            self._stream.emit(self.state(layout).to_json())

    def _frame(self) -> tuple[LaidOut, bool, Any]:
        """The screen as it stands, laid out; whether it changed; its frame if so."""
        return self._oled.frame(self.screen(), self.now, self.display is not None)

    def state(self, layout: LaidOut | None = None) -> TableState:
        """Everything the table reports now; ``oled``: the text on the page shown."""
        layout = layout or self._layout()
        fixes, verdict, move = self.pending_fixes(), self.last_verdict, self.last_move
        leds, extra = self.leds(), self._ruling.extra
        return table_state(self.game, layout, fixes, verdict, move, self.connected, leds, extra)

    def leds(self) -> dict[str, str]:
        """The cells lit under the squares now, cell → colour name (``lights.py``)."""
        return self.lighting.of(self)
