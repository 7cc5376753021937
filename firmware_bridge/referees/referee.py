"""The base of every game's referee: turns board and button events into decisions.

A referee knows how pieces of its game are recognised on the board and what the buttons
mean in each phase of a turn. It holds nothing of its own: it is handed its game, the
table's facts, its turn state (made by the game's ``new_turn``, kept by the session and
drawn by the view) and the view whose words it uses in menus and hints, all four made by
the game's kit (:meth:`..kits.kit.Kit.referee_for`). One call, :meth:`Referee.decide`,
takes an event (the board settled, a button, a tick, what became of a commit, the game
taken up, a hint thought off the loop come back) to the turn state brought up to date
and returns its :class:`.ruling.Ruling`: the decisions (commit this action, reject with
this reason, roll the dice, take back), which the session carries out, and all the table
shows of the game until the next event (the fixes, the screen, the lights, the
``--json`` extras), read from the view. The session asks nothing else of the referee or
the view. A referee never calls into the session, and keeps no state between calls but
in the turn it was given (its tag readers remember what each tag reads, a memo of the
tag table in the facts; the cells of the move last lit are a memo too).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, Generic, TypeVar

from msgspec import Struct

from games.core import Action, Game, Piece, Resign, Verdict
from hardware.board import OCCUPIED

from .decisions import Commit, Confirm, Decision, Played, Reject, RollDice, TakeBack, played_record
from .events import BoardChanged, ButtonEvent, Committed, RefereeEvent, TakenUp, Tick
from .facts import Facts
from .fixes import Fix, occupancy_matcher, reconcile
from .light_cells import Moved, action_moved
from .menu import Menu
from .ruling import TICK_HORIZON_S, Ruling, first_moment, ruling_of
from .view import View

G = TypeVar("G", bound=Game)


class Ask(StrEnum):
    """The menus every referee can open."""

    RESIGN = "resign"
    BACK = "back"
    """The long press of back: play on, resign (where the game allows it), take back."""


class HintThinking(Exception):
    """Raised by ``facts.advise`` while the hint is thought off the loop (:class:`HintCame`)."""


class HintCame(Struct, frozen=True):
    """The hint asked for came back: ``facts.advise`` now has it, and it is shown."""


TAKE_BACK = "take back"
"""The back menu's value for a take-back (resigning is True, playing on False)."""


class Referee(ABC, Generic[G]):
    """Game-specific handling of the table's events."""

    view: View[G]
    """The game's view, handed to the referee for the words of its menus and hints."""

    def __init__(self, game: G, facts: Facts, turn: Any, view: View[G]) -> None:
        self.game = game
        self.facts = facts
        self.turn = turn
        """Where this turn stands: the session keeps it, the view draws it."""
        self.view = view
        self._decisions: list[Decision] = []
        """The decisions of the call under way (empty between calls)."""
        self._lit_move: dict[tuple[int, str], Moved] = {}
        """The cells of the move last lit, for its position (a memo, not a state)."""

    @staticmethod
    def new_turn(game: Any, facts: Facts) -> Any:
        """The turn state of ``game`` as a table takes it up (a new game or a resumed one)."""
        raise NotImplementedError

    def decide(self, event: RefereeEvent | HintCame) -> Ruling:
        """What the referee rules on ``event``: the turn state is brought up to date and
        the decisions (first first) are returned with everything the table shows of the
        game until the next event. The only way in for the session."""
        played: Played | None = None
        if isinstance(event, BoardChanged):
            self.restored()
            self.on_board()
        elif isinstance(event, ButtonEvent):
            self.on_button(event)
        elif isinstance(event, Tick):
            self.on_tick(event.now)
        elif isinstance(event, Committed):
            played = self.record(event.mover, event.action, event.verdict)
            self.after_commit(event.action, event.verdict)
        elif isinstance(event, TakenUp):
            if event.last is not None:
                played = self.record(*event.last)
        elif isinstance(event, HintCame):
            self.show_hint()
        else:
            self.on_refused(event.action, event.verdict)
        return ruling_of(self, self.decisions(), played)

    def record(self, mover: int, action: Action, verdict: Verdict) -> Played:
        """Note ``action``, just played for ``mover``, as the last action (``facts.last``)
        in the view's words."""
        played = played_record(
            self.game, self.view.describe, mover, action, verdict, self.view.story
        )
        self.facts.last = played
        return played

    def restored(self) -> None:
        """The board changed: once it matches the game, its set-up (after a resume or a
        take-back) is over."""
        facts = self.facts
        if facts.restoring and not self.board_fixes():
            facts.restoring = False
            facts.restore_title = "Set up the board"
            facts.restore_reason = ""

    def before_play(self) -> None:
        """The next action is about to be played (committed at the table, or replayed
        by a reader of the journal): note in the turn what the view's words for it need
        of the game before it. By default nothing."""

    def move_cells(self, action: Action) -> Moved:
        """The cells ``action`` changes as the lights show them (the view's
        ``move_cells``), worked out once per position."""
        key = (len(self.game.history), repr(action))
        found = self._lit_move.get(key)
        if found is None:
            found = self.view.move_cells(action, action_moved(self.game, action))
            self._lit_move = {key: found}
        return found

    # -- the station's prompt (kept in ``facts.prompt``, which the session owns) ---------
    @property
    def menu(self) -> Menu | None:
        """The menu open at the station."""
        return self.facts.prompt.menu

    @menu.setter
    def menu(self, menu: Menu | None) -> None:
        self.facts.prompt.menu = menu

    @property
    def menu_action(self) -> str:
        """What the open menu asks."""
        return self.facts.prompt.menu_action

    @property
    def hint(self) -> str:
        """The hint asked for with a long press of ok, shown until the next event;
        clearing it clears its move."""
        return self.facts.prompt.hint

    @hint.setter
    def hint(self, text: str) -> None:
        if text:
            self.facts.prompt.hint = text
        else:
            self.facts.prompt.clear_hint()

    def hinted(self) -> Action | None:
        """The move of the hint shown now, whose cells light; None without one."""
        return self.facts.prompt.hint_action

    # -- deciding -------------------------------------------------------------------
    def commit(self, action: Action) -> None:
        """Decide to play ``action``; the session judges it and reports back."""
        self._decisions.append(Commit(action))

    def roll_dice(self, count: int, make: Callable[[tuple[int, ...]], Action]) -> None:
        """Decide to roll ``count`` dice and play ``make(faces)``; the session rolls them."""
        self._decisions.append(RollDice(count, make))

    def refuse(self, reason: str) -> None:
        """Decide that what the table tried is refused, for ``reason``."""
        self._decisions.append(Reject(reason))

    def confirm(self) -> None:
        """Decide that the table's answer was taken (no action is played)."""
        self._decisions.append(Confirm())

    def decisions(self) -> list[Decision]:
        """The decisions taken in this call, first first (:meth:`decide` returns them)."""
        out, self._decisions = self._decisions, []
        return out

    def after_commit(self, action: Action, verdict: Verdict) -> None:
        """``action`` was journaled and played (its verdict is ``verdict``)."""

    def automatic(self, action: Action) -> bool:
        """Whether the table played ``action`` itself (a pass for a player who cannot
        move): a take-back withdraws it together with the action before it."""
        return False

    def allows_resign(self) -> bool:
        """Whether a player may resign (the long press of back offers it)."""
        return True

    def on_refused(self, action: Action, verdict: Verdict) -> None:
        """The rules refused ``action``: by default the table is told why."""
        self.refuse(verdict.reason)

    # -- the board --------------------------------------------------------------------
    def matches(self, piece: Piece, sensed: str) -> bool:
        """Whether a sensed value shows ``piece``; occupancy boards see any piece."""
        return occupancy_matcher(piece, sensed)

    def sensed_label(self, sensed: str) -> str | None:
        """The label a sensed tag was enrolled as; None for an unknown tag or no tag."""
        if sensed == OCCUPIED or self.facts.labels is None:
            return None
        return self.facts.labels(sensed)

    def board_fixes(self) -> list[Fix]:
        """Fixes that make the game's cells match its layout.

        Cells the game does not use (rack slots, a scan pad) are the referee's own.
        """
        cells = self.game.cells()
        used = set(cells)
        return reconcile(
            self.game.layout(),
            {c: v for c, v in self.facts.observation.items() if c in used},
            cells,
            self.matches,
            self.facts.labels,
        )

    # -- events ---------------------------------------------------------------------
    @abstractmethod
    def on_board(self) -> None:
        """The settled board changed (``facts.observation``)."""

    def wants_ticks(self, now: float) -> bool:
        """Whether the loop should send ``Tick`` events at ``now`` (an animation is
        running): from ``facts.now`` until the next event, true over one span of time
        at most (from a time on, until a time, or both).

        Idle referees return False, so a waiting table costs nothing.
        """
        return False

    def tick_span(self) -> tuple[float, float] | None:
        """The span of time from ``facts.now`` in which :meth:`wants_ticks` is true, from
        its first moment until its first moment after (``inf``: for good; None: none
        within ``TICK_HORIZON_S``)."""
        wish, now = self.wants_ticks, self.facts.now
        far = now + TICK_HORIZON_S
        if wish(now):
            until = math.inf if wish(far) else first_moment(lambda t: not wish(t), now, far)
            return (now, until)
        return (first_moment(wish, now, far), math.inf) if wish(far) else None

    def on_tick(self, now: float) -> None:
        """Time passed; called only while ``now`` is in the span :meth:`tick_span` gave."""

    def on_button(self, event: ButtonEvent) -> None:
        if self.menu is not None:
            self.on_menu_button(event)
            return
        if self.game.outcome is not None:
            self.facts.prompt.new_game_requested = event.name == "ok"
            return
        if event.name == "back" and event.long:
            self.open_back_menu()
            return
        if event.name == "ok" and event.long and self.facts.advise is not None:
            self.show_hint()
            return
        self.on_game_button(event)

    def open_back_menu(self) -> None:
        """The long press of back: play on, resign where the game allows it, take back."""
        name = self.game.seat_name(self.game.to_move).capitalize()
        options: list[tuple[str, Any]] = [("no, play on", False)]
        if self.allows_resign():
            options.append((f"{name} resigns", True))
        options.append(("take back last", TAKE_BACK))
        title = "Resign or take back?" if self.allows_resign() else "Take back?"
        self.open_menu(Ask.BACK, title, options)

    def take_back(self) -> None:
        """ "take back last" was chosen: by default the session withdraws the last action."""
        automatic = tuple(self.automatic(action) for action in self.game.history)
        self._decisions.append(TakeBack(automatic))

    def show_hint(self) -> None:
        """A long press of ok: the computer's choice for the seat to move, as an instruction."""
        advise = self.facts.advise
        assert advise is not None
        try:
            action = advise(self.game)
        except HintThinking:  # shown when it comes (HintCame)
            return
        except ValueError as exc:  # GameError, or a position the player cannot judge
            self.hint = f"No hint: {exc}"
            return
        self.hint = f"Hint: {self.view.instruct(action)}"
        self.facts.prompt.hint_action = action

    def on_game_button(self, event: ButtonEvent) -> None:
        """A button pressed while no menu is open."""

    def open_menu(
        self, action: str, title: str, options: list[tuple[str, Any]], subject: str = ""
    ) -> None:
        self.facts.prompt.menu = Menu(title, options, subject)
        self.facts.prompt.menu_action = action

    def on_menu_button(self, event: ButtonEvent) -> None:
        menu = self.menu
        assert menu is not None
        if event.name == "left":
            menu.move(-1)
        elif event.name == "right":
            menu.move(1)
        elif event.name == "back":
            self.menu = None
        elif event.name == "ok":
            self.menu = None
            self.on_menu_choice(self.menu_action, menu.choice)

    def on_menu_choice(self, action: str, choice: Any) -> None:
        if action == Ask.BACK and choice == TAKE_BACK:
            self.take_back()
        elif action in (Ask.BACK, Ask.RESIGN) and choice is True:
            self.commit(Resign(self.game.to_move))

    # -- what the board must do ----------------------------------------------------------
    def wants_fixes(self) -> bool:
        """Whether the board must be fixed now (the fixes appear in the state)."""
        return False

    def pending_fixes(self) -> list[Fix]:
        """The fixes the table must carry out now, first one first."""
        return self.board_fixes() if self.wants_fixes() else []


def cells_seen(observation: Mapping[str, str], cells: Mapping[str, int]) -> dict[str, str]:
    """The part of a settled observation on ``cells`` (the game's squares): rack cells
    and spare sensors left out. Usually the whole observation, copied at once."""
    if observation.keys() <= cells.keys():
        return dict(observation)
    return {c: v for c, v in observation.items() if c in cells}


class TagReader:
    """What the tag of each sensed piece shows (its label as ``parse`` reads it: a
    letter tile, a domino half), read once per tag.

    A tag keeps its label while a game is played (the daemon loads the tag table at
    start, and enrolling adds tags without relabelling any), so a tag is looked up
    and parsed once, not for every piece on the board at every board event. A tag
    ``parse`` does not accept is asked about again each time: it may be enrolled
    meanwhile. A new tag table (``facts.labels``) starts afresh.
    """

    def __init__(self, facts: Facts, parse: Callable[[str], str | None]) -> None:
        self.facts = facts
        self.parse = parse
        self._labels = facts.labels
        self._read: dict[str, str] = {}

    def read(self, sensed: str) -> str | None:
        """What a sensed tag shows; None for an unknown tag or an untagged piece."""
        labels = self.facts.labels
        if labels is not self._labels:
            self._labels = labels
            self._read = {}
        known = self._read.get(sensed)
        if known is not None:
            return known
        if sensed == OCCUPIED or labels is None:
            return None
        label = labels(sensed)
        shown = None if label is None else self.parse(label)
        if shown is not None:
            self._read[sensed] = shown
        return shown

    def shows(self, sensed: str, tile: str | None) -> bool:
        """Whether a sensed value shows ``tile`` (as ``parse`` gives it); an occupancy
        board sees any tile."""
        known = self._read.get(sensed)
        if known is not None and self.facts.labels is self._labels:
            return known == tile
        if sensed == OCCUPIED:
            # A board without tag readers cannot tell one tile from another.
            return self.facts.labels is None
        return self.read(sensed) == tile
