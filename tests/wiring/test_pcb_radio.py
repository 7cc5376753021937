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
from wiring.pcb.radio import (
    BOOST,
    ENABLE_BUFFER,
    ENABLE_FP,
    SELECT_DRIVER,
    profile_radio,
    radio_parts,
    select_drivers,
)
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

# SN74AHCT1G125's DBV (SOT-23-5) pins, its data sheet's pin figure (TI SCLS378P,
# section 4): OE 1 (active low), A 2, GND 3, Y 4, VCC 5.
DATASHEET_AHCT1G125_DBV = {"1": "OE", "2": "A", "3": "GND", "4": "Y", "5": "VCC"}

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


def test_kicads_74ahct1g125_is_the_data_sheets_pin_out() -> None:
    if not HAVE_KICAD:
        pytest.skip("KiCad's libraries are not installed")
    pins = {p.number: p for p in library.symbol(ENABLE_BUFFER).pins}
    assert set(pins) == set(DATASHEET_AHCT1G125_DBV)
    assert (pins["3"].name, pins["5"].name) == ("GND", "VCC")
    assert {n: p.kind for n, p in pins.items() if n in ("1", "2", "4")} == {
        "1": "input", "2": "input", "4": "tri_state"
    }  # fmt: skip
    fp = library.KICAD_SHARE / "footprints" / "Package_TO_SOT_SMD.pretty" / "SOT-23-5.kicad_mod"
    assert ENABLE_FP == "Package_TO_SOT_SMD:SOT-23-5" and fp.is_file()


@pytest.mark.parametrize("name", ["rfid-15x15-pico", "doubles-wild-rfid-pico"])
def test_gp14_reaches_every_tpic6b595s_g_through_the_buffer_only_when_driven_low(
    name: str,
) -> None:
    profile = load_profile(name)
    board = build_board(profile, bill_of_materials(profile, piece_sets()), radio=True)
    nets = board.nets()
    by_ref = {p.ref: p for p in board.parts}
    pico = next(p for p in board.parts if p.lib_id == "MCU_Module:RaspberryPi_Pico")
    gp14 = pico.nets[pico.sym.pin("GPIO14").number]
    (buffer,) = [p for p in board.parts if p.lib_id == ENABLE_BUFFER]
    # GP14 works the buffer's ~OE; A is tied low, so Y only ever pulls G low
    assert (buffer.nets["1"], buffer.nets["2"], buffer.nets["3"]) == (gp14, "GND", "GND")
    assert buffer.nets["5"] == "+5V"
    g = buffer.nets["4"]
    drivers = [p for p in board.parts if p.lib_id == SELECT_DRIVER]
    assert len(drivers) == select_drivers(design(profile)) > 1
    assert {p.nets[p.sym.pin("G").number] for p in drivers} == {g}
    # on G only the TPIC6B595s' inputs, the buffer and R_OE's pull-up to 5 V
    on_g = {r for r, _ in nets[g]}
    (pull_up,) = [by_ref[r] for r in on_g if r.startswith("R")]
    assert pull_up.value == "10k" and set(pull_up.nets.values()) == {g, "+5V"}
    assert on_g == {p.ref for p in drivers} | {buffer.ref, pull_up.ref}
    # GP14's own pull-up to 3V3 keeps the buffer off while the Pico boots
    (gp_pull,) = [by_ref[r] for r, _ in nets[gp14] if r.startswith("R")]
    assert gp_pull.value == "10k" and set(gp_pull.nets.values()) == {gp14, "+3V3"}
    assert {r for r, _ in nets[gp14]} == {pico.ref, buffer.ref, gp_pull.ref}
    # and its 100 nF bypass on the same 5 V
    bypasses = [p for p in board.parts if p.value == "100nF" and set(p.nets.values()) ==
                {"+5V", "GND"} and p.footprint.startswith("Capacitor_SMD")]  # fmt: skip
    assert len(bypasses) == len(drivers) + 1


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
