"""A Crosslet referee in a session, fed settled boards of tagged tiles by hand; shared set-up.

The lexicon is loaded once per test run from pytest's cache (where the lexicon
store's own tests keep it too), and the crosslet kit is pointed at it, so no test
builds the index or the move generator twice.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.kits import words
from firmware_bridge.kits.crosslet.referee import CrossletReferee
from firmware_bridge.kits.lexicon_store import load_lexicon
from games.crosslet.game import Crosslet
from games.crosslet.movegen import MoveGenerator
from games.lexicon import Lexicon
from hardware.board import OCCUPIED
from hardware.buttons import ButtonEvent
from tests.firmware_bridge.tagged_table import TaggedTable

TILES = (
    "A1x9 B3x2 C3x2 D2x4 E1x12 F4x2 G2x3 H4x2 I1x9 J8x1 K5x1 L1x4 M3x2 N1x6 O1x8 "
    "P3x2 Q10x1 R1x6 S1x4 T1x6 U1x4 V4x2 W4x2 X8x1 Y4x2 Z10x1 ?0x2"
)
"""RULES.md §1's tile table, copied here so the tests do not trust the engine's."""
VALUES = {entry[0]: int(entry[1:].split("x")[0]) for entry in TILES.split()}
COUNTS = {entry[0]: int(entry.split("x")[1]) for entry in TILES.split()}


@functools.cache
def _lexicon(directory: Path) -> Lexicon:
    return load_lexicon(cache_dir=directory)


def shared_lexicon(request: pytest.FixtureRequest, factory: pytest.TempPathFactory) -> Lexicon:
    """The shipped lexicon, built at most once per run and then read from the cache."""
    cache = getattr(request.config, "cache", None)
    directory = cache.mkdir("tabletop-lexicon") if cache else factory.getbasetemp() / "lexicon"
    return _lexicon(directory)


@functools.cache
def generator_of(lexicon: Lexicon) -> MoveGenerator:
    """The move generator of ``lexicon``, built at most once per run."""
    return MoveGenerator(lexicon.words())


def kit_uses(lexicon: Lexicon) -> Iterator[None]:
    """Point the crosslet kit at ``lexicon`` and its generator while a test module runs."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(words, "crosslet_lexicon", lambda: lexicon)
        patch.setattr(words, "crosslet_generator", generator_of)
        yield


def bag(*racks: str, seed: int | None = None) -> str:
    """A bag order: these racks dealt first (seat 0 first), then the other tiles.

    The rest come in alphabetical order, or shuffled by ``seed``.
    """
    left = [t for t, n in COUNTS.items() for _ in range(n)]
    for tile in "".join(racks):
        left.remove(tile)
    if seed is None:
        left.sort(key=lambda t: (t == "?", t))
    else:
        random.Random(seed).shuffle(left)
    return "".join(racks) + "".join(left)


def new_game(lexicon: Lexicon, *racks: str, players: int = 2) -> Crosslet:
    options = {"bag": bag(*racks), "first": 1}
    generator = generator_of(lexicon)
    return Crosslet(players, random.Random(1), options, lexicon=lexicon, generator=generator)


class Table(TaggedTable):
    """A session plus the tiles on the board, each with its own enrolled tag."""

    def __init__(self, game: Crosslet, *, rfid: bool = True, profile: str = "test") -> None:
        super().__init__(game, rfid=rfid, profile=profile)

    @property
    def referee(self) -> CrossletReferee:
        referee = self.session.referee
        assert isinstance(referee, CrossletReferee)
        return referee

    @property
    def game(self) -> Crosslet:
        game = self.session.game
        assert isinstance(game, Crosslet)
        return game

    def lay(self, cells: str, letters: str) -> None:
        """Lay tiles as a script does: ``lay("H8,I8,J8", "CA?")``."""
        for cell, letter in zip(cells.split(","), letters, strict=True):
            self.board[cell] = self.tag(letter)
        self.settle()

    def put(self, cell: str, label: str | None) -> None:
        self.board[cell] = self.tag(label)
        self.settle()

    def unread(self, cell: str) -> None:
        """A piece on ``cell`` whose tag the reader cannot read."""
        self.board[cell] = OCCUPIED
        self.settle()

    def lift(self, *cells: str) -> None:
        for cell in cells:
            del self.board[cell]
        self.settle()

    def press(self, name: str, long: bool = False) -> None:
        self.session.handle(ButtonEvent(name, long))

    def choose(self, value: object) -> None:
        """Answer the open menu with ``value`` by walking right, then ok."""
        menu = self.referee.menu
        assert menu is not None, "no menu is open"
        while menu.choice != value:
            self.press("right")
        self.press("ok")

    def oled(self) -> list[str]:
        return self.session.screen().text()
