"""Screens: what the OLED shows, as data, and how it is drawn.

A referee describes a ``Screen``; ``render`` draws it with Pillow into a 1-bit
image. Drawing is deterministic (Pillow's built-in bitmap font), so frames can be
compared with reference PNGs.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Protocol

from PIL import Image, ImageDraw, ImageFont

WIDTH = 128
HEIGHT = 64
"""The usual display; a profile names its own size."""
CHAR_W = 6
LINE_H = 10
HEADER_H = 11


class Mark(StrEnum):
    """How a map draws an occupied cell."""

    SOLID = "solid"
    """A filled square: the first seat's piece, or the piece that matters now."""
    HOLLOW = "hollow"
    """An outlined square: another seat's piece."""
    DOT = "dot"
    """A point: a cell that holds something of no seat's."""


@dataclass(frozen=True)
class BoardMap:
    """A small map of the board: rows top to bottom as the station sees them.

    ``marks`` gives each occupied cell a style; ``focus`` is the cell a fix names,
    drawn with a frame around it.
    """

    grid: tuple[tuple[str | None, ...], ...]
    marks: Mapping[str, Mark] = field(default_factory=dict)
    focus: str | None = None


class Picture(Protocol):
    """A drawing above the text lines (dice faces, a battle).

    Make it a frozen dataclass, so that screens compare by value and an unchanged
    screen is not drawn again.
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


@dataclass(frozen=True)
class Screen:
    """One frame's content."""

    header: str
    status: str = ""
    lines: tuple[str, ...] = ()
    board: BoardMap | None = None
    invert_body: bool = False
    picture: Picture | None = None

    def text(self) -> list[str]:
        """The words on the screen, for logs and the ``--json`` stream."""
        top = f"{self.header} {self.status}".strip()
        drawn = self.picture.words() if self.picture is not None else ()
        return [top, *drawn, *self.lines]


@cache
def _font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


_PLAIN = str.maketrans({"→": ">", "←": "<", "–": "-", "—": "-", "×": "x", "…": "..."})


def printable(text: str) -> str:
    """``text`` in the characters the bitmap font has (Latin-1)."""
    return text.translate(_PLAIN).encode("latin-1", "replace").decode("latin-1")


def wrap(text: str, width_px: int) -> list[str]:
    """Break ``text`` into lines that fit ``width_px`` of the bitmap font."""
    out: list[str] = []
    for para in printable(text).split("\n"):
        out.extend(textwrap.wrap(para, max(4, width_px // CHAR_W)) or [""])
    return out


def _draw_map(
    draw: ImageDraw.ImageDraw, board: BoardMap, right: int, top: int, size: tuple[int, int]
) -> int:
    rows = len(board.grid)
    cols = max((len(r) for r in board.grid), default=0)
    if not rows or not cols:
        return right
    width, height = size
    pitch = max(3, min((height - top - 1) // rows, (width * 7 // 16) // cols))
    left = right - cols * pitch
    for r, row in enumerate(board.grid):
        for c, cell in enumerate(row):
            if cell is None:
                continue
            x = left + c * pitch
            y = top + r * pitch
            mark = board.marks.get(cell)
            inner = (x + 1, y + 1, x + pitch - 2, y + pitch - 2)
            if mark is Mark.SOLID:
                draw.rectangle(inner, fill=255)
            elif mark is Mark.HOLLOW:
                draw.rectangle(inner, outline=255)
            elif mark is Mark.DOT or pitch < 5:
                cx, cy = x + pitch // 2, y + pitch // 2
                draw.point((cx, cy), fill=255)
            else:
                draw.point((x + pitch // 2, y + pitch // 2), fill=255)
            if cell == board.focus:
                draw.rectangle((x - 1, y - 1, x + pitch, y + pitch), outline=255)
                draw.rectangle((x, y, x + pitch - 1, y + pitch - 1), outline=0)
    return left - 3


def render(screen: Screen, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    """Draw ``screen`` as a 1-bit image of ``size`` (width, height) pixels."""
    width, height = size
    image = Image.new("1", (width, height), 0)
    draw = ImageDraw.Draw(image)
    font = _font()
    draw.rectangle((0, 0, width - 1, HEADER_H - 1), fill=255)
    draw.text((1, 0), printable(screen.header), font=font, fill=0)
    if screen.status:
        status = printable(screen.status)
        w = int(draw.textlength(status, font=font))
        draw.text((width - w - 1, 0), status, font=font, fill=0)
    text_right = width
    if screen.board is not None:
        text_right = _draw_map(draw, screen.board, width - 1, HEADER_H + 2, size)
    lines: list[str] = []
    for line in screen.lines:
        lines.extend(wrap(line, text_right))
    y = HEADER_H + 1
    if screen.picture is not None:
        screen.picture.draw(draw, y, text_right)
        y += screen.picture.height
    for line in lines[: (height - y + 1) // LINE_H]:
        draw.text((1, y), line, font=font, fill=255)
        y += LINE_H
    if screen.invert_body:
        body = image.crop((0, HEADER_H, width, height)).point(lambda v: 255 - v)
        image.paste(body, (0, HEADER_H))
    return image


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
