"""What a board may see of a game played board to board: what its seats could see at
a real table.

Double Take and Doubles Wild hide nothing, and Crosslet's racks are public by its
rules, so a guest of these may have the whole game (its seed deals it). Dominoes
hands and DoubleCross racks are hidden: a board may see its own seats' pieces and
only count the others' (and the boneyard or bag), until the game is over and every
hand is shown for the final count. :func:`seat_view` is that view of a position;
:data:`HIDDEN` names what each such game hides, and :func:`.side.check_game`
refuses those games board to board until a guest can be given its view in place of
the seed (docs/remote.md, "What each side may see").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from msgspec import Struct

from games.core import Game


class Hidden(Struct, frozen=True):
    """What a game keeps from the other seats."""

    what: str
    """Its name for a seat's hidden pieces: ``hand``, ``rack``."""
    pieces: Callable[[Any, int], list[str]]
    """A seat's hidden pieces, as the table names them."""
    field: str | None
    """The field of ``Game.state_dict`` that lists every seat's pieces, if it has one."""


def _hand(game: Any, seat: int) -> list[str]:
    return [str(domino) for domino in game.hand(seat)]


def _rack(game: Any, seat: int) -> list[str]:
    return [str(letter) for letter in game.rack(seat)]


HIDDEN: dict[str, Hidden] = {
    "dominoes": Hidden("hand", _hand, None),
    "doublecross": Hidden("rack", _rack, "racks"),
}
"""The games with hidden pieces, by name: each seat's hand or rack, and the order of
the boneyard or bag (which the seed gives)."""


def seat_view(game: Game, seats: Iterable[int]) -> dict[str, Any]:
    """The position as a board holding ``seats`` sees it: the game's picture
    (``state_dict``) with each seat's hidden pieces listed for ``seats`` and only
    counted for the others, all of them listed once the game is over."""
    view: dict[str, Any] = dict(game.state_dict())
    hidden = HIDDEN.get(game.name)
    if hidden is None:
        return view
    if hidden.field is not None:
        view.pop(hidden.field, None)
    mine = set(seats)
    shown = game.outcome is not None
    pieces = [hidden.pieces(game, seat) for seat in range(game.players)]
    view[f"{hidden.what}s"] = [
        list(held) if shown or seat in mine else len(held) for seat, held in enumerate(pieces)
    ]
    return view
