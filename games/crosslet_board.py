"""Crosslet's board: cell names, bonus cells, the tile set, and the words a placement forms.

Pure geometry and arithmetic shared by the rules (``games.crosslet``) and the move
generator (``games.movegen``). A board is a mapping from cell name to letter:
upper case for a letter tile, lower case for a blank standing for that letter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from games.core import Cell, IllegalMove

SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"
CENTRE: Cell = "H8"
RACK_SIZE = 7
ALL_TILES_BONUS = 15
BLANK = "?"

_BONUS_ROWS = (
    "R..G...R...G..R",
    ".B...Y...Y...B.",
    "..B...G.G...B..",
    "G..B...G...B..G",
    "....B.....B....",
    ".Y...Y...Y...Y.",
    "..G...G.G...G..",
    "R..G...*...G..R",
    "..G...G.G...G..",
    ".Y...Y...Y...Y.",
    "....B.....B....",
    "G..B...G...B..G",
    "..B...G.G...B..",
    ".B...Y...Y...B.",
    "R..G...R...G..R",
)
_LETTER_MULT = {"G": 2, "Y": 3}
_WORD_MULT = {"B": 2, "*": 2, "R": 3}

LETTER_MULTIPLIER: tuple[tuple[int, ...], ...] = tuple(
    tuple(_LETTER_MULT.get(ch, 1) for ch in row) for row in _BONUS_ROWS
)
"""``LETTER_MULTIPLIER[row][col]``: 2 on green (double letter), 3 on yellow (triple letter)."""
WORD_MULTIPLIER: tuple[tuple[int, ...], ...] = tuple(
    tuple(_WORD_MULT.get(ch, 1) for ch in row) for row in _BONUS_ROWS
)
"""``WORD_MULTIPLIER[row][col]``: 2 on blue and the centre, 3 on red."""

_TILE_TABLE = (
    "A1x9 B3x2 C3x2 D2x4 E1x12 F4x2 G2x3 H4x2 I1x9 J8x1 K5x1 L1x4 M3x2 N1x6 O1x8 "
    "P3x2 Q10x1 R1x6 S1x4 T1x6 U1x4 V4x2 W4x2 X8x1 Y4x2 Z10x1 ?0x2"
)
LETTER_VALUES: dict[str, int] = {}
"""Points of each tile; ``"?"`` (a blank) is worth 0."""
TILE_COUNTS: dict[str, int] = {}
"""How many of each tile the bag starts with (100 in all)."""
for _entry in _TILE_TABLE.split():
    _value, _count = _entry[1:].split("x")
    LETTER_VALUES[_entry[0]] = int(_value)
    TILE_COUNTS[_entry[0]] = int(_count)
del _entry, _value, _count

Point = tuple[int, int]
"""(column, row) counted from 0: ``A1`` is (0, 0), ``H8`` is (7, 7)."""


def cell_name(col: int, row: int) -> Cell:
    """The name of the cell at ``col``, ``row`` (from 0): ``cell_name(7, 7) == "H8"``."""
    return f"{COLUMNS[col]}{row + 1}"


def parse_cell(cell: str) -> Point:
    """(column, row) of a cell name; IllegalMove if it is not on the board."""
    if (
        isinstance(cell, str)
        and 2 <= len(cell) <= 3
        and cell[0] in COLUMNS
        and cell[1:].isdigit()
        and 1 <= int(cell[1:]) <= SIZE
        and cell[1] != "0"
    ):
        return COLUMNS.index(cell[0]), int(cell[1:]) - 1
    raise IllegalMove(f"{cell!r} is not a cell of the board (A1 to O15)")


ALL_CELLS: tuple[Cell, ...] = tuple(cell_name(c, r) for r in range(SIZE) for c in range(SIZE))
"""Every cell in reading order: A1, B1, ... O1, A2, ... O15."""


def tile_points(letter: str) -> int:
    """Points of a letter as it stands on the board (lower case is a blank: 0)."""
    return 0 if letter.islower() else LETTER_VALUES[letter]


@dataclass(frozen=True)
class FormedWord:
    """One word a placement forms: its letters, its cells in reading order, its points."""

    word: str
    cells: tuple[Cell, ...]
    points: int


def formed_words(board: Mapping[Cell, str], placed: Mapping[Cell, str]) -> list[FormedWord]:
    """Every maximal run of two or more letters, across or down, holding a placed tile.

    ``board`` is what stood before the turn and ``placed`` the new tiles (upper case,
    lower case for a blank); both use the board's letter convention. Words come
    across before down, each group in reading order of its first cell.
    """
    grid: dict[Point, str] = {parse_cell(c): ch for c, ch in board.items()}
    new: dict[Point, str] = {parse_cell(c): ch for c, ch in placed.items()}
    grid.update(new)
    found: list[FormedWord] = []
    for dc, dr in ((1, 0), (0, 1)):
        starts: set[Point] = set()
        for point in new:
            col, row = point
            while (col - dc, row - dr) in grid:
                col, row = col - dc, row - dr
            starts.add((col, row))
        for start in sorted(starts, key=lambda p: (p[1], p[0])):
            col, row = start
            points: list[Point] = []
            while (col, row) in grid:
                points.append((col, row))
                col, row = col + dc, row + dr
            if len(points) >= 2:
                found.append(_score_run(points, grid, new))
    return found


def _score_run(
    points: list[Point], grid: Mapping[Point, str], new: Mapping[Point, str]
) -> FormedWord:
    total = 0
    multiplier = 1
    for col, row in points:
        value = tile_points(grid[col, row])
        if (col, row) in new:
            # Bonuses count only on the turn a tile covers them.
            value *= LETTER_MULTIPLIER[row][col]
            multiplier *= WORD_MULTIPLIER[row][col]
        total += value
    word = "".join(grid[p].upper() for p in points)
    return FormedWord(word, tuple(cell_name(c, r) for c, r in points), total * multiplier)


def joined(cells: Iterable[Cell]) -> bool:
    """Whether the cells form one group through edge-to-edge neighbours."""
    points = {parse_cell(c) for c in cells}
    if not points:
        return True
    start = next(iter(points))
    seen = {start}
    todo = [start]
    while todo:
        col, row = todo.pop()
        for q in ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1)):
            if q in points and q not in seen:
                seen.add(q)
                todo.append(q)
    return len(seen) == len(points)


def rack_points(rack: Iterable[str]) -> int:
    """Sum of the tiles left on a rack (blanks 0)."""
    return sum(LETTER_VALUES[t] for t in rack)
