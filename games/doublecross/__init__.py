"""DoubleCross: every tile is judged as it lands, and points flow to the owners of
tiles (the rules as played: docs/rules.md).

``game.py`` holds the turn; ``setup.py`` the set-up and its options, ``board.py`` the
board, ``judge.py`` the judging of a tile, ``score.py`` the points, ``play.py`` and
``actions.py`` what a player does, ``planner.py`` and ``player.py`` the computer; this
module says what the game is."""

from games.core import About
from games.options import FIRST_SEAT, WORD_LIST, OptionSpec

ABOUT = About(
    name="doublecross",
    title="DoubleCross",
    min_players=2,
    max_players=4,
    pieces=("letter tiles", 100),
    options=(
        OptionSpec("min_word", "number", "3", "the fewest letters of a complete word", lo=3, hi=4),
        FIRST_SEAT,
        OptionSpec(
            "start_word", "word", "drawn from the bag", "the start word across row 8, 3-5 letters"
        ),
        OptionSpec("racks", "racks", "drawn from the bag", "each seat's rack, up to 6 tiles"),
        OptionSpec(
            "bag",
            "letters",
            "the rest, shuffled",
            "what is left in the bag after the start word and the racks: refills come from "
            "its front, returned tiles go to its end; tiles named nowhere are out of the game",
        ),
        OptionSpec(
            "specials",
            "cells",
            "placed at random",
            "the special spaces, replacing the random layout: cell = bonus, block, mystery, "
            "ns, ew, nsew or bomb-N (seat N's coloured bomb)",
        ),
        WORD_LIST,
    ),
)
