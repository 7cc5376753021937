"""The screens' bitmap font, loaded without Pillow's image-file plugins.

The font is Pillow's own default bitmap font (``ImageFont.load_default_imagefont``,
Courier bold 8, Latin-1). Pillow keeps its glyph sheet as an embedded PNG, and
opening any image file first imports five file-format plugins (BMP, GIF, JPEG,
PPM, PNG); at start-up on a Pi Zero that is tens of milliseconds before the first
frame. ``font.bin`` holds the same font with its glyph sheet as raw 1-bit pixels,
made from Pillow's by :func:`write_font_file`; a test checks that every glyph
draws exactly as Pillow's.

``font.bin``: a header of three big-endian 32-bit numbers (the length of the
PILfont metrics, the sheet's width and height), the PILfont metrics (the format
Pillow's ``.pil`` files use), then the sheet's pixels as ``Image.tobytes()``
gives them in mode ``1``.
"""

from __future__ import annotations

import struct
from functools import cache
from io import BytesIO
from pathlib import Path

from PIL import Image, ImageFont

FONT_FILE = Path(__file__).with_name("font.bin")
_HEADER = struct.Struct(">III")


@cache
def screen_font() -> ImageFont.ImageFont:
    """The screens' font, loaded once per process."""
    return load_font()


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
