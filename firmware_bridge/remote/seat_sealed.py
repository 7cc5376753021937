"""A browser seat of a game of hidden pieces (:data:`.privacy.SEALED`): Dominoes,
DoubleCross.

The seat is a guest of such a game as a guest board is (:mod:`.sealed`): it is never
given the seed, only its own view of each position, on its ``to/<seat>`` (the deal
first, as move 0). Its game is dealt from the first view, its own hand or rack as
the view gives it and stand-ins for every piece it cannot see; before each of the
host's moves is played here the stand-ins are arranged so that the rules, playing
it, reach the view the host sent after it, and after it the seat's view of its game
must be the host's, digest for digest, or the game stops here. A host's move that
comes before its view waits here for it.

So the seat's process never holds another seat's hand or rack, the bag's order or
the seed: its page and its ``game.json`` could not show them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.core import Game
from games.errors import GameError

from ..kits import new_game
from . import protocol
from .privacy import HIDDEN, SEALED, seat_view
from .sealed import Views, ViewsDisagree, dealing_options

__all__ = ["SEALED", "Sealed", "ViewsDisagree", "hidden_json"]


class Sealed:
    """What a seat of a game of hidden pieces keeps besides its game: the host's
    views, and the host's moves still to be played here."""

    def __init__(self, table: protocol.Table, mine: frozenset[int]) -> None:
        self.table = table
        self.mine = mine
        self.views = Views(table.game, mine, None, table.game_key)
        self.waiting: dict[int, dict[str, Any]] = {}
        """The host's moves, by number, to be played here once the view after each
        has come."""
        self.dealt = False

    def blank(self) -> Game:
        """The game before the deal has come (never shown: the page waits)."""
        t = self.table
        return new_game(t.game, t.players, random.Random(0), dict(t.options))

    def take(self, seen: protocol.Seen) -> bool:
        """Keep a view; False for one already here (sent again)."""
        return self.views.take(seen)

    def deal(self) -> Game | None:
        """The seat's game dealt from the first view, once it has come (None: not yet).
        Raises :class:`ViewsDisagree` when the deal cannot be this seat's."""
        first = self.views.views.get(0)
        if first is None:
            return None
        t = self.table
        options = dealing_options(t.game, first, self.mine, t.players) or dict(t.options)
        try:
            game = new_game(t.game, t.players, random.Random(0), options)
        except (GameError, ValueError) as exc:
            raise ViewsDisagree(f"the host's deal cannot be this seat's: {exc}") from None
        self.views.deal(game)
        self.dealt = True
        return game

    def deliver(self, game: Game, play: Callable[[int, dict[str, Any]], bool]) -> None:
        """Play (``play``) each of the host's moves waiting whose view after it has
        come, the stand-ins of ``game`` arranged first to reach that view; after it,
        the view of ``game`` must be the host's. Raises :class:`ViewsDisagree`."""
        views = self.views
        while True:
            n = len(game.history) + 1
            data = self.waiting.get(n)
            if data is None or not views.can_make(game, n):
                return
            views.prepare(game, n, game.decode(data))
            del self.waiting[n]
            if not play(n, data):
                return
            views.played(game, n)

    def ahead(self, have: int) -> list[dict[str, Any]]:
        """The host's moves after the first ``have``, in turn, with no gap."""
        out: list[dict[str, Any]] = []
        while (data := self.waiting.get(have + len(out) + 1)) is not None:
            out.append(data)
        return out


def hidden_json(game: Game, mine: frozenset[int]) -> dict[str, Any]:
    """What the seat may say of the hidden pieces: its own seats' listed, the
    others' counted (also once the game is over), and the counts the table shows."""
    hidden = HIDDEN[game.name]
    view = seat_view(game, mine)
    held = [hidden.pieces(game, seat) for seat in range(game.players)]
    out = {f"{hidden.what}s": [list(h) if s in mine else len(h) for s, h in enumerate(held)]}
    for key in ("boneyard", "bag", "pit", "phase", "trays", "specials"):
        if key in view:
            out[key] = view[key]
    return out
