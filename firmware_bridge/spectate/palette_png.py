"""The picture of the lights' palette (``docs/img/palette.png``), for a reader to check it.

Each colour of ``palette.py`` is drawn as its light looks on the board pictures (a
square of the board lit from under, ``board_png.glow``), with its name and meaning,
as seen with normal vision and with protanopia, deuteranopia and tritanopia as
Machado et al. (2009) simulate them (``colour_vision.py``): the whole swatch, wood
and light, is seen through the simulation.
"""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from ..screen.palette import COLOURS, RGB
from .board_png import Box, Font, glow
from .colour_vision import VISIONS, simulate
from .style import BOARD, CELL_FILL, CELL_LINE

SQUARE = 40
"""Pixels a side of a swatch's square (a board square is 32)."""
MARGIN = 10
"""Wood round the square, where its glow shows."""
TILE = SQUARE + 2 * MARGIN
PAD = 12
TEXT = 330
"""Pixels across the names and meanings."""
GAP = 26
"""Between the visions' columns."""
ROW_GAP = 8
HEAD = 52
"""Above the first row: the title and the visions' names."""
FOOT = 40


def tile_box(row: int, column: int) -> Box:
    """The box of the swatch of the ``row``-th colour seen with the ``column``-th vision."""
    x = PAD + TEXT + column * (TILE + GAP)
    y = HEAD + row * (TILE + ROW_GAP)
    return (x, y, x + TILE - 1, y + TILE - 1)


def _swatch(rgb: RGB) -> Image.Image:
    tile = Image.new("RGB", (TILE, TILE), BOARD)
    square = (MARGIN, MARGIN, MARGIN + SQUARE - 1, MARGIN + SQUARE - 1)
    ImageDraw.Draw(tile).rectangle(square, fill=CELL_FILL, outline=CELL_LINE)
    glow(tile, square, rgb)
    ImageDraw.Draw(tile).rectangle(square, outline=CELL_LINE)
    return tile


def _seen(tile: Image.Image, vision: str) -> Image.Image:
    if vision == "normal":
        return tile
    seen: dict[RGB, bytes] = {}
    data = tile.tobytes()
    out = bytearray()
    for i in range(0, len(data), 3):
        pixel = (data[i], data[i + 1], data[i + 2])
        if pixel not in seen:
            seen[pixel] = bytes(simulate(pixel, vision))
        out += seen[pixel]
    return Image.frombytes("RGB", tile.size, bytes(out))


def _wrap(font: Font, text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def palette_png() -> Image.Image:
    """Every colour of the lights as seen with each of :data:`colour_vision.VISIONS`."""
    rows = len(COLOURS)
    width = PAD + TEXT + len(VISIONS) * (TILE + GAP) - GAP + PAD
    height = HEAD + rows * (TILE + ROW_GAP) - ROW_GAP + FOOT
    image = Image.new("RGB", (width, height), "#ffffff")
    draw = ImageDraw.Draw(image)
    title, name_font, small = (ImageFont.load_default(size) for size in (16, 14, 12))
    draw.text((PAD, 8), "The lights under the squares", fill="#000000", font=title)
    for column, vision in enumerate(VISIONS):
        x0, _, x1, _ = tile_box(0, column)
        draw.text(((x0 + x1) / 2, HEAD - 6), vision, fill="#000000", font=small, anchor="ms")
    for row, colour in enumerate(COLOURS.values()):
        x0, y0, _, _ = tile_box(row, 0)
        draw.text((PAD, y0 + 4), colour.name, fill="#000000", font=name_font)
        for i, line in enumerate(_wrap(small, colour.meaning, TEXT - 2 * PAD)):
            draw.text((PAD, y0 + 22 + 14 * i), line, fill="#444444", font=small)
        tile = _swatch(colour.rgb)
        for column, vision in enumerate(VISIONS):
            x, y, _, _ = tile_box(row, column)
            image.paste(_seen(tile, vision), (int(x), int(y)))
    notes = (
        "Deficiencies simulated after Machado, Oliveira and Fernandes (2009), severity 1.0.",
        "Colours shown together differ by CIEDE2000 >= 20 in every column (tests/firmware_bridge).",
    )
    for i, note in enumerate(notes):
        draw.text((PAD, height - FOOT + 6 + 15 * i), note, fill="#444444", font=small)
    return image
