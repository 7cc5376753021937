"""The KiCad 9 projects ``tabletop pcb`` writes: KiCad's own checks pass on them (ERC;
DRC with schematic parity: 0 errors, 0 unconnected items), the fab files are written,
and KiCad's BOM of the schematic is ``tabletop bom``'s PCB section.

These drive kicad-cli and KiCad's pcbnew module (Debian's kicad 9 from
bookworm-backports): skipped where KiCad is missing, failed under CI=true."""

from __future__ import annotations

import csv
import io
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.kits import piece_sets
from wiring.bom import bill_of_materials
from wiring.loader import load_profile
from wiring.pcb import library
from wiring.pcb.circuit import build_board
from wiring.pcb.footprints import MDSR_7
from wiring.pcb.geometry import outline

HAVE_KICAD = (
    shutil.which("kicad-cli") is not None
    and Path("/usr/bin/python3").is_file()
    and (library.KICAD_SHARE / "symbols" / "Device.kicad_sym").is_file()
)


def need_kicad() -> None:
    if HAVE_KICAD:
        return
    if os.environ.get("CI") == "true":
        pytest.fail("KiCad 9 (kicad-cli, pcbnew, kicad-symbols, kicad-footprints) is missing")
    pytest.skip("KiCad 9 is not installed")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    need_kicad()
    directory = tmp_path_factory.mktemp("pcb") / "double-take-pico"
    out = io.StringIO()
    code = main(["pcb", "double-take-pico", str(directory), "--fab"], out)
    assert code == 0, out.getvalue()
    return directory, out.getvalue()


def test_kicad_finds_no_error_and_nothing_unconnected(made: tuple[Path, str]) -> None:
    _directory, report = made
    assert "ERC: 0 errors" in report
    assert "DRC: 0 errors, 0 unconnected items, 0 schematic parity problems" in report


def test_the_fab_files_are_written(made: tuple[Path, str]) -> None:
    fab = made[0] / "fab"
    names = {p.name for p in fab.rglob("*")}
    for layer in ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_Silkscreen", "Edge_Cuts"):
        assert any(n.endswith(f"-{layer}.g" + n.rsplit(".g", 1)[-1]) for n in names), layer
    assert any(n.endswith(".drl") for n in names)
    for name in ("double-take-pico-cpl.csv", "double-take-pico-schematic.pdf",
                 "double-take-pico-bom.csv", "double-take-pico-top.png",
                 "double-take-pico-bottom.png"):  # fmt: skip
        assert (fab / name).stat().st_size > 0, name
    cpl = list(csv.DictReader(io.StringIO((fab / "double-take-pico-cpl.csv").read_text())))
    assert sum(1 for row in cpl if row["Ref"].startswith("SW")) == 72


def test_kicads_bom_is_the_pcb_section_of_tabletop_bom(made: tuple[Path, str]) -> None:
    rows = list(csv.DictReader(io.StringIO(
        (made[0] / "fab" / "double-take-pico-bom.csv").read_text(encoding="utf-8")
    )))  # fmt: skip
    kicad: Counter[str] = Counter()
    for row in rows:
        kicad[row["MPN"]] += int(row["Qty"])
    profile = load_profile("double-take-pico")
    ours: Counter[str] = Counter()
    for line in bill_of_materials(profile, piece_sets()):
        if line.section == "pcb":
            ours[line.reference] += line.qty
    assert kicad == ours
    mouser = {row["MPN"]: row["Mouser"] for row in rows}
    assert mouser["SN74HC595N"] == "595-SN74HC595N"


def test_every_footprint_resolves_in_kicads_libraries_or_the_projects(
    made: tuple[Path, str],
) -> None:
    need_kicad()
    profile = load_profile("double-take-pico")
    board = build_board(profile, bill_of_materials(profile, piece_sets()))
    own = made[0] / "tabletop.pretty"
    for part in board.parts:
        lib, name = part.footprint.split(":", 1)
        if lib == "tabletop":
            assert (own / f"{name}.kicad_mod").is_file()
        else:
            assert library.footprint_file(part.footprint).is_file(), part.footprint


def test_the_reed_footprint_is_the_data_sheets_glass_with_bent_leads() -> None:
    # MDSR-7 data sheet, Dimensions: glass 12.70 mm max, 1.80 mm across, leads 0.47 mm.
    assert (MDSR_7.glass_mm, MDSR_7.glass_dia_mm, MDSR_7.lead_dia_mm) == (12.70, 1.80, 0.47)
    pads = {p.number: p for p in outline("tabletop:Reed_MDSR-7_P17.78mm").pads}
    assert set(pads) == {"1", "2"}
    assert pads["2"].x - pads["1"].x == pytest.approx(12.70 + 2 * 2.54)
    assert all(p.through and p.w > 0.47 + 0.6 for p in pads.values())


def test_a_gpio_board_gets_one_line_saying_it_needs_no_pcb(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["pcb", "double-take-gpio", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs no PCB" in err


def test_without_kicads_libraries_pcb_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(library, "KICAD_SHARE", tmp_path / "nowhere")
    assert main(["pcb", "double-take-pico", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "apt-get install" in err and "kicad-symbols" in err


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    ["occupancy-15x15-pico", "rfid-15x15-pico", "doubles-wild-rfid-pico", "rfid-15x15-racks-pico"],
)
def test_every_other_pico_board_passes_kicads_checks(name: str, tmp_path: Path) -> None:
    need_kicad()
    out = io.StringIO()
    assert main(["pcb", name, str(tmp_path / name)], out) == 0, out.getvalue()
    assert "DRC: 0 errors, 0 unconnected items, 0 schematic parity problems" in out.getvalue()


def test_the_docs_table_gives_the_board_as_made(made: tuple[Path, str]) -> None:
    doc = (Path(__file__).parents[2] / "docs/hardware.md").read_text(encoding="utf-8")
    first = made[1].splitlines()[0]
    # "KiCad project of P written to D: N parts, M nets, a W × H mm 2-layer board"
    parts, nets = first.split(": ", 1)[1].split(", ")[:2]
    size = first.rsplit(", a ", 1)[1].split(" mm")[0].replace(" × ", " × ")
    row = (
        f"| `double-take-pico` | {parts.split()[0]} | {nets.split()[0]} | {size} | 2 | 0 | 0 | 0 "
        "| 0 |"
    )
    assert row in doc
