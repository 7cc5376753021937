"""Crosslet's board tables against the plain geometry they stand for.

``parse_cell``, ``formed_words`` and ``joined`` work from tables of the 225 cells and
walk only the lines a placement touches; the references here work on coordinates
over the whole board, as the rules state them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.crosslet.board import (
    ALL_CELLS,
    COLUMNS,
    LETTER_MULTIPLIER,
    SIZE,
    WORD_MULTIPLIER,
    FormedWord,
    cell_name,
    formed_words,
    joined,
    joined_to,
    parse_cell,
    tile_points,
)
from games.errors import IllegalMove

Point = tuple[int, int]


def reference_point(cell: str) -> Point:
    """A column letter A-O and a row 1-15 written in ASCII digits without a leading 0."""
    digits = cell[1:]
    if not (
        2 <= len(cell) <= 3
        and cell[0] in COLUMNS
        and digits.isascii()
        and digits.isdigit()
        and digits[0] != "0"
        and 1 <= int(digits) <= SIZE
    ):
        raise IllegalMove(f"{cell!r} is not a cell of the board (A1 to O15)")
    return COLUMNS.index(cell[0]), int(digits) - 1


def reference_words(board: Mapping[str, str], placed: Mapping[str, str]) -> list[FormedWord]:
    """Every run of two or more letters through a placed tile, from a grid of the board."""
    grid = {reference_point(c): ch for c, ch in board.items()}
    new = {reference_point(c): ch for c, ch in placed.items()}
    grid.update(new)
    found = []
    for dc, dr in ((1, 0), (0, 1)):
        starts = set()
        for point in new:
            while (point[0] - dc, point[1] - dr) in grid:
                point = (point[0] - dc, point[1] - dr)  # noqa: PLW2901
            starts.add(point)
        for start in sorted(starts, key=lambda p: (p[1], p[0])):
            points: list[Point] = []
            point = start
            while point in grid:
                points.append(point)
                point = (point[0] + dc, point[1] + dr)
            if len(points) < 2:
                continue
            total, multiplier = 0, 1
            for c, r in points:
                value = tile_points(grid[c, r])
                if (c, r) in new:
                    value *= LETTER_MULTIPLIER[r][c]
                    multiplier *= WORD_MULTIPLIER[r][c]
                total += value
            word = "".join(grid[p].upper() for p in points)
            cells = tuple(cell_name(c, r) for c, r in points)
            found.append(FormedWord(word, cells, total * multiplier))
    return found


def reference_joined(cells: Iterable[str]) -> bool:
    points = {reference_point(c) for c in cells}
    if not points:
        return True
    seen = {next(iter(points))}
    todo = list(seen)
    while todo:
        col, row = todo.pop()
        for q in ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1)):
            if q in points and q not in seen:
                seen.add(q)
                todo.append(q)
    return len(seen) == len(points)


letters = st.sampled_from("ABEQZaez")
"""Tiles and blanks (lower case) of different values."""
cells = st.sampled_from(ALL_CELLS)


@st.composite
def positions(draw: st.DrawFn) -> tuple[dict[str, str], dict[str, str]]:
    """A board and tiles placed on empty cells, crowded around the centre at times so
    that runs cross and touch the edges."""
    near = st.sampled_from([c for c in ALL_CELLS if "F" <= c[0] <= "J"])
    board = draw(st.dictionaries(st.one_of(cells, near), letters, max_size=80))
    free = st.one_of(cells, near).filter(lambda c: c not in board)
    placed = draw(st.dictionaries(free, letters, min_size=1, max_size=7))
    return board, placed


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(positions())
def test_formed_words_match_the_words_read_off_a_grid(
    position: tuple[dict[str, str], dict[str, str]],
) -> None:
    board, placed = position
    assert formed_words(board, placed) == reference_words(board, placed)


@settings(max_examples=300, deadline=None)
@given(st.lists(cells, max_size=40))
def test_joined_is_the_group_test_on_coordinates(group: list[str]) -> None:
    assert joined(group) == reference_joined(group)


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        cells,
        st.text(max_size=4),
        st.builds(lambda c, n: f"{c}{n}", st.sampled_from(COLUMNS + "aP"), st.integers(-2, 20)),
    )
)
def test_parse_cell_takes_exactly_the_cells_of_the_board(text: str) -> None:
    try:
        expected: Point | str = reference_point(text)
    except IllegalMove as e:
        expected = e.reason
    try:
        got: Point | str = parse_cell(text)
    except IllegalMove as e:
        got = e.reason
    assert got == expected


@pytest.mark.parametrize("cell", ["A١", "H０8", "B²", "H08", "h8", " H8", 7, None])
def test_parse_cell_refuses_near_misses_with_the_board_named(cell: object) -> None:
    with pytest.raises(IllegalMove, match="is not a cell of the board \\(A1 to O15\\)"):
        parse_cell(cell)  # type: ignore[arg-type]


def test_a_cell_off_the_board_in_a_placement_is_named() -> None:
    with pytest.raises(IllegalMove, match="'P8' is not a cell"):
        formed_words({"H8": "A"}, {"P8": "B"})
    with pytest.raises(IllegalMove, match="'H0' is not a cell"):
        joined(["H8", "H0"])


@st.composite
def one_group_and_tiles(draw: st.DrawFn) -> tuple[dict[str, str], list[str]]:
    """A board grown tile by tile from the centre (so one group, as a game's board is)
    and new tiles on empty cells, near it or not."""
    board = {"H8": "A"}
    for _ in range(draw(st.integers(0, 40))):
        edge = sorted({n for c in board for n in _around(c)} - board.keys())
        board[draw(st.sampled_from(edge))] = "E"
    free = st.sampled_from(ALL_CELLS).filter(lambda c: c not in board)
    near = st.sampled_from(sorted({n for c in board for n in _around(c)} - board.keys()))
    placed = draw(st.lists(st.one_of(free, near), max_size=7, unique=True))
    return board, placed


def _around(cell: str) -> list[str]:
    col, row = parse_cell(cell)
    steps = ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1))
    return [cell_name(c, r) for c, r in steps if 0 <= c < SIZE and 0 <= r < SIZE]


@settings(max_examples=400, deadline=None)
@given(one_group_and_tiles())
def test_tiles_joined_to_a_board_of_one_group_are_joined_with_it(
    position: tuple[dict[str, str], list[str]],
) -> None:
    board, placed = position
    assert joined_to(board, placed) == reference_joined([*board, *placed])
