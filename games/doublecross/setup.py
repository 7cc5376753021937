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

from games.doublecross import ABOUT
from games.doublecross.board import (
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
from games.doublecross.judge import Judge
from games.errors import BadSettings

OPTION_NAMES = tuple(spec.name for spec in ABOUT.options)
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


def _letters(value: Any, what: str, problems: list[str]) -> list[str] | None:
    """The tiles of a string (or a list of one-letter strings), upper case; None (and a
    problem noted) when it is not one."""
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        value = "".join(value)
    if not isinstance(value, str):
        problems.append(f"option {what} must be a string of letters A-Z, not {value!r}")
        return None
    letters = [c for c in value.upper() if not c.isspace()]
    bad = sorted({c for c in letters if c not in LETTERS})
    if bad:
        shown = ", ".join(repr(c) for c in bad)
        verb = "is not a DoubleCross tile" if len(bad) == 1 else "are not DoubleCross tiles"
        problems.append(
            f"option {what}: {shown} {verb}; use the letters A to Z (there are no blanks)"
        )
        return None
    return letters


def _seat_number(value: Any, players: int, what: str, problems: list[str]) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= players:
        problems.append(f"option {what} must be a seat from 1 to {players}, not {value!r}")
        return None
    return value - 1


@dataclass
class Given:
    """What the options fix, checked; None for what is left to the seeded random source."""

    min_word: int
    first: int | None
    start_word: list[str] | None
    racks: list[list[str]] | None
    bag: list[str] | None
    specials: dict[int, str] | None


def read_options(options: Mapping[str, Any], players: int) -> tuple[Given, list[str]]:
    """Check every option that can be checked without the word list.

    Returns what the options fix and every problem found (all of them, not only the
    first): unknown names, values of the wrong kind, letters that are not tiles,
    more of a letter than the 98-tile set holds, cells off the board, a coloured bomb
    of a seat the game does not have. Whether the start word is a word is checked by
    ``make_setup``, which has the word list.
    """
    problems: list[str] = []
    for key in options:
        if key not in OPTION_NAMES:
            problems.append(
                f"DoubleCross has no option {key!r}; its options are {', '.join(OPTION_NAMES)}"
            )
    min_word = options.get("min_word", 3)
    refused = ABOUT.option("min_word").refused(min_word, players)
    if refused is not None:
        problems.append(refused)
        min_word = 3
    first = (
        _seat_number(options["first"], players, "first", problems) if "first" in options else None
    )
    word = (
        _letters(options["start_word"], "start_word", problems) if "start_word" in options else None
    )
    if word is not None and not 3 <= len(word) <= 5:
        problems.append(f"option start_word must have 3 to 5 letters, not {len(word)}")
        word = None
    elif word is not None and len(word) < min_word:
        problems.append(
            f"option start_word: {''.join(word)} has {len(word)} letters, but with min_word = "
            f"{min_word} a complete word has at least {min_word}; give a longer start word"
        )
    racks = _racks(options["racks"], players, problems) if "racks" in options else None
    bag = _letters(options["bag"], "bag", problems) if "bag" in options else None
    _check_counts(word or [], racks or [], bag or [], problems)
    specials = None
    if "specials" in options:
        cells = start_cells(len(word)) if word is not None else ()
        specials = _given_specials(options["specials"], players, cells, problems)
    return Given(int(min_word), first, word, racks, bag, specials), problems


def make_setup(options: Mapping[str, Any], players: int, rng: random.Random, judge: Judge) -> Setup:
    """Check the options and draw whatever they leave out. Raises BadSettings naming
    every problem.

    Tiles come out of the 98-tile set in this order: the start word, the racks, the
    bag. What is not given is drawn from the tiles no option names; when the bag is
    given, the tiles no option names are out of the game.
    """
    given, problems = read_options(options, players)
    if problems:
        raise BadSettings("\n".join(problems))
    first = given.first if given.first is not None else rng.randrange(players)
    rest = Counter(TILE_COUNTS)
    rest.subtract(given.start_word or [])
    for rack in given.racks or []:
        rest.subtract(rack)
    rest.subtract(given.bag or [])
    pool = sorted(rest.elements())
    rng.shuffle(pool)
    if given.start_word is None:
        word = _draw_start_word(pool, rng, judge)
    else:
        word = "".join(given.start_word)
        if not judge.is_complete(word):
            raise BadSettings(
                f"option start_word: {word} is not a complete word (in the word list, "
                f"at least {judge.min_word} letters)"
            )
    racks = given.racks
    if racks is None:
        if len(pool) < players * RACK_SIZE:
            raise BadSettings(
                f"option bag: the start word and the bag leave {len(pool)} tiles of the 98 "
                f"for {players} racks of {RACK_SIZE}; give the racks too, or a shorter bag"
            )
        racks = [pool[n * RACK_SIZE : (n + 1) * RACK_SIZE] for n in range(players)]
        del pool[: players * RACK_SIZE]
    bag = given.bag if given.bag is not None else pool
    cells = start_cells(len(word))
    if given.specials is not None:
        on_word = sorted(cell_name(i) for i in given.specials if i in cells)
        if on_word:
            raise BadSettings(
                f"option specials: {', '.join(on_word)} holds the start word {word}; "
                "choose other cells, or give the start word with the start_word option"
            )
        specials = given.specials
    else:
        specials = random_specials(players, cells, rng)
    return Setup(judge.min_word, first, word, cells, racks, list(bag), specials)


def _racks(value: Any, players: int, problems: list[str]) -> list[list[str]] | None:
    if not isinstance(value, list | tuple) or len(value) != players:
        problems.append(
            f"option racks must be a list of {players} strings, one rack a seat, seat 1 first"
        )
        return None
    racks: list[list[str]] = []
    for n, v in enumerate(value, start=1):
        rack = _letters(v, f"racks (seat {n})", problems)
        if rack is None:
            continue  # named; the other racks are still counted
        if len(rack) > RACK_SIZE:
            problems.append(
                f"option racks: seat {n}'s rack has {len(rack)} tiles; a rack holds {RACK_SIZE}"
            )
        racks.append(rack)
    return racks


def _check_counts(
    word: list[str], racks: list[list[str]], bag: list[str], problems: list[str]
) -> None:
    used = Counter(word) + Counter(bag)
    for rack in racks:
        used.update(rack)
    for letter, n in sorted(used.items()):
        if n > TILE_COUNTS[letter]:
            problems.append(
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


def _given_specials(
    value: Any, players: int, start: tuple[int, ...], problems: list[str]
) -> dict[int, str] | None:
    if not isinstance(value, Mapping):
        problems.append(
            "option specials must be a table of cell = kind, e.g. {H3 = 'bonus', A1 = 'bomb-1'}"
        )
        return None
    kinds = [BONUS, BLOCK, MYSTERY, *DIRECTIONAL] + [bomb_kind(p) for p in range(players)]
    out: dict[int, str] = {}
    for cell, kind in value.items():
        i = cell_index(cell)
        if i is None:
            problems.append(f"option specials: {cell!r} is not a cell of the board (A1 to O15)")
            continue
        if kind not in kinds:
            seat = bomb_seat(kind) if isinstance(kind, str) else None
            why = (
                f"; there is no seat {seat + 1} in a {players}-player game"
                if seat is not None and seat >= 0
                else ""
            )
            problems.append(
                f"option specials: {cell} = {kind!r} is not a special space{why}; "
                f"use one of {', '.join(kinds)}"
            )
            continue
        if i in start:
            problems.append(f"option specials: {cell} holds the start word; choose another cell")
        elif i in out:
            problems.append(f"option specials: {cell} is given twice")
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
