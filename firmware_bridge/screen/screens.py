"""Screens: what the OLED shows, as data, and how it is drawn.

A view describes a ``Screen``; ``layout.lay_out`` decides where each line goes and
``layout.render`` draws the result with Pillow into a 1-bit image. Drawing is
deterministic (Pillow's built-in bitmap font), so frames can be compared with
reference PNGs.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Protocol

from msgspec import Struct, field
from PIL import ImageDraw, ImageFont

from .font import screen_font

WIDTH = 128
HEIGHT = 64
"""The usual display; a profile names its own size."""
CHAR_W = 6
LINE_H = 10
HEADER_H = 11


class Mark(StrEnum):
    """How a map draws an occupied cell: a pattern of its own for each seat."""

    SOLID = "solid"
    """A filled square: the first seat's piece, or a piece of no seat."""
    HOLLOW = "hollow"
    """An outlined square: the second seat's piece."""
    CROSS = "cross"
    """The square's two diagonals: the third seat's piece."""
    CHECK = "check"
    """A chequered square: the fourth seat's piece."""
    DOT = "dot"
    """A point: a cell that holds something of no seat's."""


SEAT_MARKS = (Mark.SOLID, Mark.HOLLOW, Mark.CROSS, Mark.CHECK)
"""The mark of each seat's pieces, fixed for the whole game."""


def seat_mark(seat: int | None) -> Mark:
    """The mark of ``seat``'s pieces (a piece of no seat is solid)."""
    return SEAT_MARKS[(seat or 0) % len(SEAT_MARKS)]


class BoardMap(Struct, frozen=True):
    """A small map of the board: rows top to bottom as the station sees them.

    ``marks`` gives each occupied cell a style; ``focus`` is the cell (or cells) a fix
    names, each drawn with a frame around it; ``lit`` is a group of cells (a wild row)
    drawn with one frame around them all.
    """

    grid: tuple[tuple[str | None, ...], ...]
    marks: Mapping[str, Mark] = field(default_factory=dict)
    focus: str | tuple[str, ...] | None = None
    lit: frozenset[str] = frozenset()

    @property
    def framed(self) -> tuple[str, ...]:
        """Every cell drawn with a frame of its own."""
        if self.focus is None:
            return ()
        return (self.focus,) if isinstance(self.focus, str) else self.focus


class Picture(Protocol):
    """A drawing above the text lines (dice faces, a battle).

    Make it a frozen record (``msgspec.Struct`` with ``frozen=True``), so that screens
    compare by value and an unchanged screen is not drawn again.
    """

    @property
    def height(self) -> int:
        """Pixels it takes below the header; the text lines start under it."""
        ...

    def draw(self, draw: ImageDraw.ImageDraw, top: int, right: int) -> None:
        """Draw between ``top`` and ``top + height``, left of ``right``."""
        ...

    def words(self) -> tuple[str, ...]:
        """What it shows, in words, for logs and the ``--json`` stream."""
        ...


class Screen(Struct, frozen=True):
    """One frame's content.

    ``header`` and ``status`` share the lit top bar. ``prompt`` (what to do now) and
    ``scores`` (one item a seat, never split) are always on screen; ``lines`` are
    shown in order and paged when they do not all fit.
    """

    header: str
    status: str = ""
    lines: tuple[str, ...] = ()
    board: BoardMap | None = None
    invert_body: bool = False
    picture: Picture | None = None
    prompt: str = ""
    scores: tuple[str, ...] = ()

    def text(self) -> list[str]:
        """Every word of the screen, unwrapped and unpaged (see ``Layout.text``)."""
        top = f"{self.header} {self.status}".strip()
        drawn = self.picture.words() if self.picture is not None else ()
        tail = [self.prompt] if self.prompt else []
        if self.scores:
            tail.append(" ".join(self.scores))
        return [top, *drawn, *self.lines, *tail]


def font() -> ImageFont.ImageFont:
    """The bitmap font every screen is drawn and measured with (loaded once)."""
    return screen_font()


_PLAIN = str.maketrans({"→": ">", "←": "<", "–": "-", "—": "-", "×": "x", "…": "..."})


def printable(text: str) -> str:
    """``text`` in the characters the bitmap font has (Latin-1)."""
    return text.translate(_PLAIN).encode("latin-1", "replace").decode("latin-1")


def window(
    grid: tuple[tuple[str | None, ...], ...], focus: str | None, rows: int, columns: int
) -> tuple[tuple[str | None, ...], ...]:
    """The ``rows`` × ``columns`` part of ``grid`` around ``focus``, kept on the board.

    A large board leaves too few pixels a cell to tell a piece from an empty square,
    so a fix maps the few cells around its own; with no focus the whole grid.
    """
    where = next(((r, line.index(focus)) for r, line in enumerate(grid) if focus in line), None)
    if where is None:
        return grid
    r, c = where
    top = min(max(r - rows // 2, 0), max(len(grid) - rows, 0))
    left = min(max(c - columns // 2, 0), max(len(grid[0]) - columns, 0))
    return tuple(line[left : left + columns] for line in grid[top : top + rows])
