"""The board map's drawing, held to the plain one: every cell drawn on its own."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from firmware_bridge.screen.board_map import MapBox, draw_map, place_map
from firmware_bridge.screen.screens import BoardMap, Mark


def plain_pattern(draw: ImageDraw.ImageDraw, mark: Mark, x: int, y: int, side: int) -> None:
    far = side - 1
    if mark is Mark.SOLID:
        draw.rectangle((x, y, x + far, y + far), fill=255)
    elif mark is Mark.HOLLOW:
        draw.rectangle((x, y, x + far, y + far), outline=255)
    elif mark is Mark.CROSS:
        draw.line((x, y, x + far, y + far), fill=255)
        draw.line((x, y + far, x + far, y), fill=255)
    elif mark is Mark.CHECK:
        for dy in range(side):
            for dx in range(side):
                if (dx + dy) % 2 == 0:
                    draw.point((x + dx, y + dy), fill=255)
    else:
        draw.point((x + far // 2, y + far // 2), fill=255)


def plain_map(draw: ImageDraw.ImageDraw, board: BoardMap, box: MapBox) -> None:
    """Pixel by pixel, cell by cell, in drawing order."""
    pitch = box.pitch
    side = pitch - 1 if pitch <= 6 else pitch - 2
    inset = (pitch - side) // 2
    where: dict[str, tuple[int, int]] = {}
    for r, row in enumerate(board.grid):
        for c, cell in enumerate(row):
            if cell is None:
                continue
            x, y = box.corner(r, c)
            where[cell] = (x, y)
            mark = board.marks.get(cell)
            if mark is None:
                draw.point((x + inset + (side - 1) // 2, y + inset + (side - 1) // 2), fill=255)
            else:
                plain_pattern(draw, mark, x + inset, y + inset, side)
    lit = [where[c] for c in board.lit if c in where]
    if lit:
        xs = [x for x, _ in lit]
        ys = [y for _, y in lit]
        left, top = min(xs) + inset - 1, min(ys) + inset - 1
        draw.rectangle((left, top, max(xs) + inset + side, max(ys) + inset + side), outline=255)
    for cell in board.framed:
        if cell not in where:
            continue
        x, y = where[cell]
        mark = board.marks.get(cell)
        x0, y0 = x + inset, y + inset
        if inset >= 1:
            draw.rectangle((x0 - 2, y0 - 2, x0 + side + 1, y0 + side + 1), outline=255)
            draw.rectangle((x0 - 1, y0 - 1, x0 + side, y0 + side), outline=0)
            continue
        draw.rectangle((x0 - 1, y0 - 1, x0 + side, y0 + side), outline=255)
        draw.rectangle((x0, y0, x0 + side - 1, y0 + side - 1), outline=0)
        if mark is not None and side > 2:
            plain_pattern(draw, mark, x0 + 1, y0 + 1, side - 2)
        elif side > 2:
            draw.point((x0 + (side - 1) // 2, y0 + (side - 1) // 2), fill=255)


@st.composite
def boards(draw: st.DrawFn) -> BoardMap:
    rows = draw(st.integers(1, 15))
    columns = draw(st.integers(1, 15))
    grid = tuple(
        tuple(None if draw(st.integers(0, 9)) == 0 else f"r{r}c{c}" for c in range(columns))
        for r in range(rows)
    )
    cells = [cell for row in grid for cell in row if cell is not None]
    if not cells:
        return BoardMap(grid)
    some = st.lists(st.sampled_from(cells), unique=True, max_size=len(cells))
    marks = {cell: draw(st.sampled_from(list(Mark))) for cell in draw(some)}
    focus = tuple(draw(st.lists(st.sampled_from(cells), unique=True, max_size=3)))
    lit = frozenset(draw(st.lists(st.sampled_from(cells), unique=True, max_size=5)))
    return BoardMap(grid, marks, focus or None, lit)


@settings(max_examples=300, deadline=None)
@given(board=boards(), size=st.sampled_from([(128, 64), (128, 32), (96, 64), (64, 48)]))
def test_the_map_is_drawn_as_cell_by_cell_drawing_draws_it(
    board: BoardMap, size: tuple[int, int]
) -> None:
    box = place_map(board, size)
    assert box is not None
    drawn, plain = Image.new("1", size, 0), Image.new("1", size, 0)
    draw_map(ImageDraw.Draw(drawn), board, box)
    plain_map(ImageDraw.Draw(plain), board, box)
    assert drawn.tobytes() == plain.tobytes()
