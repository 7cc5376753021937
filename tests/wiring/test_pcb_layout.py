"""The PCB's layout by rule, checked without KiCad: the LED chain's every link, the
jumps of the racks board's chain included, is copper joining one LED's data out to
the next one's data in (KiCad's DRC checks the same on the boards it is run on)."""

from __future__ import annotations

import itertools
from collections import defaultdict

import pytest

from firmware_bridge.kits import piece_sets
from wiring.bom import bill_of_materials
from wiring.errors import NetlistError
from wiring.leds_power import square_pitch_mm
from wiring.loader import load_profile
from wiring.pcb import layout as layout_module
from wiring.pcb.circuit import Board, build_board
from wiring.pcb.geometry import placed_pads
from wiring.pcb.layout import Layout, layout_board

Point = tuple[str, float, float]


def _board(name: str) -> Board:
    profile = load_profile(name)
    return build_board(profile, bill_of_materials(profile, piece_sets()))


@pytest.fixture(scope="module")
def racks() -> tuple[Board, Layout]:
    board = _board("rfid-15x15-racks-pico")
    return board, layout_board(board, square_pitch_mm(board.shape.columns))


def _joined(out: Layout, net: str, start: Point) -> set[Point]:
    """Every (layer, x, y) reached from ``start`` along ``net``'s tracks and vias."""
    links: dict[Point, set[Point]] = defaultdict(set)
    for t in out.tracks:
        if t["net"] == net:
            a = (t["layer"], round(t["x1"], 3), round(t["y1"], 3))
            b = (t["layer"], round(t["x2"], 3), round(t["y2"], 3))
            links[a].add(b)
            links[b].add(a)
    for v in out.vias:
        if v["net"] == net:
            f = ("F.Cu", round(v["x"], 3), round(v["y"], 3))
            b = ("B.Cu", round(v["x"], 3), round(v["y"], 3))
            links[f].add(b)
            links[b].add(f)
    seen = {start}
    todo = [start]
    while todo:
        for nxt in links[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _pad(out: Layout, ref: str, footprint: str, number: str) -> Point:
    x, y, rot = out.placed[ref]
    pad = placed_pads(footprint, x, y, rot)[number][0]
    return ("F.Cu", round(pad.x, 3), round(pad.y, 3))


def test_every_link_of_the_racks_chain_joins_data_out_to_the_next_data_in(
    racks: tuple[Board, Layout],
) -> None:
    board, out = racks
    leds = {p.nets["3"]: p for p in board.parts if p.lib_id == "LED:SK6812MINI"}
    assert len(leds) == 255
    order = [leds[f"LED_DIN{i + 1}"] for i in range(255)]
    # The chain as the profile runs it: the spares after O15, then seat by seat.
    assert [p.square for p in order[224:228]] == ["O15", "H16", "H17", "A16"]
    for a, b in itertools.pairwise(order):
        net = a.nets["1"]  # DOUT
        assert b.nets["3"] == net
        reached = _joined(out, net, _pad(out, a.ref, a.footprint, "1"))
        assert _pad(out, b.ref, b.footprint, "3") in reached, (a.square, b.square)


def test_the_racks_jumps_cross_rows_16_and_17_on_lanes_of_their_own(
    racks: tuple[Board, Layout],
) -> None:
    out = racks[1]
    jumps = {"LED_DIN226", "LED_DIN227", "LED_DIN228", "LED_DIN235", "LED_DIN242",
             "LED_DIN249"}  # fmt: skip
    lanes: dict[float, set[str]] = defaultdict(set)
    for t in out.tracks:
        across = t["layer"] == "F.Cu" and t["y1"] == t["y2"] and abs(t["x2"] - t["x1"]) > 3.0
        if t["net"] in jumps and across:
            lanes[t["y1"]].add(t["net"])
    assert set().union(*lanes.values()) == jumps
    assert all(len(nets) == 1 for nets in lanes.values())


def test_rows_on_the_racks_board_run_the_way_the_chain_does(
    racks: tuple[Board, Layout],
) -> None:
    board, out = racks
    turned = {p.square: out.placed[p.ref][2] for p in board.parts
              if p.lib_id == "LED:SK6812MINI"}  # fmt: skip
    assert turned["A1"] == turned["A16"] == turned["A17"] == 180  # rightwards
    assert turned["A2"] == 0  # the serpentine's second row runs leftwards


def test_a_chain_with_more_jumps_than_a_row_has_lanes_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board = _board("rfid-15x15-racks-pico")
    monkeypatch.setattr(layout_module, "HOP_LANES", (-7.2, -3.0))
    with pytest.raises(NetlistError, match="row 17 has room for 2 jumps"):
        layout_board(board, square_pitch_mm(board.shape.columns))
