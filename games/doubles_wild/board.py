"""The Doubles Wild board: 81 spots named by dice sums, and the lines balls make on it.

A board is a flat list of 81 seats (``EMPTY`` where no ball lies), indexed row by
row from ``r3c3``. A line is a maximal run of one colour across, down or along a
diagonal; a run of length L ≥ 3 scores L − 2.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core import Cell, PlayerId

LOW = 3
HIGH = 11
SIZE = HIGH - LOW + 1
EMPTY = -1
MIN_LINE = 3

Board = list[int]

DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))
"""Across, down, down-right, down-left: each line is found once, from its first ball."""


def cell_name(row: int, col: int) -> Cell:
    return f"r{row}c{col}"


CELLS: tuple[Cell, ...] = tuple(
    cell_name(row, col) for row in range(LOW, HIGH + 1) for col in range(LOW, HIGH + 1)
)
INDEX: dict[Cell, int] = {cell: i for i, cell in enumerate(CELLS)}


def index(row: int, col: int) -> int:
    return (row - LOW) * SIZE + (col - LOW)


def on_board(row: int, col: int) -> bool:
    return LOW <= row <= HIGH and LOW <= col <= HIGH


def row_of(i: int) -> int:
    return i // SIZE + LOW


def col_of(i: int) -> int:
    return i % SIZE + LOW


def row_cells(row: int) -> tuple[int, ...]:
    return tuple(index(row, col) for col in range(LOW, HIGH + 1))


def col_cells(col: int) -> tuple[int, ...]:
    return tuple(index(row, col) for row in range(LOW, HIGH + 1))


def _ray(i: int, dr: int, dc: int) -> tuple[int, ...]:
    row, col = row_of(i) + dr, col_of(i) + dc
    out: list[int] = []
    while on_board(row, col):
        out.append(index(row, col))
        row, col = row + dr, col + dc
    return tuple(out)


RAYS: tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...] = tuple(
    tuple((_ray(i, -dr, -dc), _ray(i, dr, dc)) for dr, dc in DIRECTIONS) for i in range(SIZE * SIZE)
)
"""For each spot and direction: the spots behind it and ahead of it, nearest first."""

WINDOWS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        window
        for back, ahead in RAYS[i]
        for window in ((*reversed(back[: 2 - k]), i, *ahead[:k]) for k in range(MIN_LINE))
        if len(window) == MIN_LINE
    )
    for i in range(SIZE * SIZE)
)
"""For each spot: every three spots in a row that include it (up to 12)."""


def line_points(length: int) -> int:
    """What a run of ``length`` balls scores."""
    return max(0, length - 2)


def _reach(board: Sequence[int], ray: tuple[int, ...], player: PlayerId) -> int:
    n = 0
    for j in ray:
        if board[j] != player:
            break
        n += 1
    return n


def protected(board: Sequence[int], i: int) -> bool:
    """Whether the ball on spot ``i`` is part of a line of its colour."""
    player = board[i]
    if player == EMPTY:
        return False
    return any(
        1 + _reach(board, back, player) + _reach(board, ahead, player) >= MIN_LINE
        for back, ahead in RAYS[i]
    )


def gain(board: Sequence[int], player: PlayerId, i: int) -> int:
    """Points ``player`` would gain with a ball on spot ``i`` (whatever lies there now)."""
    total = 0
    for back, ahead in RAYS[i]:
        b = _reach(board, back, player)
        a = _reach(board, ahead, player)
        total += line_points(1 + a + b) - line_points(a) - line_points(b)
    return total


def lines(board: Sequence[int], player: PlayerId) -> list[tuple[int, ...]]:
    """Every line of ``player``'s colour, as spots in order."""
    found: list[tuple[int, ...]] = []
    for i, owner in enumerate(board):
        if owner != player:
            continue
        for (back, ahead), _ in zip(RAYS[i], DIRECTIONS, strict=True):
            if back and board[back[0]] == player:
                continue  # not the first ball of this run
            run = (i, *ahead[: _reach(board, ahead, player)])
            if len(run) >= MIN_LINE:
                found.append(run)
    return found


def points(board: Sequence[int], player: PlayerId) -> int:
    return sum(line_points(len(run)) for run in lines(board, player))
