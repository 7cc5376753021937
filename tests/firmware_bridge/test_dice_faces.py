"""A die drawn from its cached masks is the die drawn shape by shape."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from firmware_bridge.screen.dice_faces import SIZE, draw_die, pips

PIP_AT = (2, 5, 8)


def plain_die(draw: ImageDraw.ImageDraw, x: int, y: int, face: int | None, filled: bool) -> None:
    box = (x, y, x + SIZE - 1, y + SIZE - 1)
    if face is None:
        for i in range(0, SIZE, 2):
            for px, py in ((x + i, y), (x + i, y + SIZE - 1), (x, y + i), (x + SIZE - 1, y + i)):
                draw.point((px, py), fill=255)
        return
    if filled:
        draw.rectangle(box, fill=255)
    else:
        draw.rectangle(box, outline=255)
    ink = 0 if filled else 255
    for col, row in pips(face):
        px, py = x + PIP_AT[col], y + PIP_AT[row]
        draw.rectangle((px, py, px + 1, py + 1), fill=ink)
    for px, py in ((x, y), (x + SIZE - 1, y), (x, y + SIZE - 1), (x + SIZE - 1, y + SIZE - 1)):
        draw.point((px, py), fill=0)


@settings(max_examples=300, deadline=None)
@given(
    face=st.sampled_from([None, 1, 2, 3, 4, 5, 6]),
    filled=st.booleans(),
    x=st.integers(-14, 130),
    y=st.integers(-14, 66),
    noise=st.integers(0, 2**32 - 1),
)
def test_a_die_is_drawn_as_drawing_it_shape_by_shape_draws_it(
    face: int | None, filled: bool, x: int, y: int, noise: int
) -> None:
    rng = random.Random(noise)
    background = Image.frombytes("1", (128, 64), rng.randbytes(128 * 64 // 8))
    expected, drawn = background.copy(), background.copy()
    plain_die(ImageDraw.Draw(expected), x, y, face, filled)
    draw_die(ImageDraw.Draw(drawn), x, y, face, filled)
    assert drawn.tobytes() == expected.tobytes()
