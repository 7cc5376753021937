"""The screens' bitmap font, loaded without Pillow's image-file plugins.

The font is Pillow's own default bitmap font (``ImageFont.load_default_imagefont``,
Courier bold 8, Latin-1). Pillow keeps its glyph sheet as an embedded PNG, and
opening any image file first imports five file-format plugins (BMP, GIF, JPEG,
PPM, PNG); at start-up on a Pi Zero that is tens of milliseconds before the first
frame. ``font.bin`` holds the same font with its glyph sheet as raw 1-bit pixels,
made from Pillow's by :func:`write_font_file`; a test checks that every glyph
draws exactly as Pillow's. Drawn strings are kept (:func:`draw_text`): the lines
of a game's screens repeat from frame to frame, and pasting a drawn string costs
a fraction of drawing it again.

``font.bin``: a header of three big-endian 32-bit numbers (the length of the
PILfont metrics, the sheet's width and height), the PILfont metrics (the format
Pillow's ``.pil`` files use), then the sheet's pixels as ``Image.tobytes()``
gives them in mode ``1``.
"""

from __future__ import annotations

import struct
from functools import cache, lru_cache
from io import BytesIO
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_FILE = Path(__file__).with_name("font.bin")
_HEADER = struct.Struct(">III")


@cache
def screen_font() -> ImageFont.ImageFont:
    """The screens' font, loaded once per process."""
    return load_font()


TEXT_CACHE = 512
"""How many drawn strings are kept: every line a game's screens show, several times over."""


@lru_cache(maxsize=TEXT_CACHE)
def text_mask(text: str) -> Image.Image:
    """``text`` drawn once in the screens' font, white on black, as a 1-bit mask."""
    font = screen_font()
    if "\n" in text:
        _, _, right, bottom = _measure().textbbox((0, 0), text, font=font)
        mask = Image.new("1", (max(1, int(right)), max(1, int(bottom))), 0)
        ImageDraw.Draw(mask).text((0, 0), text, font=font, fill=255)
        return mask
    # One line: the font's own glyph run, as ``ImageDraw.text`` draws it at (0, 0),
    # without the measuring, line splitting and anchoring it does first (a tenth of
    # the time).
    glyphs = font.getmask(text, "1")
    width, height = glyphs.size
    mask = Image.new("1", (max(1, width), max(1, height)), 0)
    if width and height:
        mask.im.paste(255, (0, 0, width, height), glyphs)
    return mask


def draw_text(image: Image.Image, xy: tuple[int, int], text: str, fill: int) -> None:
    """Draw ``text`` on a 1-bit ``image`` at ``xy`` in ``fill`` (0 or 255), as
    ``ImageDraw.text`` with the screens' font does, from a cache of drawn strings."""
    mask = text_mask(text)
    image.load()
    if image.readonly:
        image.paste(fill, xy, mask)  # it copies the pixels it shares before changing them
        return
    x, y = xy
    width, height = mask.size
    # What ``image.paste(fill, xy, mask)`` does, without its checks of the arguments.
    image.im.paste(fill, (x, y, x + width, y + height), mask.im)


@lru_cache(maxsize=TEXT_CACHE)
def text_width(text: str) -> int:
    """The width of ``text`` in the screens' font, in pixels."""
    return int(_measure().textlength(text, font=screen_font()))


@cache
def _measure() -> ImageDraw.ImageDraw:
    return ImageDraw.Draw(Image.new("1", (1, 1)))


def load_font(path: Path = FONT_FILE) -> ImageFont.ImageFont:
    """The screens' font from ``path``; Pillow's own default when it cannot be used."""
    loader = getattr(ImageFont.ImageFont, "_load_pilfont_data", None)
    try:
        data = path.read_bytes()
        size, width, height = _HEADER.unpack_from(data)
        start = _HEADER.size + size
        sheet = Image.frombytes("1", (width, height), data[start:])
    except (OSError, struct.error, ValueError):
        loader = None
    if loader is None:
        # A missing or damaged file, or a Pillow whose font loader changed: the same
        # font, the slow way.
        return ImageFont.load_default_imagefont()
    font = ImageFont.ImageFont()
    loader(font, BytesIO(data[_HEADER.size : start]), sheet)
    return font


def font_file_bytes() -> bytes:
    """``font.bin`` as made from the default bitmap font of the Pillow installed.

    Pillow hands its font loader the metrics and the decoded glyph sheet; this
    watches that call and keeps what it is given.
    """
    from unittest import mock

    seen: list[tuple[bytes, Image.Image]] = []
    load = ImageFont.ImageFont._load_pilfont_data

    def watch(font: ImageFont.ImageFont, file: BytesIO, image: Image.Image) -> None:
        seen.append((file.getvalue(), image.copy()))
        load(font, file, image)

    with mock.patch.object(ImageFont.ImageFont, "_load_pilfont_data", watch):
        ImageFont.load_default_imagefont()
    (metrics, sheet), *_ = seen
    if sheet.mode != "1":
        sheet = sheet.convert("1")
    return _HEADER.pack(len(metrics), *sheet.size) + metrics + sheet.tobytes()


def write_font_file(path: Path = FONT_FILE) -> None:
    """Write ``font.bin`` from the installed Pillow's default bitmap font."""
    path.write_bytes(font_file_bytes())
