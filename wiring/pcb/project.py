"""``tabletop pcb PROFILE DIR [--fab]``: a Pico board's KiCad 9 project, made by code.

Writes DIR/PROFILE.kicad_pro (with the design rules), .kicad_sch (wiring.pcb.schematic),
.kicad_pcb (placed by this module on the board's square grid and built by KiCad's own
pcbnew module in Debian's system python3), the project's library tables and its own
footprint library (tabletop.pretty); checks the schematic with ``kicad-cli sch erc``
and the board with ``kicad-cli pcb drc --schematic-parity``; with ``--fab`` writes
under DIR/fab/ the Gerbers, the drill files, the placement (CPL) file, a PDF of the
schematic, the BOM from the schematic and pictures of both sides.

The process the rules name: a common 2-layer FR-4 board, 1.6 mm thick, 1 oz (35 µm)
copper both sides, tracks and gaps 0.2 mm or more, holes 0.3 mm or more, vias 0.6 mm
with a 0.3 mm hole (0.15 mm annular ring), copper 0.5 mm from the board's edge; each
with margin over what budget 2-layer fabs make (0.127 mm tracks, 0.2-0.3 mm holes).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from msgspec import Struct

from wiring.bom import PieceSets, bill_of_materials
from wiring.errors import NetlistError
from wiring.leds_power import square_pitch_mm
from wiring.pcb.circuit import Board, build_board
from wiring.pcb.footprints import REED_NAME, reed_footprint
from wiring.pcb.layout import layout_board
from wiring.pcb.library import (
    INSTALL_KICAD,
    KICAD_SHARE,
    OWN_LIBRARY,
    kicad_cli,
    own_library_text,
    require_libraries,
)
from wiring.pcb.schematic import write_schematic
from wiring.profile import Profile

SYSTEM_PYTHON = os.environ.get("TABLETOP_PCBNEW_PYTHON", "/usr/bin/python3")
RULES = {"clearance": 0.2, "track": 0.2, "via": 0.6, "drill": 0.3, "annular": 0.15,
         "edge": 0.5, "thickness": 1.6}  # fmt: skip


class Checks(Struct, frozen=True):
    """What kicad-cli found."""

    erc_errors: int
    erc_warnings: int
    drc_errors: int
    drc_warnings: int
    unconnected: int
    parity: int
    width_mm: float
    height_mm: float
    parts: int
    nets: int


def _holes(outline: tuple[float, ...]) -> list[dict[str, Any]]:
    x0, y0, x1, y1 = outline
    library = str(KICAD_SHARE / "footprints" / "MountingHole.pretty")
    return [
        {"library": library, "lib_nick": "MountingHole", "name": "MountingHole_3.2mm_M3",
         "ref": f"H{i + 1}", "value": "M3", "x": x, "y": y, "rotation": 0, "pads": {},
         "board_only": True}
        for i, (x, y) in enumerate(((x0 + 4.5, y0 + 4.5), (x1 - 4.5, y0 + 4.5),
                                    (x0 + 4.5, y1 - 4.5), (x1 - 4.5, y1 - 4.5)))
    ]  # fmt: skip


def _tables(directory: Path, board: Board) -> None:
    """The project's library tables (KiCad's libraries by KiCad's own path variables,
    so the project opens on any KiCad 9) and its own footprint library."""
    libs = sorted({p.lib_id.split(":", 1)[0] for p in board.parts} | {"power"})
    sym = ["(sym_lib_table", "  (version 7)"]
    for lib in libs:
        uri = (f"${{KIPRJMOD}}/{lib}.kicad_sym" if lib == OWN_LIBRARY
               else f"${{KICAD9_SYMBOL_DIR}}/{lib}.kicad_sym")  # fmt: skip
        sym.append(f'  (lib (name "{lib}")(type "KiCad")(uri "{uri}")(options "")(descr ""))')
    (directory / "sym-lib-table").write_text("\n".join([*sym, ")"]) + "\n", encoding="utf-8")
    fps = sorted({p.footprint.split(":", 1)[0] for p in board.parts} | {"MountingHole"})
    fp = ["(fp_lib_table", "  (version 7)"]
    for lib in fps:
        uri = ("${KIPRJMOD}/tabletop.pretty" if lib == "tabletop"
               else f"${{KICAD9_FOOTPRINT_DIR}}/{lib}.pretty")  # fmt: skip
        fp.append(f'  (lib (name "{lib}")(type "KiCad")(uri "{uri}")(options "")(descr ""))')
    (directory / "fp-lib-table").write_text("\n".join([*fp, ")"]) + "\n", encoding="utf-8")
    pretty = directory / "tabletop.pretty"
    pretty.mkdir(exist_ok=True)
    (pretty / f"{REED_NAME}.kicad_mod").write_text(reed_footprint(), encoding="utf-8")
    for fp_name, text in board.footprints.items():
        (pretty / f"{fp_name}.kicad_mod").write_text(text, encoding="utf-8")
    own = sorted({p.lib_id.split(":", 1)[1] for p in board.parts
                  if p.lib_id.startswith(OWN_LIBRARY + ":")})  # fmt: skip
    if own:
        (directory / f"{OWN_LIBRARY}.kicad_sym").write_text(own_library_text(own),
                                                            encoding="utf-8")  # fmt: skip


def _project_file(directory: Path, name: str) -> None:
    pro = {
        "meta": {"filename": f"{name}.kicad_pro", "version": 3},
        "board": {"design_settings": {"rules": {
            "min_clearance": RULES["clearance"], "min_track_width": RULES["track"],
            "min_via_diameter": RULES["via"], "min_through_hole_diameter": RULES["drill"],
            "min_via_annular_width": RULES["annular"],
            "min_copper_edge_clearance": RULES["edge"], "min_hole_to_hole": 0.25,
            "min_hole_clearance": 0.25, "min_silk_clearance": 0.0,
        }}},
        "net_settings": {"classes": [{
            "name": "Default", "clearance": RULES["clearance"], "track_width": 0.25,
            "via_diameter": RULES["via"], "via_drill": RULES["drill"],
        }], "meta": {"version": 4}},
    }  # fmt: skip
    (directory / f"{name}.kicad_pro").write_text(json.dumps(pro, indent=2) + "\n", encoding="utf-8")


def _run(args: list[str], what: str) -> subprocess.CompletedProcess[str]:
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=600, check=False)
    except FileNotFoundError:
        raise NetlistError(f"{what}: {args[0]} is missing: " + INSTALL_KICAD) from None
    if done.returncode != 0 and "drc" not in args and "erc" not in args:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["(no output)"]
        raise NetlistError(f"{what} failed: {last[0]}")
    return done


def _counts(report: Path, kind: str) -> tuple[int, int, int, int]:
    data = json.loads(report.read_text(encoding="utf-8"))
    if kind == "erc":
        found = [v for sheet in data.get("sheets", []) for v in sheet.get("violations", [])]
        return (sum(v["severity"] == "error" for v in found),
                sum(v["severity"] == "warning" for v in found), 0, 0)  # fmt: skip
    found = data.get("violations", [])
    return (
        sum(v["severity"] == "error" for v in found),
        sum(v["severity"] == "warning" for v in found),
        len(data.get("unconnected_items", [])),
        len(data.get("schematic_parity", [])),
    )


def make_project(profile: Profile, pieces: PieceSets, directory: Path, fab: bool) -> Checks:
    """Write the KiCad project of ``profile`` into ``directory``; check it."""
    require_libraries()
    cli = kicad_cli()
    if not Path(SYSTEM_PYTHON).is_file():
        raise NetlistError(f"{SYSTEM_PYTHON} (with KiCad's pcbnew module) is missing: "
                           + INSTALL_KICAD)  # fmt: skip
    board = build_board(profile, bill_of_materials(profile, pieces))
    directory = directory.resolve()
    directory.mkdir(parents=True, exist_ok=True)
    name = profile.name
    _tables(directory, board)
    _project_file(directory, name)
    sch = write_schematic(board, directory, name)
    pitch = square_pitch_mm(board.shape.columns)
    layout = layout_board(board, pitch)
    outline = layout.outline
    for fp in layout.footprints:
        fp["library"] = fp["library"].replace("{share}", str(KICAD_SHARE))
    pcb = directory / f"{name}.kicad_pcb"
    title = {"text": f"{board.name} sensor board, tabletop pcb", "x": 40.0, "y": 4.0,
             "size": 1.5}  # fmt: skip
    plan = {
        "board": str(pcb), "sheetfile": sch.name, "rules": RULES,
        "nets": sorted({n for fp in layout.footprints for n in fp["pads"].values() if n}),
        "footprints": [*layout.footprints, *_holes(outline)],
        "tracks": [t | {"net": f"/{t['net']}"} for t in layout.tracks],
        "vias": [v | {"net": f"/{v['net']}"} for v in layout.vias],
        "outline": list(outline), "texts": [*layout.texts, title], "zones": [],
    }  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        plan_path = Path(tmp) / "plan.json"
        plan_path.write_text(json.dumps(plan), encoding="utf-8")
        builder = Path(__file__).with_name("pcbnew_build.py")
        env_home = _kicad_home(Path(tmp))
        done = subprocess.run([SYSTEM_PYTHON, str(builder), str(plan_path)],
                              capture_output=True, text=True, timeout=600, check=False,
                              env=env_home, cwd=directory)  # fmt: skip
        if done.returncode != 0:
            lines = (done.stderr or done.stdout).strip().splitlines()
            if any("No module named 'pcbnew'" in line for line in lines):
                raise NetlistError(f"{SYSTEM_PYTHON} cannot import KiCad's pcbnew: "
                                   + INSTALL_KICAD)  # fmt: skip
            raise NetlistError("building the PCB failed: " + (lines[-1] if lines else "?"))
        erc = Path(tmp) / "erc.json"
        drc = Path(tmp) / "drc.json"
        _run([cli, "sch", "erc", "--format", "json", "-o", str(erc), str(sch)], "ERC")
        _run([cli, "pcb", "drc", "--schematic-parity", "--format", "json", "-o", str(drc),
              str(pcb)], "DRC")  # fmt: skip
        erc_e, erc_w, _, _ = _counts(erc, "erc")
        drc_e, drc_w, unconnected, parity = _counts(drc, "drc")
        shutil.copy(erc, directory / "erc.json")
        shutil.copy(drc, directory / "drc.json")
    if fab:
        write_fab(cli, directory, name)
    x0, y0, x1, y1 = outline
    return Checks(erc_e, erc_w, drc_e, drc_w, unconnected, parity, x1 - x0, y1 - y0,
                  len(board.parts), len(board.nets()))  # fmt: skip


def _kicad_home(tmp: Path) -> dict[str, str]:
    """The environment for KiCad: its own config folder, so no user settings leak in."""
    env = dict(os.environ)
    env.setdefault("KICAD_CONFIG_HOME", str(tmp / "kicad-config"))
    return env


def write_fab(cli: str, directory: Path, name: str) -> list[Path]:
    """Gerbers, drill, CPL, schematic PDF, BOM and pictures under DIR/fab/."""
    fab = directory / "fab"
    gerbers = fab / "gerbers"
    gerbers.mkdir(parents=True, exist_ok=True)
    pcb = str(directory / f"{name}.kicad_pcb")
    sch = str(directory / f"{name}.kicad_sch")
    layers = "F.Cu,B.Cu,F.Paste,B.Paste,F.SilkS,B.SilkS,F.Mask,B.Mask,Edge.Cuts"
    _run([cli, "pcb", "export", "gerbers", "--layers", layers, "-o", f"{gerbers}/", pcb],
         "Gerbers")  # fmt: skip
    _run([cli, "pcb", "export", "drill", "--format", "excellon", "--generate-map",
          "--map-format", "pdf", "-o", f"{gerbers}/", pcb], "drill files")  # fmt: skip
    _run([cli, "pcb", "export", "pos", "--format", "csv", "--units", "mm", "--side", "both",
          "-o", str(fab / f"{name}-cpl.csv"), pcb], "placement file")  # fmt: skip
    _run([cli, "sch", "export", "pdf", "-o", str(fab / f"{name}-schematic.pdf"), sch],
         "schematic PDF")  # fmt: skip
    _run([cli, "sch", "export", "bom", "--fields",
          "Reference,Value,Footprint,Manufacturer,MPN,Mouser,${QUANTITY}",
          "--labels", "Refs,Value,Footprint,Manufacturer,MPN,Mouser,Qty",
          "--group-by", "MPN,Value,Footprint", "--exclude-dnp",
          "-o", str(fab / f"{name}-bom.csv"), sch], "BOM")  # fmt: skip
    for side in ("top", "bottom"):
        _run([cli, "pcb", "render", "--side", side, "--width", "1200", "--height", "1200",
              "--quality", "basic", "-o", str(fab / f"{name}-{side}.png"), pcb],
             f"the {side} picture")  # fmt: skip
    return sorted(fab.rglob("*"))
