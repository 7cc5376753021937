"""The board as a picture (Pillow): cells, special spaces, the lights, and every piece.

Drawn from the same geometry as the spectators' SVG (``spectate/geometry.py``:
where each cell is, which cells are special) and the same look of each piece
(``spectate/style.py``), so a PNG and the web view of one board agree. Below the
board a strip names the game, each seat in its colour with its score, and the
result. A lit square (``leds``: cell → a colour's name of ``palette.py``) glows as
its LED does under the wood: its colour fills the square, brightest at the middle,
and bleeds a little round it, so that a piece standing on it still shows its light
at the edges; a dim colour's RGB is darker, and so is its glow.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from ..screen.palette import COLOURS, RGB
from .board_strip import LINE, draw_strip, legend_lines, light_lines, strip_lines
from .geometry import Geometry, axis_labels, domino_pairs
from .style import (
    BOARD,
    CELL_FILL,
    CELL_LINE,
    DOMINO_FILL,
    PIPS,
    TILE_EDGE,
    TILE_FILL,
    PieceLook,
    piece_look,
)

CELL = 32
"""Pixels a side of one cell."""
PAD = 6
LABEL = 14
"""Pixels of the margin that holds the columns' names (above) and the rows' (left)."""

AXIS = "#5a4626"
"""The colour of the rows' and columns' names (the web view's)."""

PLAIN = {"■": "", "↕": "NS", "↔": "EW", "✥": "NSEW", "●": "B"}
"""Letters for the marks of special spaces that Pillow's own font has no glyph for."""

Box = tuple[float, float, float, float]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


GLOW_CORE = 1.0
"""Out to this share of half a cell from its middle, a light covers the square fully."""
GLOW_REACH = 1.4
"""Its glow fades out this far from the middle (in halves of a cell): a little beyond
the square's edge, under the neighbours' margins."""
GLOW_EDGE = 0.8
"""The light's strength at the square's edge, against its middle (a hot spot in the middle)."""


def _font(size: float) -> Font:
    return ImageFont.load_default(size)


def origin(geo: Geometry) -> tuple[int, int]:
    """Where the first cell's corner is: past the margin and the row and column names."""
    cols, rows = axis_labels(geo["cells"])
    return PAD + (LABEL if rows else 0), PAD + (LABEL if cols else 0)


def cell_box(geo: Geometry, cell: str, size: int = CELL, at: tuple[int, int] | None = None) -> Box:
    """The pixel box (left, top, right, bottom) of ``cell`` in the picture (``at``: the
    board's :func:`origin`, when the caller has it)."""
    ox, oy = at if at is not None else origin(geo)
    col, row = geo["cells"][cell]
    x, y = ox + col * size, oy + row * size
    return (x, y, x + size - 1, y + size - 1)


def cell_centre(geo: Geometry, cell: str, size: int = CELL) -> tuple[int, int]:
    x0, y0, x1, y1 = cell_box(geo, cell, size)
    return (round((x0 + x1) / 2), round((y0 + y1) / 2))


def _centred(draw: ImageDraw.ImageDraw, box: Box, text: str, font: Font, fill: str) -> None:
    draw.text(
        ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, fill=fill, font=font, anchor="mm"
    )


def _pips(draw: ImageDraw.ImageDraw, box: Box, n: int, colour: str) -> None:
    side = box[2] - box[0]
    r = max(1.5, side * 0.08)
    for px, py in PIPS.get(n, ()):
        cx, cy = box[0] + px * side, box[1] + py * side
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)


def _star(draw: ImageDraw.ImageDraw, box: Box, fill: str) -> None:

    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    outer = (box[2] - box[0]) * 0.32
    points = [
        (
            cx + (outer if i % 2 == 0 else outer * 0.45) * math.sin(i * math.pi / 5),
            cy - (outer if i % 2 == 0 else outer * 0.45) * math.cos(i * math.pi / 5),
        )
        for i in range(10)
    ]
    draw.polygon(points, fill=fill)


def _special(draw: ImageDraw.ImageDraw, box: Box, text: str, size: int) -> None:
    """A special space's mark: a star, a numbered diamond, or its short text (2W)."""
    if not text:
        return
    if text == "★":
        _star(draw, box, "#7f6000")
        return
    if text.startswith("◆"):
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        h = size * 0.42
        draw.polygon([(cx, cy - h), (cx + h, cy), (cx, cy + h), (cx - h, cy)], outline="#674ea7")
        text = text[1:]
    text = "".join(PLAIN.get(ch, ch) for ch in text)
    _centred(draw, box, text, _font(size * 0.32), "#444444")


def _domino(
    draw: ImageDraw.ImageDraw,
    boxes: tuple[Box, Box],
    looks: tuple[PieceLook, PieceLook],
    size: int,
) -> None:
    """One domino across two cells: one body in its owner's colour, a line between
    its halves, each half's pips."""
    first, second = boxes
    body = (first[0] + 2, first[1] + 2, second[2] - 2, second[3] - 2)
    draw.rounded_rectangle(body, radius=4, fill=DOMINO_FILL, outline=looks[0].colour, width=2)
    if second[0] > first[0]:
        draw.line((second[0], body[1] + 4, second[0], body[3] - 4), fill="#999999", width=1)
    else:
        draw.line((body[0] + 4, second[1], body[2] - 4, second[1]), fill="#999999", width=1)
    for box, look in zip(boxes, looks, strict=True):
        _half(draw, (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2), look, size)


def _half(draw: ImageDraw.ImageDraw, inner: Box, look: PieceLook, size: int) -> None:
    if look.pips >= 0:
        _pips(draw, inner, look.pips, "#222222")
    else:
        _centred(draw, inner, look.label, _font(size * 0.3), "#444444")


def _piece(draw: ImageDraw.ImageDraw, box: Box, look: PieceLook, size: int) -> None:
    inner = (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)
    if look.kind == "domino":
        draw.rounded_rectangle(inner, radius=3, fill=DOMINO_FILL, outline=look.colour, width=2)
        _half(draw, inner, look, size)
        return
    if look.kind == "tile":
        edge = look.colour if look.owned else TILE_EDGE
        width = 3 if look.stable else 1
        draw.rounded_rectangle(inner, radius=3, fill=TILE_FILL, outline=edge, width=width)
        text_colour = "#888888" if look.faint else "#222222"
        _centred(
            draw,
            (inner[0], inner[1] - 2, inner[2], inner[3] - 2),
            look.text,
            _font(size * 0.55),
            text_colour,
        )
        if look.owned:
            bar_y = inner[3] - 5
            draw.rectangle((inner[0] + 4, bar_y, inner[2] - 4, bar_y + 2), fill=look.colour)
        return
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    r = size * 0.4
    draw.ellipse(
        (cx - r, cy - r, cx + r, cy + r),
        fill=look.colour,
        outline="#333333",
        width=2 if look.stable else 1,
    )
    if look.state:
        ring = size * 0.22
        draw.ellipse((cx - ring, cy - ring, cx + ring, cy + ring), outline="#ffffff", width=2)


@cache
def _glow_masks(size: int) -> tuple[Image.Image, Image.Image]:
    """For one cell's light, over the cell and its margin round it: how much of the light
    covers each pixel (alpha) and how bright it is there (the hot spot), both 0-255."""
    reach = int(size * (GLOW_REACH - 1) / 2) + 1
    side = size + 2 * reach
    cover = Image.new("L", (side, side))
    bright = Image.new("L", (side, side))
    half = size / 2
    middle = (side - 1) / 2
    for y in range(side):
        for x in range(side):
            # A rounded square: the light of an LED spread by a square's diffuser.
            d = (abs(x - middle) ** 4 + abs(y - middle) ** 4) ** 0.25 / half
            a = 1.0 if d <= GLOW_CORE else max(0.0, 1 - (d - GLOW_CORE) / (GLOW_REACH - GLOW_CORE))
            cover.putpixel((x, y), round(255 * a))
            bright.putpixel((x, y), round(255 * (1 - (1 - GLOW_EDGE) * min(d, 1.0))))
    return cover, bright


def glow(image: Image.Image, box: Box, rgb: RGB, *, core_only: bool = False) -> None:
    """Draw the light of an LED of colour ``rgb`` under the square ``box`` of ``image``;
    ``core_only`` keeps it inside the square (drawn again over a neighbour's glow)."""
    size = int(box[2] - box[0]) + 1
    cover, bright = _glow_masks(size)
    reach = (cover.width - size) // 2
    light = Image.composite(Image.new("RGB", cover.size, rgb), Image.new("RGB", cover.size), bright)
    at = (int(box[0]) - reach, int(box[1]) - reach)
    if core_only:
        inside = (reach, reach, reach + size, reach + size)
        image.paste(light.crop(inside), (int(box[0]), int(box[1])), cover.crop(inside))
    else:
        image.paste(light, at, cover)


def lit_colours(geo: Geometry, leds: Mapping[str, str]) -> dict[str, RGB]:
    """Each lit cell's RGB; a ValueError names a colour or a cell that is not known."""
    out: dict[str, RGB] = {}
    for cell, name in leds.items():
        if name not in COLOURS:
            known = ", ".join(COLOURS)
            raise ValueError(
                f"the light on {cell} is {name!r}, not a colour: the colours are {known}"
            )
        if cell not in geo["cells"]:
            raise ValueError(f"a light is on {cell!r}, which is not a square of this board")
        out[cell] = COLOURS[name].rgb
    return out


def _lights(
    image: Image.Image,
    geo: Geometry,
    lit: Mapping[str, RGB],
    layout: Mapping[str, Any],
    size: int,
    at: tuple[int, int],
) -> None:
    """The lights under the squares, between the squares and the pieces."""
    draw = ImageDraw.Draw(image)
    special: Mapping[str, Mapping[str, str]] = geo.get("special", {})
    for cell, rgb in lit.items():
        glow(image, cell_box(geo, cell, size, at), rgb)
    # Each lit square in its own colour, over a lit neighbour's margin.
    for cell, rgb in lit.items():
        box = cell_box(geo, cell, size, at)
        glow(image, box, rgb, core_only=True)
        draw.rectangle(box, outline=CELL_LINE)
        sp = special.get(cell)
        if sp and cell not in layout:
            _special(draw, box, sp.get("text", ""), size)


def _axes(draw: ImageDraw.ImageDraw, geo: Geometry, size: int, at: tuple[int, int]) -> None:
    """The columns' names above the board and the rows' on its left, as moves name them."""
    cols, rows = axis_labels(geo["cells"])
    font, (ox, oy) = _font(10), at
    for x, name in cols.items():
        _centred(draw, (ox + x * size, PAD, ox + (x + 1) * size, oy), name, font, AXIS)
    for y, name in rows.items():
        _centred(draw, (PAD, oy + y * size, ox, oy + (y + 1) * size), name, font, AXIS)


def board_png(
    geo: Geometry,
    layout: Mapping[str, Mapping[str, Any]],
    seats: Sequence[str],
    *,
    title: str = "",
    scores: Sequence[int] | None = None,
    result: str | None = None,
    size: int = CELL,
    leds: Mapping[str, str] | None = None,
) -> Image.Image:
    """The board with its lights and pieces, the rows' and columns' names, and a strip
    naming the seats, their scores, the result, the lights' colours and every mark used."""
    lit = lit_colours(geo, leds or {})
    at = origin(geo)
    cols, rows = int(geo["cols"]), int(geo["rows"])
    width = max(at[0] + cols * size + PAD, 240)
    board_h = at[1] + rows * size + PAD
    font = _font(13)
    strip = strip_lines(font, width - 2 * PAD, title, seats, scores, result)
    strip += light_lines(font, width - 2 * PAD, leds or {})
    strip += legend_lines(font, width - 2 * PAD, geo, layout, seats)
    image = Image.new("RGB", (width, board_h + len(strip) * LINE + PAD), BOARD)
    draw = ImageDraw.Draw(image)
    _axes(draw, geo, size, at)
    special: Mapping[str, Mapping[str, str]] = geo.get("special", {})
    for cell in geo["cells"]:
        box = cell_box(geo, cell, size, at)
        sp = special.get(cell)
        draw.rectangle(box, fill=sp["fill"] if sp else CELL_FILL, outline=CELL_LINE)
        if sp and cell not in layout:
            _special(draw, box, sp.get("text", ""), size)
    if lit:
        _lights(image, geo, lit, layout, size, at)
    joined: set[str] = set()
    for first, second in domino_pairs(geo, layout):
        looks = (piece_look(layout[first], seats), piece_look(layout[second], seats))
        boxes = (cell_box(geo, first, size, at), cell_box(geo, second, size, at))
        _domino(draw, boxes, looks, size)
        joined.update((first, second))
    for cell, piece in layout.items():
        if cell in geo["cells"] and cell not in joined:
            _piece(draw, cell_box(geo, cell, size, at), piece_look(piece, seats), size)
    draw_strip(draw, font, strip, PAD, board_h)
    return image
