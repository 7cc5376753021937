"""Double Double Dominoes' kit: its referee, view, computer player, hand and board."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core import Game, Player
from games.dominoes import ABOUT

from ..kit import BoardLook, Kit, Specials


def _player(game: Game, rng: random.Random, level: int | None = None, /) -> Player:
    """The computer player at ``level`` (``games.levels``; None: the default)."""
    from games.dominoes.player import make_player

    return make_player(game, rng) if level is None else make_player(game, rng, level)


def _diamonds(game: Game, cells: Sequence[str]) -> Specials:
    """The star the first domino covers and the diamonds with their worth."""
    from games.dominoes.board import DIAMONDS, STAR, cell_index

    out: Specials = {}
    for cell in cells:
        n = DIAMONDS.get(cell_index(cell))
        if cell == STAR:
            out[cell] = {"text": "★", "fill": "#ffd966", "name": "star: the first domino"}
        elif n is not None:
            out[cell] = {"text": f"◆{n}", "fill": "#d9d2e9", "name": f"diamond worth {n}"}
    return out


KIT = Kit(
    about=ABOUT,
    make_player=_player,
    default_profile="rfid-15x15-pico",
    board=BoardLook(specials=_diamonds),
    computer_needs_tags="the simulated players cannot answer the menu that asks "
    "which domino was laid",
)
