"""The screens' bundled bitmap font draws exactly as Pillow's default, loads cheaply, and
cached strings draw as Pillow draws them."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont

from firmware_bridge.screen.font import (
    FONT_FILE,
    draw_text,
    font_file_bytes,
    load_font,
    screen_font,
    text_width,
)

LATIN_1 = "".join(chr(c) for c in range(32, 256))


def _drawn(font: ImageFont.ImageFont, text: str) -> bytes:
    image = Image.new("1", (8 * len(text), 12), 0)
    ImageDraw.Draw(image).text((1, 0), text, font=font, fill=255)
    return image.tobytes()


def test_every_glyph_draws_as_pillows_default_font() -> None:
    ours, pillows = load_font(), ImageFont.load_default_imagefont()
    for char in LATIN_1:
        assert _drawn(ours, char) == _drawn(pillows, char), f"glyph {char!r} differs"
        assert ours.getbbox(char) == pillows.getbbox(char)
    assert _drawn(ours, LATIN_1) == _drawn(pillows, LATIN_1)
    assert ours.getlength("Red to move R12 G12") == pillows.getlength("Red to move R12 G12")


def test_the_bundled_file_is_the_installed_pillows_font() -> None:
    # When Pillow changes its default font, write_font_file() makes the file again.
    assert FONT_FILE.read_bytes() == font_file_bytes()


def test_a_damaged_or_missing_file_falls_back_to_pillows_font(tmp_path: Path) -> None:
    damaged = tmp_path / "font.bin"
    damaged.write_bytes(FONT_FILE.read_bytes()[:40])
    expected = _drawn(ImageFont.load_default_imagefont(), LATIN_1)
    for path in (damaged, tmp_path / "missing.bin"):
        assert _drawn(load_font(path), LATIN_1) == expected


PROBE = """
import json, sys
from firmware_bridge.screen.layout import render
from firmware_bridge.screen.screens import Screen
render(Screen("Red to move", "R12 G12", ("Move a piece.",)))
print(json.dumps(sorted(sys.modules)))
"""


def test_drawing_a_screen_loads_no_image_file_plugin() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    plugins = [m for m in json.loads(done.stdout) if m.endswith("ImagePlugin")]
    assert plugins == []


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(LATIN_1 + "\n"), max_size=30),
    x=st.integers(-20, 140),
    y=st.integers(-14, 70),
    fill=st.sampled_from([0, 255]),
    noise=st.integers(0, 2**32 - 1),
)
def test_cached_text_draws_as_pillow_draws_it(
    text: str, x: int, y: int, fill: int, noise: int
) -> None:
    rng = random.Random(noise)
    background = Image.frombytes("1", (128, 64), rng.randbytes(128 * 64 // 8))
    expected = background.copy()
    ImageDraw.Draw(expected).text((x, y), text, font=screen_font(), fill=fill)
    drawn = background.copy()
    draw_text(drawn, (x, y), text, fill)
    assert drawn.tobytes() == expected.tobytes()
    if "\n" not in text:
        assert text_width(text) == int(ImageDraw.Draw(expected).textlength(text, screen_font()))
