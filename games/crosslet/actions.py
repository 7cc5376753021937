"""Crosslet's actions: what a turn may do, as the journal records it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.core import JSON, Action, PlayerId


@dataclass(frozen=True)
class PlaceTiles(Action):
    """Lay tiles on empty cells: ``tiles`` are (cell, letter) pairs, ``"?"`` for a blank;
    ``blanks`` names, by cell, the letter each blank stands for."""

    type: ClassVar[str] = "place"
    tiles: tuple[tuple[str, str], ...]
    blanks: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> JSON:
        return {
            "type": self.type,
            "tiles": [list(t) for t in self.tiles],
            "blanks": [list(b) for b in self.blanks],
        }


@dataclass(frozen=True)
class Exchange(Action):
    """Put ``letters`` back in the bag and draw as many new tiles."""

    type: ClassVar[str] = "exchange"
    letters: tuple[str, ...]


@dataclass(frozen=True)
class ExchangeCount(Action):
    """Put ``count`` tiles back in the table's bag and draw as many (table racks only)."""

    type: ClassVar[str] = "exchange-count"
    count: int


@dataclass(frozen=True)
class SetRack(Action):
    """What a seat's rack holds now, as the board saw it (table racks only)."""

    type: ClassVar[str] = "set-rack"
    player: PlayerId
    letters: tuple[str, ...]


@dataclass(frozen=True)
class RevealRack(Action):
    """The tiles a seat had left when the game ended, laid out for the count."""

    type: ClassVar[str] = "reveal-rack"
    player: PlayerId
    letters: tuple[str, ...]


@dataclass(frozen=True)
class TableBag(Action):
    """Play from the table's own bag from now on; only before the first action."""

    type: ClassVar[str] = "table-bag"
