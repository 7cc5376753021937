"""The bill of materials and power budget of every shipped profile."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.kits import piece_sets
from wiring.bom import bill_of_materials, board_shape, power_budget, reader_chips, totals
from wiring.loader import list_profiles, load_profile


@pytest.mark.parametrize("name", list_profiles())
def test_every_shipped_profile_has_a_bill_with_a_switch_and_diode_per_cell(name: str) -> None:
    profile = load_profile(name)
    lines = bill_of_materials(profile, piece_sets())
    by_part = {x.part: x for x in lines}
    cells = board_shape(profile).cells
    assert by_part["Reed switch, normally open, 12.7 mm glass"].qty == cells
    assert by_part["Schottky diode"].qty == cells
    low, high = totals(lines)
    assert 0 < low < high
    assert all(x.qty > 0 and 0 < x.low <= x.high and x.reference and x.purpose for x in lines)


@pytest.mark.parametrize(
    ("name", "antennas"),
    [("rfid-15x15-pico", 30), ("rfid-15x15-racks-pico", 32), ("doubles-wild-rfid-pico", 18)],
)
def test_an_rfid_board_buys_one_reader_and_a_pin_diode_per_row_and_column(
    name: str, antennas: int
) -> None:
    profile = load_profile(name)
    lines = bill_of_materials(profile, piece_sets())
    by_ref = {x.reference: x for x in lines}
    assert reader_chips(lines) == 1
    assert by_ref["TRF7962ARHBR"].qty == 1
    assert by_ref["BAR67-02V"].qty == antennas
    assert by_ref["TPIC6B595DWR"].qty == -(-antennas // 8)
    assert by_ref["TPS61040DBVR"].qty == 1
    assert all(x.section == "buy" for x in lines if "docs/rf.md" in x.purpose)
    old = ("MFRC522", "ADG1606", "NTAG213")
    assert not any(word in x.part + x.reference for x in lines for word in old)
    tags = next(x for x in lines if x.part.startswith("RFID tag, ISO/IEC 15693"))
    assert "SLIX2" in tags.reference and tags.qty > 0


def test_the_racks_board_needs_a_third_row_driver_for_17_rows() -> None:
    lines = bill_of_materials(load_profile("rfid-15x15-racks-pico"), piece_sets())
    assert next(x for x in lines if x.part == "74HC595 shift register, DIP-16").qty == 3


def test_gpio_boards_have_no_pico_and_no_reader() -> None:
    lines = bill_of_materials(load_profile("double-take-gpio"), piece_sets())
    parts = {x.part for x in lines}
    assert not any("Pico" in p for p in parts)
    assert reader_chips(lines) == 0


def test_power_budget_at_5v_counts_one_field_on_at_a_time() -> None:
    rfid = power_budget(load_profile("rfid-15x15-pico"))
    occupancy = power_budget(load_profile("occupancy-15x15-pico"))
    # The TRF7962A at 5 V adds 14 mA idle and 78 mA with its field on; the PIN-diode
    # bias draws only while an antenna is selected: 15.4 mA through the selected diode
    # and 0.23 mA through each of the 29 other antennas' pull-ups, at 24 V, from 5 V
    # at 80 % efficiency.
    bias_24v = (24 - 0.95) / 1500 + 29 * (24 - 0.95) / 100e3
    assert rfid.idle_ma - occupancy.idle_ma == pytest.approx(14.0)
    assert rfid.peak_ma - occupancy.peak_ma == pytest.approx(78.0 + 1e3 * bias_24v * 24 / 5 / 0.8)
    assert 125 < 1e3 * bias_24v * 24 / 5 / 0.8 < 140  # docs/rf.md: about 0.13 A from 5 V
    assert rfid.peak_ma < 3000  # well inside the 3 A supply


def test_bom_command_prints_every_profile_with_a_total() -> None:
    out = io.StringIO()
    assert main(["bom"], out) == 0
    text = out.getvalue()
    for name in list_profiles():
        assert f"Bill of materials: {name} " in text
    assert text.count("Total: $") == len(list_profiles())


def test_bom_csv_has_a_row_per_part_and_a_total_that_adds_up() -> None:
    out = io.StringIO()
    assert main(["bom", "double-take-pico", "--csv"], out) == 0
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    parts, total = rows[:-1], rows[-1]
    assert total["part"] == "total"
    low = sum(int(r["qty"]) * float(r["each_low_usd"]) for r in parts)
    assert float(total["each_low_usd"]) == pytest.approx(low, abs=0.01)


@pytest.mark.parametrize("name", list_profiles())
def test_docs_give_each_profiles_power_budget_and_cost_as_bom_works_them_out(name: str) -> None:
    doc = (Path(__file__).parents[2] / "docs/hardware.md").read_text(encoding="utf-8")
    profile = load_profile(name)
    budget = power_budget(profile)
    low, high = totals(bill_of_materials(profile, piece_sets()))
    row = (
        f"| `{name}` | {board_shape(profile).cells} | {budget.idle_ma:.0f} | "
        f"{budget.peak_ma:.0f} | ${low:,.0f}–${high:,.0f} |"
    )
    assert row in doc
