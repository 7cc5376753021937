"""Double Take's kit: its referee, view, computer player, hand, options and board."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core import Game, Player

from .kit import BoardLook, Kit, Specials
from .option_spec import OptionSpec


def _player(game: Game, rng: random.Random) -> Player:
    from games.double_take import DoubleTakePlayer

    return DoubleTakePlayer(rng)


def _squares(game: Game, cells: Sequence[str]) -> Specials:
    """The board's two colours of points."""
    colour = getattr(game, "colour", None)
    if colour is None:
        return {}
    fills = ("#f4cccc", "#d9ead3")
    return {cell: {"text": "", "fill": fills[colour(cell) % 2]} for cell in cells}


KIT = Kit(
    name="double-take",
    referee="firmware_bridge.referees.double_take.referee:DoubleTakeReferee",
    view="firmware_bridge.referees.double_take.view:DoubleTakeView",
    make_player=_player,
    hand="firmware_bridge.sim.hands.double_take:DoubleTakeHand",
    default_profile="sim",
    options=(
        OptionSpec("rows", "number", "9", "how many ranks the board has", lo=8, hi=10),
        OptionSpec(
            "repetitions",
            "number",
            "3",
            "how many times one position may occur before the game is drawn",
            lo=2,
        ),
    ),
    # Red's near row (rank 1) is at the bottom, as red sits.
    board=BoardLook(specials=_squares, upside_down=True),
)
