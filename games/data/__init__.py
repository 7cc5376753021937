"""Package data of the games: the ENABLE word list (see README.md for its credit)."""
