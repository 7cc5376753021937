"""Crosslet: a Scrabble relative with open racks where one turn may lay tiles in
several lines (the rules as played: docs/rules.md).

``game.py`` holds the turn, ``actions.py`` what a player does, ``board.py`` the
squares and tiles, ``movegen.py`` the move generator and ``player.py`` the computer;
this module says what the game is."""

from games.core import About
from games.options import FIRST_SEAT, WORD_LIST, OptionSpec

ABOUT = About(
    name="crosslet",
    title="Crosslet",
    min_players=2,
    max_players=4,
    pieces=("letter tiles", 100),
    options=(
        OptionSpec(
            "racks",
            "choice",
            "'dealt'",
            "'dealt': the companion deals every rack from its own bag; 'table': the "
            "players draw from the table's bag",
            choices=("dealt", "table"),
        ),
        FIRST_SEAT,
        OptionSpec(
            "bag",
            "tiles",
            "shuffled",
            "the order the 100 tiles are drawn in (replays and tests)",
        ),
        WORD_LIST,
    ),
)
