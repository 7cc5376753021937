"""One kit per game: everything the game needs beyond its rules, in one folder.

Each game's folder here (``kits/crosslet/``...) holds its kit (``kit.py``: computer
player, words, board geometry, default profile), its referee, turn state and view,
and its simulated hand (``kit.py`` in this folder says how they are found).
:data:`FOLDERS` is the one list of games at a table, and :data:`KITS` their kits by
the name ``games.registry`` gives the rules (a test checks that the two lists agree
and that every folder has every part). The options (``options.py``), the board's
drawing plan (``spectate/geometry.py``), the bill of materials, the simulator and
the table read them here.

Importing the kits imports no referee, view, hand or move generator: those are
found in the kit's folder and loaded on first use. :func:`new_game` makes a game
without them, for processes that only follow one (the web view, the club publisher).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from importlib import import_module
from typing import Any

from games.core import Game
from games.errors import UnknownGame
from games.registry import find_game

from .kit import BoardLook, Kit
from .words import JournaledWords, crosslet_generator, crosslet_lexicon, lexicon_for

__all__ = [
    "FOLDERS",
    "KITS",
    "BoardLook",
    "JournaledWords",
    "Kit",
    "crosslet_generator",
    "crosslet_lexicon",
    "find_kit",
    "lexicon_for",
    "new_game",
    "piece_sets",
]

FOLDERS: tuple[str, ...] = ("crosslet", "doublecross", "double_take", "dominoes", "doubles_wild")
"""The kits' folders, one a game a board can referee."""

KITS: dict[str, Kit] = {
    kit.name: kit for kit in (import_module(f".{folder}.kit", __name__).KIT for folder in FOLDERS)
}
"""Every game a board can referee, by its name in ``games.registry``."""


def piece_sets() -> dict[str, tuple[str, int]]:
    """Each game's pieces, as its rules state them: what they are and how many (the
    bill of materials counts the magnets and tags of a board's games by them)."""
    return {name: kit.about.pieces for name, kit in KITS.items()}


def find_kit(name: str) -> Kit:
    """The kit of the game called ``name``; an unknown name is told the games there
    are (and the nearest, when it looks misspelt)."""
    kit = KITS.get(name)
    if kit is None:
        find_game(name)  # raises UnknownGame with the list of games
        raise UnknownGame(f"{name} cannot be played on a board yet")
    return kit


def new_game(name: str, players: int, rng: random.Random, options: Mapping[str, Any]) -> Game:
    """A new game called ``name`` to follow: its rules only, without importing its referee
    and without loading a move generator, which only hints and computer players use."""
    kit = KITS.get(name)
    if kit is not None:
        return kit.followed_game(players, rng, options)
    return find_game(name)(players, rng, options)
