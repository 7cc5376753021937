"""The board map on the OLED: where it goes, and each cell drawn in its seat's pattern."""

from __future__ import annotations

from functools import cache

from msgspec import Struct
from PIL import ImageDraw

from .screens import HEADER_H, BoardMap, Mark

MAP_SHARE = 7 / 16
"""At most this part of the screen's width goes to the map."""


class MapBox(Struct, frozen=True):
    """Where a map is drawn: its top-left cell corner, the pitch of a cell, its size."""

    left: int
    top: int
    pitch: int
    rows: int
    columns: int

    @property
    def bottom(self) -> int:
        """The last pixel row the map (frames included) may light."""
        return self.top + self.rows * self.pitch

    @property
    def text_right(self) -> int:
        """Text to the side of the map ends left of this."""
        return self.left - 2

    def corner(self, row: int, column: int) -> tuple[int, int]:
        return self.left + column * self.pitch, self.top + row * self.pitch


def place_map(board: BoardMap, size: tuple[int, int]) -> MapBox | None:
    """Where ``board`` goes at the right of a screen of ``size``; None if it is empty."""
    rows = len(board.grid)
    columns = max((len(r) for r in board.grid), default=0)
    if not rows or not columns:
        return None
    width, height = size
    top = HEADER_H + 2
    pitch = max(3, min((height - top - 1) // rows, int(width * MAP_SHARE) // columns))
    left = width - 1 - columns * pitch
    return MapBox(left, top, pitch, rows, columns)


Points = list[tuple[int, int]]


@cache
def _checks(side: int) -> tuple[tuple[int, int], ...]:
    """The lit offsets of a checked ``side`` × ``side`` square."""
    return tuple((dx, dy) for dy in range(side) for dx in range(side) if (dx + dy) % 2 == 0)


def _pattern(
    draw: ImageDraw.ImageDraw, mark: Mark, x: int, y: int, side: int, points: Points
) -> None:
    """One cell's mark in the ``side`` × ``side`` square at (x, y); its single pixels
    go to ``points``, for the caller to light in one call."""
    far = side - 1
    if mark is Mark.SOLID:
        draw.rectangle((x, y, x + far, y + far), fill=255)
    elif mark is Mark.HOLLOW:
        draw.rectangle((x, y, x + far, y + far), outline=255)
    elif mark is Mark.CROSS:
        draw.line((x, y, x + far, y + far), fill=255)
        draw.line((x, y + far, x + far, y), fill=255)
    elif mark is Mark.CHECK:
        points.extend((x + dx, y + dy) for dx, dy in _checks(side))
    else:
        points.append((x + far // 2, y + far // 2))


def draw_map(draw: ImageDraw.ImageDraw, board: BoardMap, box: MapBox) -> None:
    """Draw ``board`` in ``box``: a dot for an empty cell, the seat's pattern for a piece,
    a frame round each focused cell and one round the lit cells."""
    pitch = box.pitch
    side = pitch - 1 if pitch <= 6 else pitch - 2
    inset = (pitch - side) // 2
    middle = inset + (side - 1) // 2
    marks = board.marks
    left, top = box.left, box.top
    where: dict[str, tuple[int, int]] = {}
    # Cells do not overlap: their single pixels are lit together, after the loop.
    points: Points = []
    for r, row in enumerate(board.grid):
        y = top + r * pitch
        for c, cell in enumerate(row):
            if cell is None:
                continue
            x = left + c * pitch
            where[cell] = (x, y)
            mark = marks.get(cell)
            if mark is None:
                points.append((x + middle, y + middle))
            else:
                _pattern(draw, mark, x + inset, y + inset, side, points)
    if points:
        draw.point(points, fill=255)
    lit = [where[c] for c in board.lit if c in where]
    if lit:
        xs = [x for x, _ in lit]
        ys = [y for _, y in lit]
        left, top = min(xs) + inset - 1, min(ys) + inset - 1
        draw.rectangle((left, top, max(xs) + inset + side, max(ys) + inset + side), outline=255)
    for cell in board.framed:
        if cell in where:
            _frame(draw, marks.get(cell), *where[cell], inset, side)


def _frame(
    draw: ImageDraw.ImageDraw, mark: Mark | None, x: int, y: int, inset: int, side: int
) -> None:
    """A frame round one cell, in the gaps between cells, a dark ring inside it."""
    x0, y0 = x + inset, y + inset
    if inset >= 1:
        draw.rectangle((x0 - 2, y0 - 2, x0 + side + 1, y0 + side + 1), outline=255)
        draw.rectangle((x0 - 1, y0 - 1, x0 + side, y0 + side), outline=0)
        return
    # One pixel between cells: the frame takes the gap and the mark shrinks inside it.
    draw.rectangle((x0 - 1, y0 - 1, x0 + side, y0 + side), outline=255)
    draw.rectangle((x0, y0, x0 + side - 1, y0 + side - 1), outline=0)
    points: Points = []
    if mark is not None and side > 2:
        _pattern(draw, mark, x0 + 1, y0 + 1, side - 2, points)
    elif side > 2:
        points.append((x0 + (side - 1) // 2, y0 + (side - 1) // 2))
    if points:
        draw.point(points, fill=255)
