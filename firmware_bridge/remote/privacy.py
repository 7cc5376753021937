"""What a board may see of a game played board to board: what its seats could see at
a real table.

Double Take and Doubles Wild hide nothing, and Crosslet's racks are public by its
rules, so a guest of these may have the whole game (its seed deals it). Dominoes
hands and DoubleCross racks are hidden: a board may see its own seats' pieces and
only count the others' (and the boneyard or bag), until the game is over and every
hand is shown for the final count. :func:`seat_view` is that view of a position;
:data:`HIDDEN` names what each such game hides. A guest of one of :data:`SEALED`
is given its view in place of the seed (:mod:`.sealed`); :func:`.side.check_game`
would refuse another board to board (docs/remote.md, "What each side may see").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from msgspec import Struct

from games.core import Game

from . import protocol


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


SEALED = frozenset({"dominoes", "doublecross"})
"""The games of hidden pieces played board to board: a guest is never given the seed,
only its own view of each position (:mod:`.sealed`)."""


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


def seat_facts(view: dict[str, Any]) -> dict[str, Any]:
    """A view but for its layout, which the moves played give: what a guest is sent."""
    return {key: value for key, value in view.items() if key != "layout"}


def view_digest(game: Game, seats: Iterable[int]) -> str:
    """The digest of what a board holding ``seats`` sees of the position: the public
    part and its own seats' hidden pieces, computed the same by host and guest."""
    return protocol.value_digest(seat_view(game, seats))


_DRAWN = re.compile(r"(^draws|, takes) ((?:\d-\d ?)+)$")


def public_words(game_name: str, text: str) -> str:
    """A move's words as another seat's board may say them: what a Dominoes seat drew
    only counted (its words name the dominoes, which this board's game holds only
    stand-ins for)."""
    if game_name != "dominoes":
        return text

    def counted(match: re.Match[str]) -> str:
        n = len(match.group(2).split())
        return f"{match.group(1)} {'a domino' if n == 1 else f'{n} dominoes'}"

    return _DRAWN.sub(counted, text)
