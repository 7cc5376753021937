"""Every game, in a plain list, found by its command-line name.

The list names each game's module and class without importing it, so that
listing the games (the command line's help, the lobby) does not load every rules
engine; :meth:`Listed.load` imports the one a table plays.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from .core import Game, UnknownGame


@dataclass(frozen=True)
class Listed:
    """A game as the list knows it: its names, its player counts and where its class is.

    The values repeat the class's own; a test checks that they agree.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    module: str
    """The module in ``games`` that defines the class (``double_take``)."""
    class_name: str

    def load(self) -> type[Game]:
        """The game's class, importing its module."""
        game: type[Game] = getattr(importlib.import_module(f"games.{self.module}"), self.class_name)
        return game


GAMES: tuple[Listed, ...] = (
    Listed("double-take", "Double Take", 2, 2, "double_take", "DoubleTake"),
    Listed("dominoes", "Double Double Dominoes", 2, 6, "dominoes", "Dominoes"),
    Listed("doubles-wild", "Doubles Wild", 2, 4, "doubles_wild", "DoublesWild"),
    Listed("crosslet", "Crosslet", 2, 4, "crosslet", "Crosslet"),
    Listed("doublecross", "DoubleCross", 2, 4, "doublecross", "DoubleCross"),
)


def game_names() -> list[str]:
    return [g.name for g in GAMES]


def find_listed(name: str) -> Listed:
    """The listed game called ``name`` (``"double-take"``), without importing it."""
    for game in GAMES:
        if game.name == name:
            return game
    names = game_names()
    import difflib  # here: only a misspelt name needs it

    near = difflib.get_close_matches(name, names, 1)
    hint = f"; did you mean '{near[0]}'?" if near else ""
    raise UnknownGame(f"no game called {name!r} (games: {', '.join(names)}){hint}")


def find_game(name: str) -> type[Game]:
    """The game class called ``name`` (``"double-take"``)."""
    return find_listed(name).load()
