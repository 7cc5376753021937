"""Doubles Wild's kit: its referee, view, computer player, hand and options."""

from __future__ import annotations

import random

from games.core import Game, Player

from .kit import Kit
from .option_spec import OptionSpec


def _player(game: Game, rng: random.Random) -> Player:
    from games.doubles_wild_player import DoublesWildPlayer

    return DoublesWildPlayer(rng)


KIT = Kit(
    name="doubles-wild",
    referee="firmware_bridge.referees.doubles_wild.referee:DoublesWildReferee",
    view="firmware_bridge.referees.doubles_wild.view:DoublesWildView",
    make_player=_player,
    hand="firmware_bridge.sim.hands.doubles_wild:DoublesWildHand",
    default_profile="doubles-wild-gpio",
    options=(
        OptionSpec(
            "balls",
            "number",
            "24 each for 2 players, 18 for 3, 12 for 4",
            "how many balls each player starts with",
            lo=1,
        ),
    ),
)
