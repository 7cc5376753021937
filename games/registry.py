"""Every game, in a plain list, found by its command-line name."""

from __future__ import annotations

import difflib

from .core import Game, UnknownGame
from .crosslet import Crosslet
from .dominoes import Dominoes
from .double_take import DoubleTake
from .doubles_wild import DoublesWild

GAMES: list[type[Game]] = [DoubleTake, Dominoes, DoublesWild, Crosslet]


def find_game(name: str) -> type[Game]:
    """The game class called ``name`` (``"double-take"``)."""
    for game in GAMES:
        if game.name == name:
            return game
    names = [g.name for g in GAMES]
    near = difflib.get_close_matches(name, names, 1)
    hint = f"; did you mean '{near[0]}'?" if near else ""
    raise UnknownGame(f"no game called {name!r} (games: {', '.join(names)}){hint}")
