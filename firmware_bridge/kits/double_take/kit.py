"""Double Take's kit: its referee, view, computer player, hand, options and board."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core import Game, Player
from games.double_take import ABOUT

from ..kit import BoardLook, Kit, Specials


def _player(game: Game, rng: random.Random, level: int | None = None, /) -> Player:
    """The computer player at ``level`` (``games.levels``; None: the default)."""
    from games.double_take.player import make_player

    return make_player(game, rng) if level is None else make_player(game, rng, level)


def _squares(game: Game, cells: Sequence[str]) -> Specials:
    """The board's two colours of points."""
    colour = getattr(game, "colour", None)
    if colour is None:
        return {}
    fills = ("#f4cccc", "#d9ead3")
    return {cell: {"text": "", "fill": fills[colour(cell) % 2]} for cell in cells}


KIT = Kit(
    about=ABOUT,
    make_player=_player,
    default_profile="sim",
    # Red's near row (rank 1) is at the bottom, as red sits.
    board=BoardLook(specials=_squares, upside_down=True),
)
