"""Double Take: two interleaved networks of points, pieces that step on their own
colour's lines and take by sandwiching (the rules as played: docs/rules.md).

``game.py`` holds the rules and a computer player; this module says what the game is."""

from games.core import About
from games.options import OptionSpec

ABOUT = About(
    name="double-take",
    title="Double Take",
    min_players=2,
    max_players=2,
    pieces=("Double Take pieces", 24),
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
)
