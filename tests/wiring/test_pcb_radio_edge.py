"""The radio's edge laid out by rule (wiring.pcb.radio_edge): every loop where the
design puts it, the RF bus and its return along the left and top edges, each antenna's
diode, far-end capacitors and pull-up at its loop's open corner, and KiCad's DRC finding
the whole of it clean and fully connected on a 4-layer board."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.wiring.test_pcb import need_kicad
from wiring.loader import load_profile
from wiring.pcb import radio_edge
from wiring.pcb.antenna import antenna_footprint, footprint_name
from wiring.pcb.library import KICAD_SHARE, kicad_cli
from wiring.pcb.project import RULES, SYSTEM_PYTHON
from wiring.pcb.radio_edge import BUS_U, RETURN_U, lay_out_edge
from wiring.rf import bus
from wiring.rf.design import RadioDesign, design

X0 = Y0 = 25.0


def _radio(name: str) -> RadioDesign:
    return design(load_profile(name))


def test_every_antenna_gets_its_loop_diode_capacitors_and_pull_up() -> None:
    radio = _radio("rfid-15x15-racks-pico")
    edge = lay_out_edge(radio, X0, Y0)
    refs = Counter(part.ref.split("_")[0] for part, *_ in edge.parts)
    caps = sum(len(a.c_end) for a in radio.antennas)
    assert refs == {"AE": 32, "D": 32, "C": caps, "R": 32}
    for a in radio.antennas:
        (diode,) = [p for p, *_ in edge.parts if p.ref == f"D_{a.name}"]
        assert sorted(diode.pads.values()) == sorted(["RF_BUS", a.net_start])
        ends = [p for p, *_ in edge.parts if a.net_end in p.pads.values()]
        assert len(ends) == 2 + len(a.c_end)  # the loop, its capacitors, its pull-up


def test_the_bus_runs_where_the_design_models_it() -> None:
    radio = _radio("rfid-15x15-pico")
    edge = lay_out_edge(radio, X0, Y0)
    assert pytest.approx(-(3.0 + bus.OFFSET_M * 1e3)) == BUS_U
    assert pytest.approx((bus.WIDTH_M + bus.GAP_M) * 1e3) == BUS_U - RETURN_U
    strips = [t for t in edge.tracks if t["net"] == "RF_BUS" and t["width"] == 2.0]
    assert len(strips) == 2 and all(t["layer"] == "F.Cu" for t in strips)
    down = next(t for t in strips if t["x1"] == t["x2"])
    # From the corner to the last row's tap: as long as R15's feed.
    assert down["y2"] - down["y1"] == pytest.approx(radio.antenna("R15").feed * 1e3)
    bias = [t for t in edge.tracks if t["net"] == "VBIAS" and t["layer"] == "In2.Cu"]
    assert len(bias) == 2
    # Nothing runs under the strips but ground stubs crossing them.
    under = [t for t in edge.tracks if t["layer"] != "F.Cu" and t["y1"] != t["y2"]
             and t["x1"] == t["x2"] and RETURN_U - 1 < t["x1"] - X0 < BUS_U + 1]  # fmt: skip
    assert under == []


def _plan(radio: RadioDesign, tmp: Path) -> dict[str, Any]:
    pretty = tmp / "tabletop.pretty"
    pretty.mkdir()
    for a in radio.antennas:
        (pretty / f"{footprint_name(a)}.kicad_mod").write_text(antenna_footprint(a))
    edge = lay_out_edge(radio, X0, Y0)
    footprints = []
    for part, x, y, rotation in edge.parts:
        nick, name = part.footprint.split(":")
        library = str(pretty) if nick == "tabletop" else f"{KICAD_SHARE}/footprints/{nick}.pretty"
        footprints.append({"library": library, "lib_nick": nick, "name": name, "ref": part.ref,
                           "value": part.ref, "x": round(x, 4), "y": round(y, 4),
                           "rotation": rotation, "pads": part.pads})  # fmt: skip
    nets = {n for f in footprints for n in f["pads"].values()} | {t["net"] for t in edge.tracks}
    width = X0 + radio.columns * radio.pitch * 1e3 + 6
    height = Y0 + radio.rows * radio.pitch * 1e3 + 6
    return {"board": str(tmp / "edge.kicad_pcb"), "sheetfile": "", "rules": RULES,
            "copper_layers": 4, "nets": sorted(nets), "footprints": footprints,
            "tracks": edge.tracks, "vias": edge.vias, "outline": [0, 0, width, height],
            "texts": [], "zones": []}  # fmt: skip


@pytest.mark.parametrize(
    "name",
    ["doubles-wild-rfid-pico",
     pytest.param("rfid-15x15-racks-pico", marks=pytest.mark.slow)],
)  # fmt: skip
def test_kicad_finds_the_edge_clean_and_connected(name: str, tmp_path: Path) -> None:
    need_kicad()
    plan = _plan(_radio(name), tmp_path)
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    builder = Path(radio_edge.__file__).with_name("pcbnew_build.py")
    subprocess.run([SYSTEM_PYTHON, str(builder), str(tmp_path / "plan.json")], check=True,
                   cwd=tmp_path, capture_output=True)  # fmt: skip
    report = tmp_path / "drc.json"
    subprocess.run([kicad_cli(), "pcb", "drc", "--format", "json", "-o", str(report),
                    plan["board"]], check=False, capture_output=True)  # fmt: skip
    found = json.loads(report.read_text())
    errors = [(v["type"], v["description"]) for v in found["violations"]
              if v["severity"] == "error"]  # fmt: skip
    dangling = [v for v in found["violations"] if v["type"] == "track_dangling"]
    assert errors == [] and dangling == [] and found["unconnected_items"] == []
    text = Path(plan["board"]).read_text()
    for layer in ("F.Cu", "In1.Cu", "In2.Cu", "B.Cu"):
        assert f'(layer "{layer}")' in text
