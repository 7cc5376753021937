"""The spectators see the lights under the squares, and a legend of the colours lit."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html import escape
from typing import Any

import pytest

from firmware_bridge.screen import palette
from firmware_bridge.spectate.page import board_part, card_html, parts
from firmware_bridge.spectate.style import hex_colour
from firmware_bridge.spectate.svg import board_svg

NS = {"s": "http://www.w3.org/2000/svg"}
SEATS = ["red", "blue"]


def _geo(cols: int, rows: int) -> dict[str, Any]:
    cells = {f"r{r}c{c}": [c, r] for r in range(rows) for c in range(cols)}
    return {"game": "mystery", "cols": cols, "rows": rows, "cells": cells, "special": {}}


def _view(**changes: Any) -> dict[str, Any]:
    view = {
        "title": "Mystery",
        "seats": SEATS,
        "scores": {"red": 0, "blue": 0},
        "moves_played": 0,
        "layout": {"r0c0": {"kind": "tile", "label": "Q", "owner": 0}},
    }
    return {**view, **changes}


def _lights(svg: str) -> dict[str, str]:
    root = ET.fromstring(svg)
    out = {}
    for group in root.findall(".//s:g[@class='led']", NS):
        square = group.find("s:rect", NS)
        assert square is not None
        name = str(group.get("data-led"))
        assert square.get("fill") == hex_colour(palette.COLOURS[name].rgb)
        out[str(group.get("data-cell"))] = name
    return out


def test_the_lit_squares_are_drawn_in_their_colours_under_the_pieces() -> None:
    leds = {"r0c0": "lift-now", "r1c2": "place", "r2c1": "spot"}
    svg = board_svg(_geo(3, 3), _view()["layout"], SEATS, leds=leds)
    assert _lights(svg) == leds
    # Under the piece: the piece comes after its light.
    assert svg.index('data-cell="r0c0" data-led="lift-now"') < svg.index('class="piece')
    assert "r1c2: place, a piece to put here, after the current fix" in svg


@pytest.mark.parametrize(
    "leds",
    [
        {"r0c0": "pink", "r9c9": "hint", "r1c1": 3, "r0c1": None},
        ["r0c0", "hint"],
        "r0c0=hint",
        {3: "hint"},
    ],
)
def test_lights_of_unknown_colours_or_off_the_board_are_not_drawn(leds: Any) -> None:
    shown = {"r1c0": "to"} if isinstance(leds, dict) else {}
    if isinstance(leds, dict):
        leds = {**leds, **shown}
    html = board_part(_view(leds=leds), _geo(2, 2))
    assert _lights(html[: html.index("</svg>") + 6]) == shown
    assert "pink" not in html and "r9c9" not in html
    assert ('class="lights"' in html) == bool(shown)


def test_without_lights_the_board_is_drawn_as_before() -> None:
    geo, view = _geo(3, 2), _view()
    plain = board_part(view, geo)
    assert 'class="led' not in plain and "lights" not in plain
    for leds in (None, {}):
        assert board_part(_view(leds=leds), geo) == plain
    assert board_svg(geo, view["layout"], SEATS, leds=None) == board_svg(geo, view["layout"], SEATS)
    assert parts(view, geo, [])["board"] == plain


def test_the_legend_names_the_colours_lit_now_with_their_meanings_in_the_palettes_order() -> None:
    leds = {"r0c0": "spot", "r0c1": "lift-now", "r1c0": "lift-now", "r1c1": "to"}
    html = board_part(_view(leds=leds), _geo(2, 2))
    legend = html[html.index('<p class="lights">') :]
    names = [palette.SPOT, palette.LIFT_NOW, palette.TO]
    order = sorted(names, key=list(palette.COLOURS).index)
    assert [legend.index(f'data-led="{n}"') for n in order] == sorted(
        legend.index(f'data-led="{n}"') for n in names
    )
    for name in names:
        meaning = escape(palette.COLOURS[name].meaning)
        assert f'<b class="led-{name}"></b>{name}: {meaning}' in legend
    assert legend.count("data-led=") == 3
    assert "place" not in legend
    # Each swatch's colour is the palette's, from the page's style sheet (no inline style).
    assert "style=" not in legend


def test_the_legend_and_the_lights_are_escaped(monkeypatch: pytest.MonkeyPatch) -> None:
    odd = palette.Colour('odd"<i>', (1, 2, 3), "a <b>bold</b> & meaning")
    monkeypatch.setitem(palette.COLOURS, odd.name, odd)
    geo = _geo(1, 1)
    geo["cells"] = {'c"<x>': [0, 0]}
    html = board_part(_view(layout={}, leds={'c"<x>': odd.name}), geo)
    assert "<b>bold" not in html and "<i>" not in html and "<x>" not in html
    assert "a &lt;b&gt;bold&lt;/b&gt; &amp; meaning" in html
    assert 'data-cell="c&quot;&lt;x&gt;"' in html
    ET.fromstring(html[: html.index("</svg>") + 6])


def test_the_hubs_card_shows_the_lit_squares() -> None:
    html = card_html("hall", _view(leds={"r0c1": "hint"}), _geo(2, 1), "/b/hall")
    assert _lights(html[html.index("<svg") : html.index("</svg>") + 6]) == {"r0c1": "hint"}
    assert 'class="led' not in card_html("hall", _view(), _geo(2, 1), "/b/hall")
