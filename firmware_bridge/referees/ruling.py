"""What a referee rules on one event: everything the session needs of the referee and
its view until the next event, in one record (:meth:`.referee.Referee.decide`).

The decisions first, then what the table shows of the game as the event left it: the
fixes, the game's screen and the one that sets the board up, the computer's move in
words, the layers of the lights under the squares, whether the referee wants ticks and
the game's part of the ``--json`` state. The session reads the record and asks nothing
else of the referee or the view until the next event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from msgspec import Struct, field

from games.core import Action, Game

from ..screen.palette import HINT
from ..screen.screens import Screen
from .decisions import Decision, Played
from .fixes import Fix
from .light_cells import Lit, Moved, fix_lights, move_lights

if TYPE_CHECKING:
    from .facts import Facts
    from .view import View

TICK_HORIZON_S = 3600.0
"""How far ahead a referee's wish for ticks is looked for (an animation lasts seconds)."""


class Ruling(Struct, frozen=True):
    """The referee's answer to one event (:meth:`.referee.Referee.decide`)."""

    decisions: list[Decision]
    """What the session carries out, first first: commit, reject, confirm, take back, roll."""
    screen: Callable[[], Screen]
    """Draws the game's screen (the view's), before the table adds its own lines, at
    the moment it is shown: what a screen shows can change with time alone between two
    events (dice tumbling as the loop's clock goes on)."""
    board_fixes: list[Fix] = field(default_factory=list)
    """The fixes that make the board match the game's layout."""
    pending_fixes: list[Fix] = field(default_factory=list)
    """The fixes the table must carry out now, first one first."""
    restore_screen: Screen | None = None
    """The screen that sets the board up (``facts.restore_title`` and ``restore_reason``)
    while the board is restored; None when there is nothing to fix or the game shows
    something first (the view's ``first_things``)."""
    played: Played | None = None
    """The record of the action the event reported played (``Committed``), or of the
    last action of a game taken up (``TakenUp``)."""
    expected: Action | None = None
    """The move a computer seat makes now (``facts.expected``)."""
    instruction: str = ""
    """``expected`` in the view's words, as the table carries it out."""
    ticks: tuple[float, float] | None = None
    """The span of the loop's time, from and until (``inf``: for good), in which the
    referee wants a ``Tick`` at every turn of the loop (an animation is running); None:
    no tick is wanted."""
    fix_lights: Lit = field(default_factory=dict)
    """The pending fixes' cells in their colours (the first brighter)."""
    board_fix_lights: Lit = field(default_factory=dict)
    """The board fixes' cells in their colours, lit while the board is restored."""
    expected_lights: Lit = field(default_factory=dict)
    """The computer's move: ``from`` and ``to``."""
    hint_lights: Lit = field(default_factory=dict)
    """The hint's move, while its hint is shown."""
    game_lights: Lit = field(default_factory=dict)
    """The game's own lights from its turn (the view's ``lights``)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """The game's own part of the ``--json`` state (the view's ``extra_state``)."""


def first_moment(wish: Callable[[float], bool], low: float, high: float) -> float:
    """The first time after ``low`` (when ``wish`` is false) up to ``high`` (when it is
    true) at which ``wish``, false and then true as time goes on, is true: exactly, to
    the float, so that a clock at or past it is one ``wish`` holds for."""
    while True:
        middle = (low + high) / 2
        if middle in (low, high):
            return high
        if wish(middle):
            high = middle
        else:
            low = middle


class Ruled(Protocol):
    """What :func:`ruling_of` reads of a referee (:class:`.referee.Referee` is one)."""

    @property
    def view(self) -> View[Any]: ...
    @property
    def facts(self) -> Facts: ...
    @property
    def game(self) -> Game: ...
    def board_fixes(self) -> list[Fix]: ...
    def pending_fixes(self) -> list[Fix]: ...
    def hinted(self) -> Action | None: ...
    def tick_span(self) -> tuple[float, float] | None: ...
    def move_cells(self, action: Action) -> Moved: ...


def ruling_of(referee: Ruled, decisions: list[Decision], played: Played | None) -> Ruling:
    """What ``referee`` (a :class:`.referee.Referee`) rules with ``decisions``: the table
    as its event left it."""
    view, facts, game = referee.view, referee.facts, referee.game
    board_fixes = referee.board_fixes()
    facts.board_fixes = board_fixes
    pending = referee.pending_fixes()
    showing_first = view.first_things()
    restore = None
    if board_fixes and not showing_first:
        restore = view.fix_screen(facts.restore_title, board_fixes, facts.restore_reason)
    # While the game shows its set-up first (the markers), a computer seat's move
    # waits: the board it would be made on is not set up yet.
    expected = facts.expected(game) if facts.expected is not None and not showing_first else None
    hint = referee.hinted()
    return Ruling(
        decisions=decisions,
        screen=view.screen,
        board_fixes=board_fixes,
        pending_fixes=pending,
        restore_screen=restore,
        played=played,
        expected=expected,
        instruction=view.instruct(expected) if expected is not None else "",
        ticks=referee.tick_span(),
        fix_lights=fix_lights(pending, view.fix_colour),
        board_fix_lights=fix_lights(board_fixes, view.fix_colour),
        expected_lights={} if expected is None else move_lights(referee.move_cells(expected)),
        hint_lights={} if hint is None else move_lights(referee.move_cells(hint), HINT, HINT),
        game_lights=view.lights(hint),
        extra=view.extra_state(),
    )
