"""One referee per game: how each game is recognised and driven on the board."""
