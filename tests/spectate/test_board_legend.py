"""The board's picture names its rows and columns as moves do, and its strip says what
every mark it uses means."""

from __future__ import annotations

import random

from PIL import Image, ImageFont

from firmware_bridge.kits import find_kit
from firmware_bridge.spectate.board_png import AXIS, LABEL, PAD, board_png, cell_box, origin
from firmware_bridge.spectate.board_strip import legend_lines
from firmware_bridge.spectate.geometry import axis_labels, geometry

FONT = ImageFont.load_default(13)


def game_of(name: str) -> object:
    return find_kit(name).new_game(2, random.Random(1), {})


def axis_pixels(image: Image.Image, box: tuple[float, float, float, float]) -> int:
    """How many pixels of ``box`` are drawn near the axis names' colour."""
    want = tuple(int(AXIS[i : i + 2], 16) for i in (1, 3, 5))
    crop = image.convert("RGB").crop(tuple(int(v) for v in box))
    pixels = crop.get_flattened_data()
    return sum(1 for px in pixels if sum(abs(a - b) for a, b in zip(px, want, strict=True)) < 90)


def test_every_column_and_row_is_named_beside_the_board() -> None:
    game = game_of("doublecross")
    geo = geometry(game)  # type: ignore[arg-type]
    image = board_png(geo, {}, ["player 1", "player 2"])
    cols, rows = axis_labels(geo["cells"])
    assert sorted(cols.values()) == [chr(ord("A") + i) for i in range(15)]
    assert origin(geo) == (PAD + LABEL, PAD + LABEL)
    for x in cols:
        left, top, right, _ = cell_box(geo, f"{cols[x]}1")
        assert axis_pixels(image, (left, PAD, right, top)) > 5, f"column {cols[x]} unnamed"
    for name in rows.values():
        left, top, _, bottom = cell_box(geo, f"A{name}")
        assert axis_pixels(image, (PAD, top, left, bottom)) > 5, f"row {name} unnamed"


def test_the_legend_names_each_special_space_and_the_pieces_marks() -> None:
    game = game_of("doublecross")
    geo = geometry(game)  # type: ignore[arg-type]
    layout = game.state_dict()["layout"]  # type: ignore[attr-defined]
    lines = legend_lines(FONT, 480, geo, layout, ["player 1", "player 2"])
    runs = [run for line in lines for run in line]
    texts = [text for _, text in runs]
    for sp in geo["special"].values():
        assert any(sp["name"] in text for text in texts), sp["name"]
        assert (sp["fill"], next(t for t in texts if sp["name"] in t)) in runs
    assert "heavy edge: a stable tile" in texts, "the start word's tiles are stable"


def test_a_ring_is_explained_only_when_one_is_drawn() -> None:
    geo = geometry(game_of("double-take"))  # type: ignore[arg-type]
    plain = {"a1": {"kind": "man", "label": "red", "owner": 0}}
    home = {"a1": {"kind": "man", "label": "red", "owner": 0, "state": "far-row"}}
    seats = ["red", "green"]
    assert not any("ring" in t for line in legend_lines(FONT, 480, geo, plain, seats)
                   for _, t in line)  # fmt: skip
    marks = [t for line in legend_lines(FONT, 480, geo, home, seats) for _, t in line]
    assert "white ring: far row" in marks
