"""Double Double Dominoes: chains of dominoes on a 15×15 board, doubles that score
twice (the rules as played: docs/rules.md).

``game.py`` holds the turn, the scoring and a computer player, ``board.py`` the
board's lines and diamonds, ``seen.py`` the position as one seat's board knows it
(its own hands, stand-ins for the rest); this module says what the game is."""

from games.core import About

ABOUT = About(
    name="dominoes",
    title="Double Double Dominoes",
    min_players=2,
    max_players=6,
    pieces=("domino halves (56 dominoes)", 112),
)
