"""The antennas' footprints are the radio design's loops: each copper line is one of the
design's trace segments (the last stopped short of the first corner), at the design's
width, on the design's layer, with the diode's and the end capacitor's pads at the
loop's open corner."""

from __future__ import annotations

import itertools
import json
import math
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.wiring.test_pcb import need_kicad
from wiring.loader import load_profile
from wiring.pcb import antenna as antenna_module
from wiring.pcb.antenna import GAP_MM, antenna_footprint, footprint_name, loop_lines, origin_mm
from wiring.pcb.library import kicad_cli
from wiring.pcb.project import RULES, SYSTEM_PYTHON
from wiring.pcb.sexpr import child, children, parse
from wiring.rf.design import RadioDesign, design


@pytest.fixture(scope="module")
def radio() -> RadioDesign:
    return design(load_profile("rfid-15x15-racks-pico"))


@pytest.mark.parametrize("name", ["R1", "R17", "C1", "C15"])
def test_a_loops_copper_is_its_designed_trace(radio: RadioDesign, name: str) -> None:
    a = radio.antenna(name)
    tree = parse(antenna_footprint(a))
    assert str(tree[1]) == footprint_name(a)
    x0, y0 = origin_mm(a)
    lines = loop_lines(a)
    assert len(lines) == len(a.segments) == 4
    for (sx, sy, _ex, _ey), seg in zip(lines, a.segments, strict=True):
        assert (sx + x0, sy + y0) == pytest.approx((seg.start[0] * 1e3, seg.start[1] * 1e3))
    centre = sum(math.dist(ln[:2], ln[2:]) for ln in lines)
    designed = sum(s.length * 1e3 for s in a.segments)
    assert centre == pytest.approx(designed - GAP_MM, abs=1e-3)
    (poly,) = children(tree, "fp_poly")
    on, pts = child(poly, "layer"), child(poly, "pts")
    assert on is not None and pts is not None
    assert str(on[1]) == {"L1": "F.Cu", "L2": "In1.Cu"}[a.layer]
    xy = [(float(str(p[1])), float(str(p[2]))) for p in children(pts, "xy")]
    area = abs(sum(ax * by - bx * ay for (ax, ay), (bx, by) in itertools.pairwise([*xy, xy[0]])))
    width = a.segments[0].width * 1e3
    assert area / 2 == pytest.approx(centre * width, rel=1e-6)  # a mitred band, 1 mm wide
    # A row runs along the columns, 7 mm across (trace centre to centre).
    xs = [v for ln in lines for v in (ln[0], ln[2])]
    ys = [v for ln in lines for v in (ln[1], ln[3])]
    long_side, across = (max(xs) - min(xs), max(ys) - min(ys))
    if a.axis == "column":
        long_side, across = across, long_side
    assert across == pytest.approx(7.0)
    assert long_side == pytest.approx(a.squares * radio.pitch * 1e3 + 3.0 + 1.0)
    assert min(p[0] for p in xy) == pytest.approx(min(xs) - width / 2)


def test_the_pads_stand_at_the_open_corner_and_tie_the_loops_two_nets(
    radio: RadioDesign,
) -> None:
    a = radio.antenna("C3")
    tree = parse(antenna_footprint(a))
    pads = {str(p[1]): p for p in children(tree, "pad")}
    assert set(pads) == {"1", "2"}
    at1, at2 = child(pads["1"], "at"), child(pads["2"], "at")
    assert at1 is not None and at2 is not None
    assert (float(str(at1[1])), float(str(at1[2]))) == (0.0, 0.0)
    p2 = (float(str(at2[1])), float(str(at2[2])))
    assert math.dist((0.0, 0.0), p2) == pytest.approx(GAP_MM)
    assert all(str(p[2]) == "thru_hole" for p in pads.values())  # reach L2 from the top
    tie = child(tree, "net_tie_pad_groups")
    assert tie is not None and str(tie[1]) == "1,2"


def test_kicad_finds_the_loops_clean_on_a_4_layer_board(radio: RadioDesign, tmp_path: Path) -> None:
    """A row loop (top) and a column loop (first inner layer) crossing it, each with
    its two nets on its pads: KiCad's DRC finds no short and nothing unconnected."""
    need_kicad()
    pretty = tmp_path / "tabletop.pretty"
    pretty.mkdir()
    footprints: list[dict[str, Any]] = []
    for a in (radio.antenna("R2"), radio.antenna("C2")):
        (pretty / f"{footprint_name(a)}.kicad_mod").write_text(antenna_footprint(a))
        x, y = origin_mm(a)
        footprints.append({
            "library": str(pretty), "lib_nick": "tabletop", "name": footprint_name(a),
            "ref": f"ANT_{a.name}", "value": a.name, "x": x + 20, "y": y + 20, "rotation": 0,
            "pads": {"1": a.net_start, "2": a.net_end},
        })  # fmt: skip
    board = tmp_path / "loops.kicad_pcb"
    plan = {"board": str(board), "sheetfile": "", "rules": RULES, "copper_layers": 4,
            "nets": sorted({n for f in footprints for n in f["pads"].values()}),
            "footprints": footprints, "tracks": [], "vias": [],
            "outline": [0, 0, 420, 420], "texts": [], "zones": []}  # fmt: skip
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    builder = Path(antenna_module.__file__).with_name("pcbnew_build.py")
    subprocess.run([SYSTEM_PYTHON, str(builder), str(tmp_path / "plan.json")], check=True,
                   cwd=tmp_path, capture_output=True)  # fmt: skip
    report = tmp_path / "drc.json"
    subprocess.run([kicad_cli(), "pcb", "drc", "--format", "json", "-o", str(report), str(board)],
                   check=False, capture_output=True)  # fmt: skip
    found = json.loads(report.read_text())
    errors = [v["type"] for v in found["violations"] if v["severity"] == "error"]
    assert errors == [] and found["unconnected_items"] == []
    text = board.read_text()
    assert '(layer "In1.Cu")' in text and '(layer "F.Cu")' in text
