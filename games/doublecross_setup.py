"""Setting a DoubleCross game up: checking its options, the bag, the racks, the start
word and the special spaces.

Options (the ``--option`` / ``--setup`` keys): ``min_word`` (3 or 4), ``first`` (the
seat that starts, counted from 1), ``start_word``, ``racks`` (a list of strings,
seat 1 first), ``bag`` (what is left in the bag after the start word and the racks,
in drawing order: refills come from its front, returned tiles go to its end; tiles of
the set named nowhere are out of the game) and ``specials`` (cell → ``bonus``,
``block``, ``mystery``, ``ns``, ``ew``, ``nsew`` or ``bomb-N``; given, it replaces the
random layout). Anything not given is drawn from the game's seeded random source.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from games.core import BadSettings
from games.doublecross_board import (
    BLOCK,
    BONUS,
    CELLS,
    CORNER_SEATS,
    CORNERS,
    DIRECTIONAL,
    LETTERS,
    MYSTERY,
    NEIGHBOURS,
    RACK_SIZE,
    SIZE,
    TILE_COUNTS,
    bomb_kind,
    bomb_seat,
    cell_index,
    cell_name,
)
from games.doublecross_judge import Judge

OPTION_NAMES = ("min_word", "first", "start_word", "racks", "bag", "specials", "words")
"""Every option DoubleCross knows (``words`` is the table's word list, read by the kit)."""
DEFAULT_COUNTS = {BONUS: 6, MYSTERY: 4, "directional": 4, BLOCK: 8}
"""Special spaces of the random layout on a 15×15 board."""
START_TRIES = 400


@dataclass
class Setup:
    """Everything a new game starts from."""

    min_word: int
    first: int
    start_word: str
    start_cells: tuple[int, ...]
    racks: list[list[str]]
    bag: list[str]
    specials: dict[int, str]


def start_cells(length: int) -> tuple[int, ...]:
    """Where a start word of 3-5 letters lies on row 8: its middle (left-middle) on H8."""
    centre = 7 * SIZE + 7
    first = centre - (length - 1) // 2
    return tuple(range(first, first + length))


def _letters(value: Any, what: str) -> list[str]:
    if not isinstance(value, str):
        raise BadSettings(f"option {what} must be a string of letters A-Z, not {value!r}")
    letters = [c for c in value.upper() if not c.isspace()]
    bad = [c for c in letters if c not in LETTERS]
    if bad:
        raise BadSettings(
            f"option {what}: {bad[0]!r} is not a DoubleCross tile; use the letters A to Z "
            "(there are no blanks)"
        )
    return letters


def _seat_number(value: Any, players: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= players:
        raise BadSettings(f"option {what} must be a seat from 1 to {players}, not {value!r}")
    return value - 1


def check_options(options: Mapping[str, Any], players: int, judge: Judge) -> None:
    """Raise BadSettings for an unknown option name or a bad ``min_word``."""
    for key in options:
        if key not in OPTION_NAMES:
            raise BadSettings(
                f"DoubleCross has no option {key!r}; its options are {', '.join(OPTION_NAMES)}"
            )
    min_word = options.get("min_word", 3)
    if isinstance(min_word, bool) or min_word not in (3, 4):
        raise BadSettings(f"option min_word must be 3 or 4, not {min_word!r}")


def make_setup(options: Mapping[str, Any], players: int, rng: random.Random, judge: Judge) -> Setup:
    """Check the options and draw whatever they leave out. Raises BadSettings."""
    check_options(options, players, judge)
    first = (
        _seat_number(options["first"], players, "first")
        if "first" in options
        else rng.randrange(players)
    )
    given_word = _letters(options["start_word"], "start_word") if "start_word" in options else None
    racks = _racks(options["racks"], players) if "racks" in options else None
    bag = _letters(options["bag"], "bag") if "bag" in options else None
    _check_counts(given_word or [], racks or [], bag or [])
    rest = Counter(TILE_COUNTS)
    rest.subtract(given_word or [])
    for rack in racks or []:
        rest.subtract(rack)
    rest.subtract(bag or [])
    pool = sorted(rest.elements())
    rng.shuffle(pool)
    if given_word is None:
        word = _draw_start_word(pool, rng, judge)
    else:
        word = "".join(given_word)
        if not 3 <= len(word) <= 5:
            raise BadSettings(f"option start_word must have 3 to 5 letters, not {len(word)}")
        if not judge.is_complete(word):
            raise BadSettings(
                f"option start_word: {word} is not a complete word (in the word list, "
                f"at least {judge.min_word} letters)"
            )
    draw = bag if bag is not None else pool
    if racks is None:
        racks = []
        for _ in range(players):
            racks.append(draw[:RACK_SIZE])
            del draw[:RACK_SIZE]
    cells = start_cells(len(word))
    specials = (
        _given_specials(options["specials"], players, cells)
        if "specials" in options
        else random_specials(players, cells, rng)
    )
    return Setup(judge.min_word, first, word, cells, racks, list(draw), specials)


def _racks(value: Any, players: int) -> list[list[str]]:
    if not isinstance(value, list | tuple) or len(value) != players:
        raise BadSettings(
            f"option racks must be a list of {players} strings, one rack a seat, seat 1 first"
        )
    racks = [_letters(v, f"racks (seat {n})") for n, v in enumerate(value, start=1)]
    for n, rack in enumerate(racks, start=1):
        if len(rack) > RACK_SIZE:
            raise BadSettings(
                f"option racks: seat {n}'s rack has {len(rack)} tiles; a rack holds {RACK_SIZE}"
            )
    return racks


def _check_counts(word: list[str], racks: list[list[str]], bag: list[str]) -> None:
    used = Counter(word) + Counter(bag)
    for rack in racks:
        used.update(rack)
    for letter, n in sorted(used.items()):
        if n > TILE_COUNTS[letter]:
            raise BadSettings(
                f"the start word, racks and bag use {n} {letter} tiles, but the set has only "
                f"{TILE_COUNTS[letter]}: take {n - TILE_COUNTS[letter]} out"
            )


def _draw_start_word(pool: list[str], rng: random.Random, judge: Judge) -> str:
    """Draw five tiles at a time until some of them spell a complete word of 3-5 letters;
    take it out of ``pool`` (the others go back and the pool is shuffled)."""
    for _ in range(START_TRIES):
        hand = pool[:5]
        for length in (5, 4, 3):
            if length < judge.min_word:
                break
            for letters in permutations(hand, length):
                word = "".join(letters)
                if judge.is_complete(word):
                    for letter in word:
                        pool.remove(letter)
                    return word
        rng.shuffle(pool)
    raise BadSettings(
        "no start word of 3 to 5 letters could be drawn from the bag with this word list; "
        "give one with the start_word option"
    )


def _given_specials(value: Any, players: int, start: tuple[int, ...]) -> dict[int, str]:
    if not isinstance(value, Mapping):
        raise BadSettings(
            "option specials must be a table of cell = kind, e.g. {H3 = 'bonus', A1 = 'bomb-1'}"
        )
    kinds = [BONUS, BLOCK, MYSTERY, *DIRECTIONAL] + [bomb_kind(p) for p in range(players)]
    out: dict[int, str] = {}
    for cell, kind in value.items():
        i = cell_index(cell)
        if i is None:
            raise BadSettings(f"option specials: {cell!r} is not a cell of the board (A1 to O15)")
        if kind not in kinds:
            raise BadSettings(
                f"option specials: {cell} = {kind!r} is not a special space; "
                f"use one of {', '.join(kinds)}"
            )
        if i in start:
            raise BadSettings(f"option specials: {cell} holds the start word; choose another cell")
        if i in out:
            raise BadSettings(f"option specials: {cell} is given twice")
        out[i] = str(kind)
    return out


def random_specials(players: int, start: tuple[int, ...], rng: random.Random) -> dict[int, str]:
    """The coloured bombs in the corners and the default counts of the other spaces,
    placed at random, never on or next to the start word."""
    out = {
        corner: bomb_kind(seat) for corner, seat in zip(CORNERS, CORNER_SEATS[players], strict=True)
    }
    near = set(start).union(*(NEIGHBOURS[i] for i in start))
    free = [i for i in range(CELLS) if i not in near and i not in out]
    rng.shuffle(free)
    kinds = [BONUS] * DEFAULT_COUNTS[BONUS] + [MYSTERY] * DEFAULT_COUNTS[MYSTERY]
    kinds += [rng.choice(DIRECTIONAL) for _ in range(DEFAULT_COUNTS["directional"])]
    kinds += [BLOCK] * DEFAULT_COUNTS[BLOCK]
    for i, kind in zip(free, kinds, strict=False):
        out[i] = kind
    return out


def describe_specials(specials: Mapping[int, str]) -> list[str]:
    """``"A1: bomb-1"`` lines in reading order, for the set-up display."""
    return [f"{cell_name(i)}: {specials[i]}" for i in sorted(specials)]


__all__ = [
    "OPTION_NAMES",
    "Setup",
    "bomb_seat",
    "describe_specials",
    "make_setup",
    "random_specials",
    "start_cells",
]
