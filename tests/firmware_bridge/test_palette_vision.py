"""The lights' colours stay apart for readers with colour-vision deficiencies, and the
palette's picture shows them so.

``pytest --update-golden tests/firmware_bridge/test_palette_vision.py`` draws
``docs/img/palette.png`` again (``palette_png.palette_png``).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from PIL import Image

from firmware_bridge.screen.palette import (
    COLOURS,
    DESTROYED,
    FIX_COLOURS,
    FROM,
    LIFT,
    LIFT_NOW,
    PLACE,
    PLACE_NOW,
    RGB,
    SPOT,
    TO,
)
from firmware_bridge.spectate.colour_vision import VISIONS, ciede2000, difference, simulate
from firmware_bridge.spectate.palette_png import MARGIN, SQUARE, palette_png, tile_box
from firmware_bridge.spectate.style import hex_colour

ROOT = Path(__file__).resolve().parents[2]
PICTURE = ROOT / "docs" / "img" / "palette.png"
DOC = ROOT / "docs" / "lights-palette.md"

MIN_DIFFERENCE = 20.0
"""CIEDE2000 between two colours lit together, in every vision: about ten times a
just-noticeable difference (about 2), so that the two are named apart at a glance on
the board, not merely told apart side by side. Ours, documented in
docs/lights-palette.md; the closest pair today is at 25.5."""

LIFTS = (LIFT_NOW, LIFT, FROM, DESTROYED)
PLACES = (PLACE_NOW, PLACE, TO)


def told_apart() -> list[tuple[str, str]]:
    """The pairs of colours lit at the same time whose meanings differ: the fixes among
    themselves; a computer's move's from and its to; the game's spot and any other; and
    any light asking for a lift against any asking for a place (the fixes and the
    computer's move are lit together, and DoubleCross lights a destroyed tile's lift
    among the fixes)."""
    pairs = set(itertools.combinations(sorted(FIX_COLOURS), 2))
    pairs.add((FROM, TO))
    pairs |= {(SPOT, other) for other in COLOURS if other != SPOT}
    pairs |= set(itertools.product(LIFTS, PLACES))
    return sorted(pairs)


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        # Sharma, Wu and Dalal (2005), table 1: pairs 1, 7, 17-20 and 25.
        ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
        ((50, 0, 0), (50, -1, 2), 2.3669),
        ((50, 2.5, 0), (73, 25, -18), 27.1492),
        ((50, 2.5, 0), (61, -5, 29), 22.8977),
        ((50, 2.5, 0), (56, -27, -3), 31.9030),
        ((50, 2.5, 0), (58, 24, 15), 19.4535),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_ciede2000_gives_the_published_differences(
    first: tuple[float, float, float], second: tuple[float, float, float], expected: float
) -> None:
    assert ciede2000(first, second) == pytest.approx(expected, abs=5e-5)
    assert ciede2000(second, first) == pytest.approx(expected, abs=5e-5)


def test_red_and_green_look_alike_to_protanopes_and_deuteranopes_not_to_tritanopes() -> None:
    red, green = (213, 94, 0), (0, 158, 115)
    seen = {vision: difference(red, green, vision) for vision in VISIONS}
    assert seen["normal"] > 50
    assert seen["protanopia"] < seen["normal"] / 2
    assert seen["deuteranopia"] < seen["normal"] / 2
    assert seen["tritanopia"] > seen["normal"] * 0.6
    # Greys are seen as they are: the matrices keep white white.
    for vision in VISIONS:
        assert simulate((255, 255, 255), vision) == (255, 255, 255)
        assert simulate((0, 0, 0), vision) == (0, 0, 0)
    with pytest.raises(ValueError, match="no vision 'sepia': the visions are normal, protan"):
        simulate(red, "sepia")


@pytest.mark.parametrize(
    ("first", "second"), [pytest.param(a, b, id=f"{a}/{b}") for a, b in told_apart()]
)
def test_colours_lit_together_stay_apart_in_every_vision(first: str, second: str) -> None:
    a, b = COLOURS[first].rgb, COLOURS[second].rgb
    for vision in VISIONS:
        gap = difference(a, b, vision)
        assert gap >= MIN_DIFFERENCE, f"{first} and {second} differ by {gap:.1f} for {vision}"


def _rgb(image: Image.Image, xy: tuple[float, float]) -> RGB:
    r, g, b = image.getpixel((round(xy[0]), round(xy[1])))[:3]  # type: ignore[index]
    return (r, g, b)


def test_the_palette_picture_shows_every_colour_in_every_vision(update_golden: bool) -> None:
    drawn = palette_png()
    if update_golden:
        PICTURE.parent.mkdir(parents=True, exist_ok=True)
        drawn.save(PICTURE, optimize=True)
    assert PICTURE.exists(), f"{PICTURE.name}: run pytest --update-golden on this file"
    kept = Image.open(PICTURE).convert("RGB")
    assert kept.size == drawn.size, f"{PICTURE.name} is stale: run pytest --update-golden"
    for row, colour in enumerate(COLOURS.values()):
        x0, y0, _, _ = tile_box(row, 0)
        middle = (x0 + MARGIN + SQUARE / 2, y0 + MARGIN + SQUARE / 2)
        normal = _rgb(kept, middle)
        assert all(abs(s - c) <= 6 for s, c in zip(normal, colour.rgb, strict=True)), (
            f"{colour.name} is {normal} in {PICTURE.name}, {colour.rgb} in the palette: "
            "run pytest --update-golden"
        )
        for column, vision in enumerate(VISIONS):
            x, y, _, _ = tile_box(row, column)
            seen = _rgb(kept, (x + middle[0] - x0, y + middle[1] - y0))
            assert seen == simulate(normal, vision), (colour.name, vision)


def test_the_docs_table_gives_every_colour_as_the_palette_does() -> None:
    text = DOC.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    table = {row.split("`")[1]: row for row in rows if row.split("`")[1] in COLOURS}
    assert set(table) == set(COLOURS)
    for name, colour in COLOURS.items():
        assert f"`{hex_colour(colour.rgb)}` | {colour.rgb} | {colour.meaning} |" in table[name]
    assert f"at least **{MIN_DIFFERENCE:g}**" in text
    assert "](img/palette.png)" in text
