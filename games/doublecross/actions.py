"""DoubleCross's actions and how they are read back from the journal."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from games.core import Action, Pass, PlayerId, Resign
from games.errors import MalformedAction


@dataclass(frozen=True)
class PlaceTile(Action):
    """Lay one tile of the rack on an empty cell; it is judged as it lands."""

    type: ClassVar[str] = "place"
    cell: str
    letter: str


@dataclass(frozen=True)
class PlayBomb(Action):
    """Set off a directional bomb of the tray (``ns``, ``ew`` or ``nsew``) on a cell."""

    type: ClassVar[str] = "bomb"
    kind: str
    cell: str


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn (the OK button); with no tile placed and no bomb played it is a pass."""

    type: ClassVar[str] = "end-turn"


@dataclass(frozen=True)
class NewLetters(Action):
    """Give the rack back to the bag and draw six; the turn passes."""

    type: ClassVar[str] = "new-letters"


@dataclass(frozen=True)
class EndGame(Action):
    """The seat that made the last of a full round of passes ends the game.

    ``player`` is that seat: the rules refuse any other. ``None`` stands for "the last
    passer, whoever it is": it is what an ``end-game`` entry journaled without a seat
    reads back as, and ``DoubleCross.decode`` puts the last passer in its place while
    someone may end the game, so such a journal replays to the same end and the end is
    credited to the last passer. Where nobody may end the game it stays ``None`` and is
    refused like any other ``EndGame`` there.
    """

    type: ClassVar[str] = "end-game"
    player: PlayerId | None = None


@dataclass(frozen=True)
class Undo(Action):
    """Take the last tile of this turn back to the rack, while the turn has completed,
    destroyed and triggered nothing."""

    type: ClassVar[str] = "undo"


_SIMPLE: dict[str, type[Action]] = {
    EndTurn.type: EndTurn,
    NewLetters.type: NewLetters,
    Undo.type: Undo,
    Pass.type: Pass,
}


def decode(data: Mapping[str, Any]) -> Action:
    """Rebuild an action from ``Action.to_dict`` output; MalformedAction if it is not one."""
    kind = data.get("type") if isinstance(data, Mapping) else None
    if kind == PlaceTile.type:
        cell, letter = data.get("cell"), data.get("letter")
        if not isinstance(cell, str) or not isinstance(letter, str):
            raise MalformedAction(f"place needs a cell and a letter, not {cell!r} and {letter!r}")
        return PlaceTile(cell, letter)
    if kind == PlayBomb.type:
        bomb, cell = data.get("kind"), data.get("cell")
        if not isinstance(bomb, str) or not isinstance(cell, str):
            raise MalformedAction(f"bomb needs a kind and a cell, not {bomb!r} and {cell!r}")
        return PlayBomb(bomb, cell)
    if kind == Resign.type:
        player = data.get("player")
        if isinstance(player, bool) or not isinstance(player, int):
            raise MalformedAction(f"resign needs a seat number, not {player!r}")
        return Resign(player)
    if kind == EndGame.type:
        seat = data.get("player")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise MalformedAction(f"end-game needs the seat number that ends it, not {seat!r}")
        return EndGame(seat)
    if isinstance(kind, str) and kind in _SIMPLE:
        return _SIMPLE[kind]()
    raise MalformedAction(
        f"{kind!r} is not a DoubleCross action; expected place, bomb, end-turn, pass, "
        "new-letters, end-game, undo or resign"
    )
