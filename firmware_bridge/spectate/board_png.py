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
from .geometry import Geometry
from .style import (
    BOARD,
    CELL_FILL,
    CELL_LINE,
    DOMINO_FILL,
    PIPS,
    TILE_EDGE,
    TILE_FILL,
    PieceLook,
    hex_colour,
    piece_look,
    seat_colour,
)

CELL = 32
"""Pixels a side of one cell."""
PAD = 6
LINE = 18
"""Pixels a line of the strip below the board."""

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


def cell_box(geo: Geometry, cell: str, size: int = CELL) -> Box:
    """The pixel box (left, top, right, bottom) of ``cell`` in the picture."""
    col, row = geo["cells"][cell]
    x, y = PAD + col * size, PAD + row * size
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


def domino_pairs(geo: Geometry, layout: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, str]]:
    """The two halves of each domino on the board: side by side, of one domino (``6-3:6``
    beside ``6-3:3``) and one owner, paired in reading order."""
    cells: Mapping[str, Sequence[int]] = geo["cells"]
    at = {tuple(p): c for c, p in cells.items()}
    halves = {
        c: str(p.get("label", "")).partition(":")
        for c, p in layout.items()
        if p.get("kind") == "domino" and c in cells
    }
    paired: set[str] = set()
    pairs: list[tuple[str, str]] = []
    for cell in sorted(halves, key=lambda c: (cells[c][1], cells[c][0])):
        if cell in paired:
            continue
        domino, _, half = halves[cell]
        ends = domino.split("-")
        if len(ends) != 2 or half not in ends:
            continue
        other = ends[1] if half == ends[0] else ends[0]
        x, y = cells[cell]
        for near in (at.get((x + 1, y)), at.get((x, y + 1))):
            if (
                near is not None
                and near not in paired
                and halves.get(near) == (domino, ":", other)
                and layout[near].get("owner") == layout[cell].get("owner")
            ):
                paired.update((cell, near))
                pairs.append((cell, near))
                break
    return pairs


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
    image: Image.Image, geo: Geometry, lit: Mapping[str, RGB], layout: Mapping[str, Any], size: int
) -> None:
    """The lights under the squares, between the squares and the pieces."""
    draw = ImageDraw.Draw(image)
    special: Mapping[str, Mapping[str, str]] = geo.get("special", {})
    for cell, rgb in lit.items():
        glow(image, cell_box(geo, cell, size), rgb)
    # Each lit square in its own colour, over a lit neighbour's margin.
    for cell, rgb in lit.items():
        box = cell_box(geo, cell, size)
        glow(image, box, rgb, core_only=True)
        draw.rectangle(box, outline=CELL_LINE)
        sp = special.get(cell)
        if sp and cell not in layout:
            _special(draw, box, sp.get("text", ""), size)


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
    """The board with its lights and pieces, and a strip naming the seats, their scores,
    the result and the lights' colours."""
    lit = lit_colours(geo, leds or {})
    cols, rows = int(geo["cols"]), int(geo["rows"])
    width = max(cols * size + 2 * PAD, 240)
    board_h = rows * size + 2 * PAD
    font = _font(13)
    strip = _strip_lines(font, width - 2 * PAD, title, seats, scores, result)
    strip += _light_lines(font, width - 2 * PAD, leds or {})
    image = Image.new("RGB", (width, board_h + len(strip) * LINE + PAD), BOARD)
    draw = ImageDraw.Draw(image)
    special: Mapping[str, Mapping[str, str]] = geo.get("special", {})
    for cell in geo["cells"]:
        box = cell_box(geo, cell, size)
        sp = special.get(cell)
        draw.rectangle(box, fill=sp["fill"] if sp else CELL_FILL, outline=CELL_LINE)
        if sp and cell not in layout:
            _special(draw, box, sp.get("text", ""), size)
    if lit:
        _lights(image, geo, lit, layout, size)
    joined: set[str] = set()
    for first, second in domino_pairs(geo, layout):
        looks = (piece_look(layout[first], seats), piece_look(layout[second], seats))
        _domino(draw, (cell_box(geo, first, size), cell_box(geo, second, size)), looks, size)
        joined.update((first, second))
    for cell, piece in layout.items():
        if cell in geo["cells"] and cell not in joined:
            _piece(draw, cell_box(geo, cell, size), piece_look(piece, seats), size)
    y = board_h
    for line in strip:
        x = PAD
        for colour, text in line:
            if colour is not None:
                draw.rectangle((x, y + 2, x + 11, y + 13), fill=colour, outline="#333333")
                x += SWATCH
            draw.text((x, y), text, fill="#000000", font=font)
            x += int(font.getlength(text)) + GAP
        y += LINE
    return image


SWATCH = 15
GAP = 12
StripLine = list[tuple[str | None, str]]
"""Runs of text on one line of the strip, each after a colour swatch or none."""


def _strip_lines(
    font: Font,
    width: int,
    title: str,
    seats: Sequence[str],
    scores: Sequence[int] | None,
    result: str | None,
) -> list[StripLine]:
    """The strip's lines: the title, the seats flowed to the width, the result wrapped."""
    lines: list[StripLine] = [[(None, title)]] if title else []
    lines += _flow(
        font,
        width,
        [
            (seat_colour(seats, i), seat if scores is None else f"{seat} {scores[i]}")
            for i, seat in enumerate(seats)
        ],
    )
    if result:
        lines += [[(None, text)] for text in _wrap(font, result, width)]
    return lines


def _flow(font: Font, width: int, runs: Sequence[tuple[str | None, str]]) -> list[StripLine]:
    """Runs of the strip, each after its swatch, flowed onto lines of ``width``."""
    lines: list[StripLine] = []
    line: StripLine = []
    used = 0
    for colour, text in runs:
        need = (SWATCH if colour else 0) + int(font.getlength(text)) + GAP
        if line and used + need > width:
            lines.append(line)
            line, used = [], 0
        line.append((colour, text))
        used += need
    if line:
        lines.append(line)
    return lines


def _light_lines(font: Font, width: int, leds: Mapping[str, str]) -> list[StripLine]:
    """The colours lit, in the palette's order, each by its name after a swatch."""
    names = set(leds.values())
    runs = [(hex_colour(c.rgb), c.name) for c in COLOURS.values() if c.name in names]
    return _flow(font, width, [(None, "Lights:"), *runs]) if runs else []


def _wrap(font: Font, text: str, width: int) -> list[str]:
    out: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and font.getlength(candidate) > width:
            out.append(current)
            current = word
        else:
            current = candidate
    if current:
        out.append(current)
    return out
