"""Doubles Wild's kit: its referee, view, computer player, hand and options."""

from __future__ import annotations

import random

from games.core import Game, Player
from games.doubles_wild import ABOUT

from ..kit import Kit


def _player(game: Game, rng: random.Random) -> Player:
    from games.doubles_wild.player import DoublesWildPlayer

    return DoublesWildPlayer(rng)


KIT = Kit(
    about=ABOUT,
    make_player=_player,
    default_profile="doubles-wild-gpio",
)
