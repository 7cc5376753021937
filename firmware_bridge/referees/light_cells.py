"""The words of the lights under the squares: lit cells, a move's cells read off the
layouts around it, and the colour a fix is lit in (``lights.py`` decides what is lit).

Views import these for their hooks: the lights themselves import the games' kits.
"""

from __future__ import annotations

from collections.abc import Mapping

from msgspec import Struct

from games.core import Cell, Piece

from ..screen.palette import LIFT, LIFT_NOW, PLACE, PLACE_NOW
from .fixes import Fix, FixAction

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
