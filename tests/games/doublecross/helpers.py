"""Shared helpers for the DoubleCross tests: small word lists, rigged games, a recount."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping
from typing import Any

from games.core import Verdict
from games.doublecross.board import PICKUP_POINTS, Board, cell_index
from games.doublecross.game import DoubleCross, PlaceTile
from games.doublecross.score import Note
from games.lexicon import Lexicon

WORDS = [
    "art", "stem", "cat", "road", "duet", "due", "odds", "that", "the", "darts",
    "ate", "eat", "tea", "oat", "toe", "rat", "tar", "star", "arts", "tears",
]  # fmt: skip


@functools.cache
def small_lexicon(extra: tuple[str, ...] = ()) -> Lexicon:
    return Lexicon.build([*WORDS, *extra])


@functools.cache
def enable() -> Lexicon:
    """The shipped ENABLE list (its index is cached between runs)."""
    from firmware_bridge.kits.lexicon_store import load_lexicon

    return load_lexicon()


def game(
    players: int = 2,
    *,
    start: str = "CAT",
    racks: Iterable[str] = ("RTS", "EM"),
    bag: str = "",
    specials: Mapping[str, str] | None = None,
    min_word: int = 3,
    first: int = 1,
    extra: tuple[str, ...] = (),
    seed: int = 7,
) -> DoubleCross:
    options: dict[str, Any] = {
        "start_word": start,
        "racks": list(racks),
        "bag": bag,
        "specials": dict(specials or {}),
        "min_word": min_word,
        "first": first,
    }
    return DoubleCross(players, random.Random(seed), options, lexicon=small_lexicon(extra))


def board_from(rows: Mapping[str, str]) -> Board:
    """A board from pictures: each key is a cell, each value the letters laid across
    from it; upper case is a stable tile, lower case an unstable one of seat 0."""
    board = Board()
    for cell, letters in rows.items():
        start = cell_index(cell)
        assert start is not None
        for n, ch in enumerate(letters):
            if ch != ".":
                board.put(start + n, ch.upper(), 0 if ch.islower() else None, ch.isupper())
    return board


def play(g: DoubleCross, *moves: str) -> list[Verdict]:
    """Place tiles given as "H9 R" and insist each is accepted."""
    out = []
    for move in moves:
        cell, letter = move.split()
        verdict = g.apply(PlaceTile(cell, letter))
        assert verdict.accepted, (move, verdict.reason)
        out.append(verdict)
    return out


def recount(record: Iterable[Iterable[Note]], players: int) -> list[int]:
    """Scores worked out from the notes alone, by the table of the rules."""
    scores = [0] * players
    for notes in record:
        for note in notes:
            extra = dict(note.extra)
            if note.player is None:
                continue
            if note.kind in ("completed", "stable"):
                scores[note.player] += len(extra["word"])
            elif note.kind == "destroyed":
                scores[note.player] -= 4
            elif note.kind == "bonus":
                scores[note.player] += extra["value"]
            elif note.kind == "coloured-bomb":
                scores[note.player] += 16 if extra["defused"] else 8
            elif note.kind == "pickup":
                scores[note.player] += PICKUP_POINTS[extra["bomb"]]
            elif note.kind == "rack-penalty":
                scores[note.player] -= 4 * extra["count"]
            elif note.kind == "unstable-penalty":
                scores[note.player] -= extra["count"]
            else:
                raise AssertionError(f"a note of kind {note.kind} gives points")
    return scores
