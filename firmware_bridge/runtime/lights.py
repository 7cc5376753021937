"""What lights under the squares: the table's situation turned into lit cells.

Pure functions of what the referees decided and the table's state (never of the
screen's words), and one small keeper (:class:`Lighting`) the session owns for the
two facts only it knows: the last move's cells and what was last handed to the
chain. Every map is cell → colour name (``palette.py``), lit cells only.

The layers, the first winning on a cell lit by several:

1. the fixes the board waits for: the first in ``lift-now``/``place-now``, the
   rest in ``lift``/``place`` (a view may name a fix's colour otherwise:
   DoubleCross lights a destroyed tile's lift ``destroyed``);
2. the computer's move while a computer seat is to move: ``from`` and ``to``;
3. the hint's move (a long press of ok): ``hint``;
4. the game's own lights from its turn (each view's ``lights``);
5. the last accepted move, ``last``, until the next board change or button.

A move's cells come from the move itself, played on a copy of the game: the cells
whose piece leaves are its from, those that gain or change a piece its to; a view
may add or correct cells (a rack slot a tile comes from). Only the game's cells and
the cells of the profile's LED chain are lit.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from msgspec import Struct

from games.core import Action, Cell, Game, Piece
from wiring.profile import Profile

from ..referees.fixes import Fix
from ..referees.light_cells import (
    Lit,
    Moved,
    action_moved,
    fix_colour,
    fix_lights,
    layout_moved,
    move_lights,
)
from ..referees.ruling import Ruling
from ..screen.palette import HINT, LAST
from .computer import Computer
from .lightsink import LightSink

log = logging.getLogger("tabletop")


class LitSession(Protocol):
    """What the lights read of a session: its game, its profile and what its referee
    ruled last."""

    @property
    def game(self) -> Game: ...

    @property
    def profile(self) -> Profile | None: ...

    @property
    def restoring(self) -> bool: ...

    def ruling(self) -> Ruling: ...


class LightsView(Protocol):
    """What the lights ask of a game's view (``view.View`` has all three)."""

    def move_cells(self, action: Action, moved: Moved) -> Moved: ...

    def fix_colour(self, fix: Fix, first: bool) -> str: ...

    def lights(self, hint: Action | None) -> Lit: ...


# -- the layers ---------------------------------------------------------------------------
def compose(layers: Iterable[Mapping[str, str]], allowed: Iterable[Cell] | None = None) -> Lit:
    """The layers as one map, the first layer winning on a cell; only ``allowed``
    cells (when given) are lit."""
    lit: Lit = {}
    for layer in layers:
        for cell, colour in layer.items():
            lit.setdefault(cell, colour)
    if allowed is not None:
        keep = set(allowed)
        lit = {c: v for c, v in lit.items() if c in keep}
    return lit


def lightable(game: Game, profile: Profile | None) -> set[Cell]:
    """The cells that may be lit: the game's cells and those of the profile's chain."""
    cells = set(game.cells())
    if profile is not None and profile.leds is not None:
        cells.update(profile.leds.chain)
    return cells


# -- a table ----------------------------------------------------------------------------
class Situation(Struct, frozen=True):
    """What the lights of a table are read from."""

    game: Game
    view: LightsView
    fixes: Sequence[Fix] = ()
    expected: Action | None = None
    """The computer's move, when a computer seat is to move."""
    hint: Action | None = None
    """The hint's move, while it is shown."""
    last: Moved | None = None
    """The last accepted move's cells, while they are lit."""
    profile: Profile | None = None


class Lighting:
    """What the table lights, kept by the session: the last move's cells until the
    next event, the cells of the moves already worked out, and what the chain shows."""

    def __init__(self) -> None:
        self.last: Moved | None = None
        """The last accepted move's cells, lit until the next board change or button."""
        self.shown: Lit | None = None
        """What was last handed to the chain (None: nothing yet)."""
        self._moves: dict[tuple[int, int, str], Moved] = {}

    def played(self, before: Mapping[Cell, Piece], after: Mapping[Cell, Piece]) -> None:
        """A move was accepted: ``before`` and ``after`` are the layouts around it. Moves
        one event plays together (a move and the pass it forces) are lit together."""
        moved = layout_moved(before, after)
        if self.last is not None:
            last = self.last
            frm = last.frm + tuple(c for c in moved.frm if c not in last.frm)
            moved = Moved(frm, last.to + tuple(c for c in moved.to if c not in last.to))
        self.last = moved

    def event(self) -> None:
        """The board changed or a button was pressed: the last move goes dark."""
        self.last = None

    def moved(self, game: Game, view: LightsView, action: Action) -> Moved:
        """The cells of ``action`` now, worked out once per position."""
        key = (id(game), len(game.history), repr(action))
        found = self._moves.get(key)
        if found is None:
            found = view.move_cells(action, action_moved(game, action))
            self._moves = {key: found}  # one position at a time: the newest
        return found

    def of(self, table: LitSession) -> Lit:
        """The lit cells of a session now, from the layers its referee ruled on."""
        ruled = table.ruling()
        fixes = ruled.board_fix_lights if table.restoring else ruled.fix_lights
        layers: list[Mapping[str, str]] = [fixes, ruled.expected_lights, ruled.hint_lights]
        layers.append(ruled.game_lights)
        if self.last is not None:
            layers.append(move_lights(self.last, LAST, LAST))
        return compose(layers, lightable(table.game, table.profile))

    def lit(self, s: Situation) -> Lit:
        """The lit cells of a table in situation ``s``."""
        layers: list[Mapping[str, str]] = [fix_lights(s.fixes, s.view.fix_colour)]
        if s.expected is not None:
            layers.append(move_lights(self.moved(s.game, s.view, s.expected)))
        if s.hint is not None:
            hinted = self.moved(s.game, s.view, s.hint)
            layers.append(move_lights(hinted, HINT, HINT))
        layers.append(s.view.lights(s.hint))
        if s.last is not None:
            layers.append(move_lights(s.last, LAST, LAST))
        return compose(layers, lightable(s.game, s.profile))

    def show(self, lit: Lit, sink: LightSink) -> None:
        """Hand ``lit`` to the chain if it differs from what the chain shows."""
        if lit != self.shown:
            self.shown = lit
            sink.show_lights(lit)


# -- a position with no board ---------------------------------------------------------------
@functools.lru_cache(maxsize=8)
def _computer(name: str, seed: int, seats: frozenset[int]) -> Any:
    from ..kits import find_kit

    return Computer(find_kit(name).make_player, seed, seats)


class _NoHooks:
    def move_cells(self, action: Action, moved: Moved) -> Moved:
        return moved

    def fix_colour(self, fix: Fix, first: bool) -> str:
        return fix_colour(fix, first)

    def lights(self, hint: Action | None) -> Lit:
        return {}


def position_lights(
    game: Game,
    computer_seats: Iterable[int] = (),
    seed: int = 0,
    before: Mapping[Cell, Piece] | None = None,
    profile: Profile | None = None,
    view: LightsView | None = None,
) -> Lit:
    """The lights of a replayed position with no board read: the computer's move
    (``from``/``to``) when a computer seat is to move, and the last move (``last``)
    when the layout before it (``before``) is given.

    ``seed`` is the game's (the computer's choice depends on it); ``view`` the game's
    view, for its corrections of a move's cells.
    """
    hooks: LightsView = view if view is not None else _NoHooks()
    seats = frozenset(computer_seats)
    layers: list[Mapping[str, str]] = []
    if seats and game.outcome is not None:
        seats = frozenset()
    expected: Action | None = None
    if seats:
        try:
            expected = _computer(game.name, seed, seats).expected(game)
        except ValueError:  # a game without a kit has no computer player
            expected = None
    if expected is not None:
        layers.append(move_lights(hooks.move_cells(expected, action_moved(game, expected))))
    if before is not None:
        layers.append(move_lights(layout_moved(before, game.layout()), LAST, LAST))
    return compose(layers, lightable(game, profile))
