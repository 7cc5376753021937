"""Doubles Wild's kit: its referee, view, computer player, hand and options."""

from __future__ import annotations

import random

from games.core import Game, Player
from games.doubles_wild import ABOUT

from ..kit import Kit


def _player(game: Game, rng: random.Random, level: int | None = None, /) -> Player:
    """The computer player at ``level`` (``games.levels``; None: the default)."""
    from games.doubles_wild.player import make_player

    return make_player(game, rng) if level is None else make_player(game, rng, level)


KIT = Kit(
    about=ABOUT,
    make_player=_player,
    default_profile="doubles-wild-gpio",
)
