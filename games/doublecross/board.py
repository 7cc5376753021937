"""DoubleCross's board: cell names, the tile set, special spaces, and who owns which tile.

Pure geometry and bookkeeping shared by the judging (``games.doublecross.judge``),
the set-up (``games.doublecross.setup``), the game and its computer player. Cells
are numbered from 0 in reading order (``A1`` is 0, ``H8`` is 112); a line is walked
with the neighbour tables ``STEP``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from games.core import Cell

SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"
RACK_SIZE = 6
TRAY_SIZE = 2
CELLS = SIZE * SIZE

ACROSS = 0
DOWN = 1
AXES = (ACROSS, DOWN)
AXIS_NAMES = ("across", "down")

_TILE_TABLE = "A9 B2 C2 D4 E12 F2 G3 H2 I9 J1 K1 L4 M2 N6 O8 P2 Q1 R6 S4 T6 U4 V2 W2 X1 Y2 Z1"
TILE_COUNTS: dict[str, int] = {entry[0]: int(entry[1:]) for entry in _TILE_TABLE.split(" ")}
"""The Crosslet letter counts without the blanks: 98 tiles."""
LETTERS = frozenset(TILE_COUNTS)

# Special spaces, by the names the ``specials`` option uses.
BONUS = "bonus"
BLOCK = "block"
MYSTERY = "mystery"
NS = "ns"
EW = "ew"
NSEW = "nsew"
DIRECTIONAL = (NS, EW, NSEW)
PICKUP_POINTS = {NS: 2, EW: 2, NSEW: 4}
BONUS_START = 5
BONUS_RISE = 5
COLOURED_POINTS = 8
DEFUSED_POINTS = 16
DESTROYED_POINTS = -4
RACK_PENALTY = -4
UNSTABLE_PENALTY = -1


def bomb_kind(seat: int) -> str:
    """The special-space name of a seat's coloured bomb: ``bomb-1`` for seat 0."""
    return f"bomb-{seat + 1}"


def bomb_seat(kind: str) -> int | None:
    """The seat (from 0) whose coloured bomb ``kind`` is, or None if it is none."""
    if kind.startswith("bomb-") and kind[5:].isdigit():
        return int(kind[5:]) - 1
    return None


def cell_name(i: int) -> Cell:
    """``cell_name(112) == "H8"``."""
    return f"{COLUMNS[i % SIZE]}{i // SIZE + 1}"


def cell_index(cell: object) -> int | None:
    """The number of a cell name (``"H8"`` → 112), or None if it is not one of the board."""
    if not isinstance(cell, str) or not 2 <= len(cell) <= 3:
        return None
    col = COLUMNS.find(cell[0].upper())
    digits = cell[1:]
    if col < 0 or not digits.isdigit() or digits[0] == "0" or not 1 <= int(digits) <= SIZE:
        return None
    return (int(digits) - 1) * SIZE + col


ALL_CELLS: tuple[Cell, ...] = tuple(cell_name(i) for i in range(CELLS))
CORNERS = (0, SIZE - 1, CELLS - 1, CELLS - SIZE)
"""A1, O1, O15, A15: clockwise from the top left, where the coloured bombs lie."""
CORNER_SEATS = {2: (0, 1, 0, 1), 3: (0, 1, 2, 0), 4: (0, 1, 2, 3)}
"""Whose coloured bomb each corner holds, by player count."""


def _step(i: int, axis: int, direction: int) -> int:
    col, row = i % SIZE, i // SIZE
    if axis == ACROSS:
        col += direction
    else:
        row += direction
    return row * SIZE + col if 0 <= col < SIZE and 0 <= row < SIZE else -1


STEP: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(
    (
        tuple(_step(i, axis, -1) for i in range(CELLS)),
        tuple(_step(i, axis, +1) for i in range(CELLS)),
    )
    for axis in AXES
)
"""``STEP[axis][0][i]`` is the cell before ``i`` along the axis, ``STEP[axis][1][i]``
the one after; -1 past the board's edge."""

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in (STEP[a][d][i] for a in AXES for d in (0, 1)) if j >= 0) for i in range(CELLS)
)


def line_of(i: int, axis: int) -> tuple[int, ...]:
    """Every cell of the row (across) or column (down) through ``i``."""
    if axis == ACROSS:
        start = i - i % SIZE
        return tuple(range(start, start + SIZE))
    return tuple(range(i % SIZE, CELLS, SIZE))


@dataclass
class Board:
    """The tiles on the board: a letter (upper case, "" for empty), its owner
    (a seat, None for the start word) and whether it is stable, per cell."""

    letters: list[str] = field(default_factory=lambda: [""] * CELLS)
    owners: list[int | None] = field(default_factory=lambda: [None] * CELLS)
    stable: list[bool] = field(default_factory=lambda: [False] * CELLS)

    def copy(self) -> Board:
        return Board(list(self.letters), list(self.owners), list(self.stable))

    def put(self, i: int, letter: str, owner: int | None, stable: bool = False) -> None:
        self.letters[i] = letter
        self.owners[i] = owner
        self.stable[i] = stable

    def remove(self, i: int) -> None:
        self.put(i, "", None, False)

    def occupied(self) -> list[int]:
        return [i for i in range(CELLS) if self.letters[i]]

    def unstable(self) -> list[int]:
        letters, stable = self.letters, self.stable
        return [i for i in range(CELLS) if letters[i] and not stable[i]]

    def text(self, cells: tuple[int, ...]) -> str:
        return "".join([self.letters[i] for i in cells])

    def letter_counts(self) -> Counter[str]:
        return Counter(x for x in self.letters if x)
