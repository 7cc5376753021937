"""Shared helpers for the Crosslet tests: a small word set, rigged bags, ENABLE loading."""

from __future__ import annotations

import gzip
import itertools
import random
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from games.crosslet.board import SIZE, TILE_COUNTS, cell_name
from games.crosslet.game import Crosslet, PlaceTiles

ENABLE_PATHS = (
    Path(__file__).resolve().parents[3] / "games" / "data" / "enable1.txt.gz",
    Path("/work/shared/data/enable1.txt.gz"),
)

SMALL_WORDS = [
    "at",
    "as",
    "cat",
    "cats",
    "sand",
    "crate",
    "crates",
    "el",
    "liras",
    "tears",
    "er",
    "es",
    "eat",
    "to",
    "oat",
    "dives",
    "cut",
    "touter",
    "cel",
    "ta",
    "tat",
    "tats",
    "zoa",
    "za",
    "qi",
    "ax",
    "ex",
    "ox",
    "xi",
    "it",
    "is",
    "ti",
    "in",
    "on",
    "no",
    "an",
    "na",
    "ad",
    "da",
]


class WordSet:
    """A set of lower-case words that satisfies the WordList protocol."""

    def __init__(self, words: Iterable[str]) -> None:
        self._words = sorted({w.lower() for w in words})
        self._set = frozenset(self._words)

    def is_word(self, s: str) -> bool:
        return s in self._set

    def words(self) -> list[str]:
        return list(self._words)


def enable_words() -> list[str] | None:
    for path in ENABLE_PATHS:
        if path.exists():
            with gzip.open(path, "rt", encoding="ascii") as f:
                return f.read().split()
    return None


def rigged_bag(*draws: str) -> str:
    """The 100 tiles with ``draws`` first (in drawing order), the rest alphabetically."""
    head = "".join(draws).upper()
    left = Counter(TILE_COUNTS) - Counter(head)
    if Counter(head) - Counter(TILE_COUNTS):
        raise ValueError(f"more tiles than the set holds in {head}")
    return head + "".join(t * n for t, n in sorted(left.items()))


def rigged_game(*draws: str, players: int = 2, words: Iterable[str] = SMALL_WORDS) -> Crosslet:
    return Crosslet(
        players,
        random.Random(1),
        {"bag": rigged_bag(*draws), "first": 1},
        lexicon=WordSet(words),
    )


def place(spec: str, blanks: str = "") -> PlaceTiles:
    """``place("H8 C, I8 A", "J8 T")``: tiles as 'cell letter' pairs, blanks likewise."""

    def pairs(text: str) -> tuple[tuple[str, str], ...]:
        return tuple((item.split()[0], item.split()[1]) for item in text.split(",") if item.strip())

    return PlaceTiles(pairs(spec), pairs(blanks))


def single_line_placements(game: Crosslet, rack: str) -> set[frozenset[tuple[str, str]]]:
    """Brute force: every run of rack tiles laid along a line that the rules accept."""
    board = game.board_letters()
    found: set[frozenset[tuple[str, str]]] = set()
    sequences = {seq for n in range(1, len(rack) + 1) for seq in itertools.permutations(rack, n)}
    for down, line, start in itertools.product((False, True), range(SIZE), range(SIZE)):
        for seq in sequences:
            tiles: list[tuple[str, str]] = []
            pos = start
            for letter in seq:
                while pos < SIZE and _cell(down, line, pos) in board:
                    pos += 1
                if pos == SIZE:
                    break
                tiles.append((_cell(down, line, pos), letter))
                pos += 1
            if len(tiles) == len(seq) and game.judge(PlaceTiles(tuple(tiles))).accepted:
                found.add(frozenset(tiles))
    return found


def _cell(down: bool, line: int, pos: int) -> str:
    return cell_name(line, pos) if down else cell_name(pos, line)
