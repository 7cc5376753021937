"""Every game, in a plain list, found by its command-line name.

The list names each game's package (``games/<game>/``); what a game is (its names,
player counts, options and pieces) is its package's ``ABOUT``, read without
importing the rules, so that listing the games (the command line's help, the
lobby) does not load every rules engine. :meth:`Listed.load` imports the one a
table plays: the ``GAME`` of the package's ``game.py``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from games.errors import UnknownGame

from .core import About, Game

PACKAGES: tuple[str, ...] = ("double_take", "dominoes", "doubles_wild", "crosslet", "doublecross")
"""The games' packages in ``games/``, in the order the games are listed."""


@dataclass(frozen=True)
class Listed:
    """A game as the list knows it: its package and what its package says of it."""

    package: str
    """The game's package in ``games`` (``double_take``)."""
    about: About

    @property
    def name(self) -> str:
        return self.about.name

    @property
    def title(self) -> str:
        return self.about.title

    @property
    def min_players(self) -> int:
        return self.about.min_players

    @property
    def max_players(self) -> int:
        return self.about.max_players

    def load(self) -> type[Game]:
        """The game's class, importing its rules."""
        game: type[Game] = importlib.import_module(f"games.{self.package}.game").GAME
        return game


def _listed(package: str) -> Listed:
    about: About = importlib.import_module(f"games.{package}").ABOUT
    return Listed(package, about)


GAMES: tuple[Listed, ...] = tuple(_listed(package) for package in PACKAGES)


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
