"""The words of the lights under the squares: lit cells, a move's cells read off the
layouts around it or worked out on a copy of the game, and the colour a fix is lit in
(``runtime/lights.py`` decides what is lit).

Views import these for their hooks, and the referee for the layers it rules on: the
lights themselves import the games' kits.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import logging
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from msgspec import Struct

from games.core import Action, Cell, Game, Piece
from games.errors import GameError

from ..screen.palette import FROM, LIFT, LIFT_NOW, PLACE, PLACE_NOW, TO
from .fixes import Fix, FixAction

log = logging.getLogger("tabletop")

Lit = dict[str, str]
"""Lit cells: cell → colour name."""


class Moved(Struct, frozen=True):
    """The cells a move touches: where pieces leave, where they arrive or change."""

    frm: tuple[Cell, ...] = ()
    to: tuple[Cell, ...] = ()


def fix_colour(fix: Fix, first: bool) -> str:
    """A fix's colour: the one asked first brighter than the rest."""
    if fix.action is FixAction.LIFT:
        return LIFT_NOW if first else LIFT
    return PLACE_NOW if first else PLACE


def layout_moved(before: Mapping[Cell, Piece], after: Mapping[Cell, Piece]) -> Moved:
    """The cells a move changed, from the layout before it and after it: a cell whose
    piece leaves is a from, a cell that gains a piece or another piece is a to."""
    frm = tuple(c for c in before if c not in after)
    to = tuple(c for c, p in after.items() if before.get(c) != p)
    return Moved(frm, to)


def fix_lights(fixes: Sequence[Fix], colour: Callable[[Fix, bool], str] = fix_colour) -> Lit:
    """Every fix's cell, the first fix in the ``now`` colours; dark when there is none."""
    lit: Lit = {}
    for i, fix in enumerate(fixes):
        lit.setdefault(fix.cell, colour(fix, i == 0))
    return lit


def move_lights(moved: Moved, frm: str = FROM, to: str = TO) -> Lit:
    """A move's cells: where pieces leave in ``frm``, where they arrive in ``to``."""
    lit = dict.fromkeys(moved.frm, frm)
    lit.update(dict.fromkeys(moved.to, to))
    return lit


_STATE_TYPES = (
    list,
    dict,
    set,
    frozenset,
    tuple,
    Counter,
    int,
    float,
    str,
    bool,
    type(None),
    enum.Enum,
    random.Random,
)


def _is_state(value: Any) -> bool:
    """Whether a game's attribute is position (copied) rather than a service the game
    uses, such as its lexicon or move generator (shared, never changed by a move)."""
    return (
        isinstance(value, _STATE_TYPES)
        or dataclasses.is_dataclass(value)
        or callable(getattr(value, "copy", None))
    )


def _position_copy(game: Game) -> Game:
    """A copy of ``game`` a move can be played on, its services shared."""
    memo: dict[int, Any] = {
        id(value): value for value in vars(game).values() if not _is_state(value)
    }
    return copy.deepcopy(game, memo)


def action_moved(game: Game, action: Action) -> Moved:
    """The cells ``action`` would change, played on a copy of ``game`` (unchanged).

    An action the game cannot play on the copy touches no cell.
    """
    before = dict(game.layout())
    trial = _position_copy(game)
    try:
        verdict = trial.judge(action)
        if not verdict.accepted:
            return Moved()
        trial.apply(action)
    except (GameError, ValueError) as exc:
        log.warning("no lights for %s: %s", action.type, exc)
        return Moved()
    return layout_moved(before, trial.layout())
