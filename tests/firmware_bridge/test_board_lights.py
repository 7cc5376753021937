"""The board picture shows the lights under the squares in their colours, and nothing else."""

from __future__ import annotations

import colorsys
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from firmware_bridge.kits import find_kit
from firmware_bridge.screen.palette import COLOURS, RGB
from firmware_bridge.spectate.board_png import LINE, board_png, cell_box
from firmware_bridge.spectate.geometry import geometry

PICTURE = Path(__file__).resolve().parents[2] / "docs" / "img" / "board-lights.png"

SEATS = ["red", "blue"]


def _geo(cols: int, rows: int) -> dict[str, Any]:
    cells = {f"r{r}c{c}": [c, r] for r in range(rows) for c in range(cols)}
    return {"game": "mystery", "cols": cols, "rows": rows, "cells": cells, "special": {}}


def _pixel(image: Image.Image, xy: tuple[float, float]) -> RGB:
    r, g, b = image.getpixel((round(xy[0]), round(xy[1])))[:3]  # type: ignore[index]
    return (r, g, b)


def _middle(geo: dict[str, Any], cell: str) -> tuple[float, float]:
    x0, y0, x1, y1 = cell_box(geo, cell)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def _hue(rgb: RGB) -> float:
    return colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0] * 360


def _same_hue(a: RGB, b: RGB) -> bool:
    gap = abs(_hue(a) - _hue(b)) % 360
    return min(gap, 360 - gap) <= 4


def _lit_every_colour() -> tuple[dict[str, Any], dict[str, str]]:
    # Every other square, so that no light's glow reaches another's middle.
    geo = _geo(2 * len(COLOURS), 1)
    return geo, {f"r0c{2 * i}": name for i, name in enumerate(COLOURS)}


def test_a_lit_square_glows_in_its_colour_and_a_dim_colour_glows_dimmer() -> None:
    geo, leds = _lit_every_colour()
    image = board_png(geo, {}, SEATS, leds=leds)
    middle = {name: _pixel(image, _middle(geo, cell)) for cell, name in leds.items()}
    for name, colour in COLOURS.items():
        seen = middle[name]
        if max(colour.rgb) - min(colour.rgb) > 40:
            assert _same_hue(seen, colour.rgb), (name, seen, colour.rgb)
        else:  # white, or a dim white: a grey
            assert max(seen) - min(seen) <= 3, (name, seen)
        assert all(abs(s - c) <= 8 for s, c in zip(seen, colour.rgb, strict=True)), (name, seen)
    for dim, bright in (("lift", "lift-now"), ("place", "place-now"), ("last", "spot")):
        assert sum(middle[dim]) < sum(middle[bright]) * 0.6, (dim, bright)


def test_a_lit_square_under_a_piece_shows_its_light_round_the_piece() -> None:
    geo = _geo(3, 3)
    layout = {
        "r1c1": {"kind": "tile", "label": "Q", "owner": 0},
        "r0c0": {"kind": "stone", "label": "", "owner": 1},
    }
    plain = board_png(geo, layout, SEATS)
    lit = board_png(geo, layout, SEATS, leds={"r1c1": "place-now", "r0c0": "lift-now"})
    for cell, name in (("r1c1", "place-now"), ("r0c0", "lift-now")):
        x0, y0, _, y1 = cell_box(geo, cell)
        # The piece is drawn as it was, and the light shows at the square's edge.
        assert _pixel(lit, _middle(geo, cell)) == _pixel(plain, _middle(geo, cell))
        edge = _pixel(lit, (x0 + 1, (y0 + y1) / 2))
        assert edge != _pixel(plain, (x0 + 1, (y0 + y1) / 2))
        assert _same_hue(edge, COLOURS[name].rgb), (cell, edge)


def test_no_lights_draw_the_same_picture_as_before() -> None:
    geo = _geo(4, 3)
    layout = {"r0c1": {"kind": "domino", "label": "6-3:6", "owner": 0}}
    plain = board_png(geo, layout, SEATS, title="t", scores=[1, 2])
    for leds in (None, {}):
        same = board_png(geo, layout, SEATS, title="t", scores=[1, 2], leds=leds)
        assert same.tobytes() == plain.tobytes()
    lit = board_png(geo, layout, SEATS, title="t", scores=[1, 2], leds={"r2c3": "hint"})
    # One line more in the strip (the colours lit); the squares far from the light
    # are as they were.
    assert lit.height == plain.height + LINE
    for cell in ("r0c0", "r0c1", "r1c0"):
        x0, y0, x1, y1 = (int(v) for v in cell_box(geo, cell))
        box = (x0, y0, x1 + 1, y1 + 1)
        assert lit.crop(box).tobytes() == plain.crop(box).tobytes(), cell
    x0, y0, x1, y1 = cell_box(geo, "r2c3")
    assert lit.crop((x0, y0, x1, y1)).tobytes() != plain.crop((x0, y0, x1, y1)).tobytes()


@pytest.mark.parametrize(
    ("leds", "says"),
    [
        ({"r0c0": "pink"}, "the light on r0c0 is 'pink', not a colour: the colours are lift-now"),
        ({"r9c9": "hint"}, "a light is on 'r9c9', which is not a square of this board"),
    ],
)
def test_a_light_of_an_unknown_colour_or_off_the_board_is_refused(
    leds: dict[str, str], says: str
) -> None:
    with pytest.raises(ValueError, match="^" + says.replace("(", r"\(")):
        board_png(_geo(2, 2), {}, SEATS, leds=leds)


def lit_double_take() -> Image.Image:
    """The docs' picture (``docs/img/board-lights.png``): a Double Take board whose
    player moved c3 to c4 and set a man down on e5, while the board asks for c3."""
    game = find_kit("double-take").new_game(2, random.Random(1), {})
    seats = [game.seat_name(p) for p in range(game.players)]
    layout = dict(game.state_dict()["layout"])
    layout["c4"] = layout.pop("c3")
    layout["e5"] = layout.pop("e3")
    leds = {"c4": "lift-now", "c3": "place-now", "e5": "lift", "e3": "place"}
    title = "Double Take: the board waits for a fix"
    return board_png(geometry(game), layout, seats, title=title, leds=leds)


def test_the_docs_picture_of_a_lit_board_is_drawn(update_golden: bool) -> None:
    """``pytest --update-golden tests/firmware_bridge/test_board_lights.py`` draws it again."""
    drawn = lit_double_take()
    if update_golden:
        drawn.save(PICTURE, optimize=True)
    assert PICTURE.exists(), f"{PICTURE.name}: run pytest --update-golden on this file"
    kept = Image.open(PICTURE).convert("RGB")
    assert kept.size == drawn.size, f"{PICTURE.name} is stale: run pytest --update-golden"
    geo = geometry(find_kit("double-take").new_game(2, random.Random(1), {}))
    for cell in ("c3", "e3"):
        assert _pixel(kept, _middle(geo, cell)) == _pixel(drawn, _middle(geo, cell)), cell
