"""The RFID boards' radio as PCB parts: the own TPIC6B595 symbol is its data sheet's
pin-out, KiCad's TPS61040 symbol is that data sheet's, every value is the radio
design's, and the schematic with the radio passes KiCad's ERC."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from firmware_bridge.kits import piece_sets
from wiring.bom import bill_of_materials
from wiring.loader import load_profile
from wiring.pcb import library, project
from wiring.pcb.circuit import build_board
from wiring.pcb.parts import own_part, tpic6b595_pins
from wiring.pcb.radio import BOOST, SELECT_DRIVER, profile_radio, radio_parts
from wiring.pcb.schematic import write_schematic
from wiring.rf.design import design, feedback_divider

# The TPIC6B595's pins as its data sheet's DW/N package figure draws them (TI SLIS032B,
# section 5, top view), typed out here apart from the part's table.
DATASHEET_TPIC6B595 = {
    1: "NC", 2: "VCC", 3: "SER IN", 8: "SRCLR", 9: "G", 10: "GND", 11: "GND", 12: "RCK",
    13: "SRCK", 18: "SER OUT", 19: "GND", 20: "NC",
    **{4 + k: f"DRAIN{k}" for k in range(4)},
    **{14 + k: f"DRAIN{4 + k}" for k in range(4)},
}  # fmt: skip

# TPS61040's DBV (SOT-23-5) pins, its data sheet's Pin Functions table (TI SLVS413I,
# section 5): SW 1, GND 2, FB 3, EN 4, VIN 5.
DATASHEET_TPS61040_DBV = {"1": "SW", "2": "GND", "3": "FB", "4": "EN", "5": "VIN"}

HAVE_KICAD = (
    shutil.which("kicad-cli") is not None
    and (library.KICAD_SHARE / "symbols" / "Device.kicad_sym").is_file()
)


def test_the_tpic6b595_table_is_the_data_sheets() -> None:
    assert {n: name for n, name, _kind in tpic6b595_pins()} == DATASHEET_TPIC6B595
    _pins, footprint, source = own_part("TPIC6B595")
    assert footprint.startswith("Package_SO:SOIC-20W") and "SLIS032B" in source


def test_the_own_symbol_has_every_pin_of_the_table_once() -> None:
    sym = library.symbol(SELECT_DRIVER)
    assert {int(p.number): p.name for p in sym.pins} == {
        n: name.replace(" ", "_") for n, name in DATASHEET_TPIC6B595.items()
    }
    assert sym.pin("SER_OUT").kind == "output" and sym.pin("DRAIN3").kind == "open_collector"
    assert all(round(p.y / 2.54, 6).is_integer() for p in sym.pins)  # on the grid


def test_kicads_tps61040_is_the_data_sheets_pin_out() -> None:
    if not HAVE_KICAD:
        pytest.skip("KiCad's libraries are not installed")
    sym = library.symbol(BOOST)
    assert {p.number: p.name for p in sym.pins} == DATASHEET_TPS61040_DBV


def test_every_radio_value_is_the_designs() -> None:
    profile = load_profile("doubles-wild-rfid-pico")
    radio = design(profile)
    parts = radio_parts(radio)
    by_ref = {p.design_ref: p for p in parts}
    assert by_ref["R_FEED"].value == "1.5k"
    r1, r2 = feedback_divider()
    assert (by_ref["R_FB1"].value, by_ref["R_FB2"].value) == ("1.8M", f"{r2 / 1e3:g}k")
    assert r1 == 1.8e6
    ends, middle = radio.emc_caps
    emc = Counter(p.value for p in parts if p.design_ref.startswith("C_EMC"))
    assert sum(emc.values()) == 2 * len(ends) + len(middle)
    assert by_ref["C_EMC2_1"].value == f"{middle[0] * 1e12:g}pF"
    loops = [p for p in parts if p.prefix == "AE"]
    assert len(loops) == len(radio.antennas) == radio.rows + radio.columns
    diodes = [p for p in parts if p.value == "BAR67-02V"]
    assert {p.pins["K"] for p in diodes} == {a.net_start for a in radio.antennas}
    assert all(p.pins["A"] == "RF_BUS" for p in diodes)
    drivers = [p for p in parts if p.lib_id == SELECT_DRIVER]
    drains = {n for p in drivers for k, n in p.pins.items() if k.startswith("DRAIN") and n}
    assert drains == {a.net_end for a in radio.antennas}
    assert "U_RF" not in by_ref  # the reader's site is a header until its symbol exists


def test_the_radio_replaces_the_readers_header_and_drives_the_chain_at_5v() -> None:
    profile = load_profile("rfid-15x15-pico")
    board = build_board(profile, bill_of_materials(profile, piece_sets()), radio=True)
    nets = board.nets()
    assert not any(p.value == "to the reader's board" for p in board.parts)
    assert len({r for r, _ in nets["RF_BUS"] if r.startswith("D")}) == 30
    buffer = next(p for p in board.parts if p.value == "74AHCT125")
    assert {buffer.nets[y] for y in ("6", "8", "11")} == {"SEL_SER", "SEL_CLK", "SEL_LATCH"}
    # the firmware's ANTENNA_SER, ANTENNA_SRCK and ANTENNA_RCK: GP27, GP28, GP21
    pico = next(p for p in board.parts if p.lib_id == "MCU_Module:RaspberryPi_Pico")
    sym = pico.sym
    assert pico.nets[sym.pin("GPIO27_ADC1").number] == "SEL_SER_3V3"
    assert pico.nets[sym.pin("GPIO28_ADC2").number] == "SEL_CLK_3V3"
    assert pico.nets[sym.pin("GPIO21").number] == "SEL_LATCH_3V3"
    assert not any(n.startswith("ANT_SEL") for n in nets)
    assert len(board.footprints) == 30
    radio_count = len(profile_radio(profile))
    plain = build_board(profile, bill_of_materials(profile, piece_sets()))
    # the radio's parts come in where the 2x9 header goes out (one reader-site header)
    assert len(board.parts) == len(plain.parts) + radio_count


@pytest.mark.slow
def test_the_schematic_with_the_radio_passes_kicads_erc(tmp_path: Path) -> None:
    if not HAVE_KICAD:
        pytest.skip("KiCad 9 is not installed")
    profile = load_profile("doubles-wild-rfid-pico")
    board = build_board(profile, bill_of_materials(profile, piece_sets()), radio=True)
    project._tables(tmp_path, board)
    project._project_file(tmp_path, profile.name)
    sch = write_schematic(board, tmp_path, profile.name)
    assert (tmp_path / "tabletop.kicad_sym").is_file()
    assert (tmp_path / "tabletop.pretty" / "Loop_C9.kicad_mod").is_file()
    report = tmp_path / "erc.json"
    subprocess.run([library.kicad_cli(), "sch", "erc", "--format", "json", "-o", str(report),
                    str(sch)], capture_output=True, check=False, timeout=600)  # fmt: skip
    found = [v for s in json.loads(report.read_text())["sheets"] for v in s["violations"]]
    assert [v["description"] for v in found if v["severity"] == "error"] == []
