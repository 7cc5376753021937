"""Doubles Wild: roll two red and two blue dice, place balls, battle, score lines of
three (the rules as played: docs/rules.md).

``game.py`` holds the turn, ``actions.py`` what a player does, ``board.py`` the lines,
``odds.py`` the dice odds and ``player.py`` the computer; this module says what the
game is."""

from games.core import About
from games.options import OptionSpec

ABOUT = About(
    name="doubles-wild",
    title="Doubles Wild",
    min_players=2,
    max_players=4,
    pieces=("balls (3 players × 18 is the most)", 54),
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
