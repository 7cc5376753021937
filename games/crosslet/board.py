"""Crosslet's board: cell names, bonus cells, the tile set, and the words a placement forms.

Pure geometry and arithmetic shared by the rules (``games.crosslet.game``) and the move
generator (``games.crosslet.movegen``). A board is a mapping from cell name to letter:
upper case for a letter tile, lower case for a blank standing for that letter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from games.core import Cell
from games.errors import IllegalMove

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
    try:
        return _POINTS[cell]
    except (KeyError, TypeError):
        raise IllegalMove(f"{cell!r} is not a cell of the board (A1 to O15)") from None


ALL_CELLS: tuple[Cell, ...] = tuple(cell_name(c, r) for r in range(SIZE) for c in range(SIZE))
"""Every cell in reading order: A1, B1, ... O1, A2, ... O15."""

_POINTS: dict[Cell, Point] = {cell_name(c, r): (c, r) for r in range(SIZE) for c in range(SIZE)}
_READING: dict[Cell, int] = {cell: i for i, cell in enumerate(ALL_CELLS)}
"""Each cell's place in reading order."""


def _neighbour(cell: Cell, dc: int, dr: int) -> Cell | None:
    col, row = _POINTS[cell]
    col, row = col + dc, row + dr
    return cell_name(col, row) if 0 <= col < SIZE and 0 <= row < SIZE else None


_LINES: tuple[tuple[dict[Cell, Cell | None], dict[Cell, Cell | None]], ...] = tuple(
    (
        {cell: _neighbour(cell, -dc, -dr) for cell in ALL_CELLS},
        {cell: _neighbour(cell, dc, dr) for cell in ALL_CELLS},
    )
    for dc, dr in ((1, 0), (0, 1))
)
"""``_LINES[axis]``: the cell before and the cell after each cell, across (0) then
down (1); None past the board's edge."""
_NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {
    cell: tuple(
        n for n in (_neighbour(cell, dc, dr) for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))) if n
    )
    for cell in ALL_CELLS
}
_LETTER_BONUS: dict[Cell, int] = {cell: LETTER_MULTIPLIER[r][c] for cell, (c, r) in _POINTS.items()}
_WORD_BONUS: dict[Cell, int] = {cell: WORD_MULTIPLIER[r][c] for cell, (c, r) in _POINTS.items()}


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
    if not (board.keys() <= _POINTS.keys() and placed.keys() <= _POINTS.keys()):
        for cell in (*board, *placed):
            parse_cell(cell)  # says which cell is not on the board
    found: list[FormedWord] = []
    # Only the lines through a placed tile are walked, never the whole board.
    for back, ahead in _LINES:
        starts: set[Cell] = set()
        for cell in placed:
            first, before = cell, back[cell]
            while before is not None and (before in placed or before in board):
                first, before = before, back[before]
            starts.add(first)
        for start in sorted(starts, key=_READING.__getitem__):
            run: list[Cell] = []
            cell_or_edge: Cell | None = start
            while cell_or_edge is not None and (cell_or_edge in placed or cell_or_edge in board):
                run.append(cell_or_edge)
                cell_or_edge = ahead[cell_or_edge]
            if len(run) >= 2:
                found.append(_score_run(run, board, placed))
    return found


def _score_run(
    run: list[Cell], board: Mapping[Cell, str], placed: Mapping[Cell, str]
) -> FormedWord:
    total = 0
    multiplier = 1
    letters: list[str] = []
    for cell in run:
        if cell in placed:
            letter = placed[cell]
            # Bonuses count only on the turn a tile covers them.
            total += tile_points(letter) * _LETTER_BONUS[cell]
            multiplier *= _WORD_BONUS[cell]
        else:
            letter = board[cell]
            total += tile_points(letter)
        letters.append(letter.upper())
    return FormedWord("".join(letters), tuple(run), total * multiplier)


def joined(cells: Iterable[Cell]) -> bool:
    """Whether the cells form one group through edge-to-edge neighbours."""
    listed = list(cells)
    group = set(listed)
    if not group <= _POINTS.keys():
        for cell in listed:
            parse_cell(cell)  # says which cell is not on the board
    if not group:
        return True
    return _reaches_all(group, [next(iter(group))])


def joined_to(board: Mapping[Cell, str], placed: Iterable[Cell]) -> bool:
    """Whether every placed cell reaches a tile of ``board`` through placed cells.

    For a board that is one group (as a Crosslet board always is) this is
    ``joined([*board, *placed])``, found by walking the placed tiles only.
    """
    listed = list(placed)
    group = set(listed)
    if not group <= _POINTS.keys():
        return joined(listed)  # says which cell is not on the board
    return _reaches_all(group, [c for c in group if any(n in board for n in _NEIGHBOURS[c])])


def _reaches_all(group: set[Cell], start: list[Cell]) -> bool:
    """Whether every cell of ``group`` is reached from the cells ``start`` (of the
    group) through edge-to-edge neighbours in the group."""
    seen = set(start)
    todo = start
    while todo:
        for q in _NEIGHBOURS[todo.pop()]:
            if q in group and q not in seen:
                seen.add(q)
                todo.append(q)
    return len(seen) == len(group)


def rack_points(rack: Iterable[str]) -> int:
    """Sum of the tiles left on a rack (blanks 0)."""
    return sum(LETTER_VALUES[t] for t in rack)
