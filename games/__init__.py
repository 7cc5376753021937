"""The rules of the games: pure, standard library only, no I/O."""
