"""What a browser seat's player has chosen and not yet played, and the dice a move
asks of the host."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec
from msgspec import Struct

from games.core import Action

from ..runtime.computer import ROLLED


class Draft(Struct):
    """What the player has chosen on the page and not yet played."""

    frm: str | None = None
    """A piece picked up (a game of moves from one cell to another), or the square
    tapped for the first half of a domino."""
    choices: list[dict[str, Any]] = msgspec.field(default_factory=list)
    """Several moves the taps fit (a move with and without captures, a domino either
    way round): the player picks."""
    tile: int | None = None
    """The rack tile picked to lay next (its index on the rack; in the games of hidden
    pieces, of the hand, or of the rack and then the tray)."""
    laid: list[tuple[str, int]] = msgspec.field(default_factory=list)
    """Tiles laid this turn and not yet played: (cell, rack index)."""
    blanks: dict[str, str] = msgspec.field(default_factory=dict)
    """The letter each laid blank stands for, by cell."""
    keep: set[int] = msgspec.field(default_factory=set)
    """The battle dice picked to keep."""


def dice_kind(action: Action) -> str:
    """A rolling action's kind (its type, and a re-roll's pair): what the dice fill in."""
    data = action.to_dict()
    return f"{data['type']}:{data.get('pair', '')}"


def fill_dice(placeholder: Mapping[str, Any], faces: list[int]) -> dict[str, Any]:
    """``placeholder`` (an action whose dice are all ones, as ``legal_actions`` lists
    it) with ``faces`` in the fields the station's dice fill, in order (``ROLLED``)."""
    out = dict(placeholder)
    rest = list(faces)
    for name in ROLLED:
        value = out.get(name)
        if isinstance(value, list | tuple):
            out[name], rest = rest[: len(value)], rest[len(value) :]
    return out
