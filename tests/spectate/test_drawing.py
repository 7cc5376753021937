"""The board drawn as SVG from a geometry and a layout, for known and unknown games."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from firmware_bridge.kits import KITS, find_kit
from firmware_bridge.spectate.geometry import geometry, positions
from firmware_bridge.spectate.page import card_html, legend_html, moves_html, panel_html
from firmware_bridge.spectate.style import seat_colour
from firmware_bridge.spectate.svg import board_svg

NS = {"s": "http://www.w3.org/2000/svg"}


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_positions_from_names_of_every_style() -> None:
    assert positions(["r3c3", "r3c4", "r4c3"]) == {"r3c3": (0, 0), "r3c4": (1, 0), "r4c3": (0, 1)}
    assert positions(["A1", "B1", "A2"]) == {"A1": (0, 0), "B1": (1, 0), "A2": (0, 1)}
    # Names with no grid in them go in reading order on a square.
    assert positions(["north", "east", "south", "west", "centre"]) == {
        "north": (0, 0),
        "east": (1, 0),
        "south": (2, 0),
        "west": (0, 1),
        "centre": (1, 1),
    }


def _geo(cols: int, rows: int) -> dict[str, Any]:
    cells = {f"r{r}c{c}": [c, r] for r in range(rows) for c in range(cols)}
    return {"game": "mystery", "cols": cols, "rows": rows, "cells": cells, "special": {}}


def test_unknown_game_draws_letters_with_owners_and_stability() -> None:
    layout = {
        "r0c0": {"kind": "cell", "label": "Q", "owner": 1, "stable": True},
        "r0c1": {"kind": "cell", "label": "u", "owner": 0},
        "r1c1": {"kind": "stone", "label": "", "owner": 0, "state": "ringed"},
    }
    root = _parse(board_svg(_geo(3, 2), layout, ["alice", "bob"]))
    pieces = root.findall(".//s:g[@class]", NS)
    labels = {g.get("data-label"): g for g in pieces}
    assert set(labels) == {"Q", "u", ""}
    q_rect = labels["Q"].find("s:rect", NS)
    assert q_rect is not None and q_rect.get("stroke-width") == "3"
    assert q_rect.get("stroke") == seat_colour(["alice", "bob"], 1)
    assert labels["Q"].find("s:text", NS).text == "Q"  # type: ignore[union-attr]
    assert len(root.findall(".//s:rect[@class='cell']", NS)) == 6


@pytest.mark.parametrize("half,pips", [("6-3:6", 6), ("6-3:3", 3), ("0-0:0", 0)])
def test_domino_halves_show_their_pips(half: str, pips: int) -> None:
    root = _parse(board_svg(_geo(1, 1), {"r0c0": {"kind": "domino", "label": half}}, ["a"]))
    group = root.find(".//s:g[@class='piece domino']", NS)
    assert group is not None
    assert len(group.findall("s:circle", NS)) == pips


def test_dice_and_fixes_are_drawn() -> None:
    svg = board_svg(
        _geo(2, 2),
        {},
        ["blue", "red"],
        {"dice": {"red": [3, 5], "blue": [6, 1]}, "target": ["r1c1"]},
        [{"cell": "r0c1", "action": "place", "text": "put red on r0c1"}],
    )
    root = _parse(svg)
    dice = root.findall(".//s:g[@class='die']", NS)
    assert [d.get("data-value") for d in dice] == ["3", "5", "6", "1"]
    assert [len(d.findall("s:circle", NS)) for d in dice] == [3, 5, 6, 1]
    assert [f.get("data-cell") for f in root.findall(".//s:rect[@class='fix']", NS)] == ["r0c1"]


@pytest.mark.parametrize("name", list(KITS))
def test_every_shipped_game_draws_its_opening(name: str) -> None:
    from firmware_bridge.spectate.geometry import geometry

    game = find_kit(name).new_game(2, random.Random(1), {})
    geo = geometry(game)
    state = game.state_dict()
    root = _parse(board_svg(geo, state["layout"], ["a", "b"]))
    assert root.get("data-game") == name
    assert len(root.findall(".//s:rect[@class='cell']", NS)) == len(game.cells())
    assert len(root.findall(".//s:g[@data-label]", NS)) == len(state["layout"])


def test_special_spaces_of_crosslet_and_dominoes() -> None:
    from firmware_bridge.spectate.geometry import geometry

    crosslet = geometry(find_kit("crosslet").new_game(2, random.Random(1), {}))
    assert crosslet["special"]["A1"]["text"] == "3W"
    assert crosslet["special"]["H8"]["text"] == "★"
    dominoes = geometry(find_kit("dominoes").new_game(2, random.Random(1), {}))
    assert dominoes["special"]["A1"]["text"] == "◆5"
    assert dominoes["special"]["H8"]["text"] == "★"


def test_panel_shows_turn_result_fixes_and_escapes_text() -> None:
    view = {
        "board": "t<1>",
        "title": "Mystery",
        "seats": ["a", "b"],
        "scores": {"a": 3, "b": 5},
        "turn": "b",
        "result": None,
        "connected": False,
        "moves_played": 2,
        "move": {"player": "a", "text": "x<y", "points": {"a": 2, "b": 0}},
        "fixes": [{"cell": "A1", "text": "lift the E from A1"}],
        "oled": ["Line 1"],
        "extra": {"bag": 40},
    }
    html = panel_html(view)
    assert "t&lt;1&gt;" in html and "x&lt;y (a +2)" in html
    assert "B to move" in html
    assert "lift the E from A1" in html
    assert "offline" in html
    assert "Bag: 40 tiles left" in html
    view["result"] = "A wins: more points"
    assert "A wins: more points" in panel_html(view)
    assert "to move" not in panel_html(view)
    assert moves_html([{"n": 7, "player": "a", "text": "t", "points": {}}]).count("<li") == 1


def test_doublecross_draws_its_special_spaces_until_they_are_used() -> None:
    from firmware_bridge.spectate.geometry import geometry

    options = {"start_word": "CAT", "racks": ["AAA", "EEE"], "bag": "", "first": 1}
    options["specials"] = {"A1": "bomb-1", "C3": "bonus", "D4": "block", "E5": "ns"}
    game = find_kit("doublecross").new_game(2, random.Random(1), options)
    geo = geometry(game)
    assert geo["special"]["A1"]["text"] == "●1"
    assert geo["special"]["D4"]["text"] == "■"
    assert geo["special"]["E5"]["text"] == "↕"
    state = game.state_dict()
    texts = _parse(board_svg(geo, state["layout"], ["a", "b"], {"specials": {"A1": "bomb-1"}}))
    drawn = [t.text for t in texts.findall(".//s:text", NS)]
    assert "●1" in drawn and "■" not in drawn and "↕" not in drawn
    tiles = texts.findall(".//s:g[@data-label]", NS)
    assert len(tiles) == 3


def test_the_panel_says_no_internal_names_and_shows_open_racks() -> None:
    view = {
        "title": "Double Double Dominoes", "seats": ["player 1", "player 2"],
        "scores": {"player 1": 3, "player 2": 0}, "turn": "player 1", "layout": {},
        "moves_played": 4, "extra": {"phase": "draw", "boneyard": 34, "pit": 0},
    }  # fmt: skip
    html = panel_html(view)
    assert "Player 1 to move: draws a domino" in html
    assert "Boneyard: 34 dominoes left" in html and "Pit: 0 dominoes" in html
    assert "phase" not in html and "boneyard 34" not in html
    racks = {**view, "extra": {"racks": {"player 1": ["C", "A", "T"]}}}
    assert "player 1&#x27;s rack: C A T" in panel_html(racks)


@pytest.mark.parametrize("game", ["double-take", "doubles-wild", "crosslet"])
def test_every_board_has_its_coordinates(game: str) -> None:
    played = find_kit(game).new_game(2, random.Random(1), {})
    svg = board_svg(geometry(played), {}, ["a", "b"])
    first, last = {"double-take": ("a", "9"), "doubles-wild": ("c3", "r11"),
                   "crosslet": ("A", "15")}[game]  # fmt: skip
    assert f">{first}</text>" in svg and f">{last}</text>" in svg


def test_crosslet_tiles_show_their_letter_values_and_specials_have_a_legend() -> None:
    played = find_kit("crosslet").new_game(2, random.Random(1), {})
    geo = geometry(played)
    tile = {"kind": "tile", "label": "Q", "owner": None}
    assert ">10</text>" in board_svg(geo, {"H8": tile}, ["a", "b"])
    legend = legend_html(geo)
    assert "word ×3" in legend and "letter ×2" in legend
    doublecross = find_kit("doublecross").new_game(2, random.Random(1), {})
    assert "player 1&#x27;s bomb" in legend_html(geometry(doublecross))


def test_a_board_name_with_spaces_is_quoted_in_its_link() -> None:
    from firmware_bridge.spectate.hub import board_href

    assert board_href("table 3") == "/board/table%203"
    assert 'href="/board/table%203"' in card_html("table 3", None, None, board_href("table 3"))


def test_a_domino_is_one_body_over_its_two_cells() -> None:
    layout = {
        "r0c0": {"kind": "domino", "label": "6-3:6", "owner": 0},
        "r0c1": {"kind": "domino", "label": "6-3:3", "owner": 0},
        "r1c0": {"kind": "domino", "label": "5-2:5", "owner": 1},  # its other half not laid
    }
    root = _parse(board_svg(_geo(2, 2), layout, ["a", "b"]))
    groups = root.findall(".//s:g[@class='piece domino']", NS)
    assert len(groups) == 2, "the laid domino is one group, the lone half another"
    whole = next(g for g in groups if g.get("data-label") == "6-3")
    body = whole.find("s:rect", NS)
    assert body is not None and float(body.get("width", 0)) > float(body.get("height", 0)) * 1.8
    assert len(whole.findall("s:circle", NS)) == 9, "six pips and three, one body"
    assert len(whole.findall("s:line", NS)) == 1, "a line between the halves"
