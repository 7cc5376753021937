"""The whole 15 × 15 board as a picture on the OLED's right (``roll`` shows it).

A fix's map is a window of a few cells around one; this is every cell at 4 px, a
3 × 3 pattern a cell: a laid piece filled, each seat's unstable tiles in a pattern
of their own, and the board's printed spaces (bonus squares, diamonds, special
spaces) as a dot or a ring, so a player can find them without the board's paint.
"""

from __future__ import annotations

from collections.abc import Iterable

from msgspec import Struct
from PIL import ImageDraw

from .screens import BoardMap

SIZE = 15
"""Cells a side of the boards the picture draws."""
PITCH = 4
"""Pixels a cell: 15 cells fit the OLED's 64 rows."""
PATTERNS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)),  # a box
    ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),  # a cross
    ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2)),  # a plus
    ((0, 0), (1, 1), (2, 2)),  # a slash
)
"""How each seat's unstable tiles are drawn in a 3 × 3 cell, seat 1 first."""
PATTERN_NAMES = ("box", "cross", "plus", "slash")
DOTS: dict[str, tuple[tuple[int, int], ...]] = {
    "stable": tuple((x, y) for x in range(3) for y in range(3)),
    "special": ((1, 1),),
    "ring": PATTERNS[0],
    "block": ((0, 1), (1, 1), (2, 1)),
}
"""The pattern of each kind of cell that is not a seat's unstable tile."""
RESERVED_COLUMNS = 20
"""Columns of an empty map that keep the words left of the whole board's map: at the
smallest pitch (3 px) 20 of them take the 60 px the map takes at 4 px."""


class WholeBoard(Struct, frozen=True):
    """The whole board at 4 px a cell, on the OLED's right, top to bottom.

    ``cells`` holds, per cell drawn, its row, column and kind: ``stable`` (a laid
    piece), ``seat0`` to ``seat3`` (a seat's unstable tile), ``special`` (a dot),
    ``ring`` or ``block``. ``names`` counts the cells of each kind (a prefix: ``seat``
    counts every seat's) in the words of ``--json``.
    """

    cells: tuple[tuple[int, int, str], ...]
    focus: tuple[int, int] | None = None
    names: tuple[tuple[str, str], ...] = (("stable", "stable"), ("seat", "unstable"))

    @property
    def height(self) -> int:
        return 0  # the words go beside it, on the left

    def draw(self, draw: ImageDraw.ImageDraw, top: int, right: int) -> None:
        # ``right`` is where the words end, left of the room kept for the map.
        left = right + 3
        draw.rectangle((left - 2, 0, left + SIZE * PITCH, SIZE * PITCH + 3), fill=0)
        for r, c, kind in self.cells:
            x, y = left + c * PITCH, 2 + r * PITCH
            if kind.startswith("seat"):
                dots = PATTERNS[int(kind[4:]) % len(PATTERNS)]
            else:
                dots = DOTS.get(kind, DOTS["special"])
            for dx, dy in dots:
                draw.point((x + dx, y + dy), fill=255)
        if self.focus is not None:
            r, c = self.focus
            x, y = left + c * PITCH, 2 + r * PITCH
            draw.rectangle((x - 1, y - 1, x + PITCH - 1, y + PITCH - 1), outline=255)

    def words(self) -> tuple[str, ...]:
        counts = [
            f"{sum(1 for *_, k in self.cells if k.startswith(kind))} {name}"
            for kind, name in self.names
        ]
        return ("map: " + ", ".join(counts),)


def where(cell: str, columns: str) -> tuple[int, int]:
    """A cell's row and column on the map, counted from 0 (``H8`` is row 7)."""
    return int(cell[1:]) - 1, columns.index(cell[0])


def whole_board(
    kinds: Iterable[tuple[str, str]],
    columns: str,
    focus: str | None = None,
    names: tuple[tuple[str, str], ...] = (("stable", "laid"),),
) -> WholeBoard:
    """The picture of ``kinds`` (each a cell and its kind; a later one for the same
    cell wins), ``focus`` framed."""
    drawn = {where(cell, columns): kind for cell, kind in kinds}
    cells = tuple(sorted((r, c, k) for (r, c), k in drawn.items()))
    return WholeBoard(cells, where(focus, columns) if focus else None, names)


def beside_the_map() -> BoardMap:
    """No cells, only the room the whole board's map takes at the right: the words
    flow left of it."""
    return BoardMap(((None,) * RESERVED_COLUMNS,) * SIZE)
