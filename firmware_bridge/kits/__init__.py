"""One kit per game: everything the game needs beyond its rules, in one place.

Each game's module here (``kits/crosslet.py``...) names its referee, view, words,
computer player, options, board geometry, simulated hand and default profile;
:data:`KITS` lists them by the name ``games.registry`` gives the rules (a test
checks that the two lists agree). The options (``options.py``), the board's
drawing plan (``spectate/geometry.py``), the simulated hands (``sim/hands``) and
the table read them here.

Importing the kits imports no referee, view, hand or move generator: those are
named by module and class and loaded on first use. :func:`new_game` makes a game
without them, for processes that only follow one (the web view, the club publisher).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.core import Game, UnknownGame
from games.registry import find_game

from . import crosslet, dominoes, double_take, doublecross, doubles_wild
from .kit import BoardLook, Kit
from .words import JournaledWords, crosslet_generator, crosslet_lexicon, lexicon_for

__all__ = [
    "KITS",
    "BoardLook",
    "JournaledWords",
    "Kit",
    "crosslet_generator",
    "crosslet_lexicon",
    "find_kit",
    "lexicon_for",
    "new_game",
]

KITS: dict[str, Kit] = {
    kit.name: kit
    for kit in (crosslet.KIT, doublecross.KIT, double_take.KIT, dominoes.KIT, doubles_wild.KIT)
}
"""Every game a board can referee, by its name in ``games.registry``."""


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
