"""The RFID radio: geometry, design and the ngspice checks of every antenna of every
RFID profile (docs/rf.md)."""

from __future__ import annotations

import io
import math
import os
from pathlib import Path

import pytest
from msgspec.structs import replace

from firmware_bridge.apps.cli import main
from wiring.loader import list_profiles, load_profile
from wiring.rf import geometry as g
from wiring.rf.checks import AntennaCheck, check_antenna, check_radio, rf_table
from wiring.rf.design import RadioDesign, design
from wiring.rf.parts import F0, PIN_DIODE, pair
from wiring.rf.spice import ngspice_path, ngspice_version

DOC = Path(__file__).parents[3] / "docs/rf.md"


def _is_rfid(name: str) -> bool:
    try:
        design(load_profile(name))
    except ValueError:
        return False
    return True


RFID_PROFILES = [n for n in list_profiles() if _is_rfid(n)]


@pytest.fixture(scope="module", autouse=True)
def ngspice() -> None:
    if ngspice_path() is None:
        message = "ngspice is missing: apt-get install ngspice"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


_RESULTS: dict[str, tuple[RadioDesign, list[AntennaCheck]]] = {}


def _checked(name: str) -> tuple[RadioDesign, list[AntennaCheck]]:
    if name not in _RESULTS:
        radio = design(load_profile(name))
        _RESULTS[name] = (radio, check_radio(radio))
    return _RESULTS[name]


def test_the_rfid_profiles_are_the_three_tile_boards() -> None:
    assert RFID_PROFILES == ["doubles-wild-rfid-pico", "rfid-15x15-pico", "rfid-15x15-racks-pico"]


def test_neumann_sum_agrees_with_modified_wheeler_on_a_square_spiral() -> None:
    # The old 16 mm, 4-turn, 0.3/0.3 mm coil: both methods give about 0.46 µH.
    coil = g.rectangle(0, 0, 0.0157, 0.0157, 0, 0.0003, turns=4, pitch=0.0006)
    neumann = g.inductance(coil)
    wheeler = g.square_spiral_wheeler(0.016, 4, 0.0003, 0.0003)
    assert neumann == pytest.approx(wheeler, rel=0.03)
    assert 0.40e-6 < neumann < 0.50e-6


def test_parallel_filament_formula_matches_a_numerical_neumann_integral() -> None:
    a = g.Segment((0, 0, 0), (0.05, 0, 0), 1e-4)
    b = g.Segment((0.02, 0.004, 0.003), (0.09, 0.004, 0.003), 1e-4)
    n = 2000
    total = 0.0
    for i in range(n):
        xa = (i + 0.5) * 0.05 / n
        for j in range(n // 2):
            xb = 0.02 + (j + 0.5) * 0.07 / (n // 2)
            total += 1 / math.sqrt((xa - xb) ** 2 + 0.004**2 + 0.003**2)
    numeric = g.MU0 / (4 * math.pi) * total * (0.05 / n) * (0.07 / (n // 2))
    assert g.parallel_mutual(a, b) == pytest.approx(numeric, rel=1e-3)
    reversed_b = g.Segment(b.end, b.start, b.width)
    assert g.parallel_mutual(a, reversed_b) == pytest.approx(-numeric, rel=1e-3)


def test_mutual_inductance_is_symmetric_and_below_the_self_inductances() -> None:
    radio = design(load_profile("rfid-15x15-pico"))
    r1, r2 = radio.antenna("R1"), radio.antenna("R2")
    m = g.mutual(r1.segments, r2.segments)
    assert m == pytest.approx(g.mutual(r2.segments, r1.segments))
    assert abs(m) < math.sqrt(r1.inductance * r2.inductance)


def test_capacitor_pairs_land_within_one_percent() -> None:
    for target in (72.7e-12, 244e-12, 1.93e-9, 17.3e-12):
        assert sum(pair(target)) == pytest.approx(target, rel=0.012)


def test_a_board_without_rfid_is_refused_with_a_clear_message() -> None:
    out = io.StringIO()
    assert main(["rf", "sim"], out=out) == 2


@pytest.mark.parametrize("name", RFID_PROFILES)
def test_one_row_and_one_column_antenna_pass_every_check(name: str) -> None:
    radio = design(load_profile(name))
    for a in (radio.antennas[radio.rows // 2], radio.antennas[-1]):
        assert check_antenna(radio, a).problems() == []


@pytest.mark.slow
@pytest.mark.parametrize("name", RFID_PROFILES)
def test_every_antenna_of_every_rfid_profile_passes_every_check(name: str) -> None:
    radio, results = _checked(name)
    assert len(results) == radio.rows + radio.columns
    problems = [p for r in results for p in r.problems()]
    assert problems == []
    for r in results:
        assert abs(r.resonance_hz / F0 - 1) <= 0.03
        assert r.return_loss_db >= 10
        assert r.q <= 16
        assert r.coupling_db <= -20


@pytest.mark.parametrize("name", RFID_PROFILES)
def test_the_checks_hold_with_the_diodes_at_their_datasheet_limits(name: str) -> None:
    # rf at its 5 mA maximum (1.8 Ω) and CT at its maximum (0.55 pF).
    radio = design(load_profile(name))
    a = radio.antennas[-1]
    r = check_antenna(radio, a, r_on=PIN_DIODE.r_on_max.value, c_off=PIN_DIODE.c_off_max.value)
    assert r.problems() == []


def test_a_mistuned_board_fails_the_resonance_and_match_checks() -> None:
    radio = design(load_profile("rfid-15x15-pico"))
    wrong = replace(radio, cp=tuple(c * 0.8 for c in radio.cp))
    problems = check_antenna(wrong, wrong.antennas[0]).problems()
    assert any("resonance" in p for p in problems)
    assert any("the match gives" in p for p in problems)


def test_an_unselected_loop_relays_nothing_while_a_resonant_one_would() -> None:
    # The PIN diode's 0.35 pF leaves the neighbour's tag ~22 dB down; were the other
    # loops closed by capacitors of their own (resonant at 13.56 MHz, as coils with
    # their own tuning are), the field they relay would lift it over −20 dB.
    radio = design(load_profile("rfid-15x15-pico"))
    a = radio.antenna("R8")
    open_loops = check_antenna(radio, a)
    c_res = 1 / ((2 * math.pi * F0) ** 2 * a.inductance)
    resonant = check_antenna(radio, a, c_close=c_res)
    assert open_loops.coupling_db <= -20
    assert resonant.coupling_db > -20
    assert any("neighbour coupling" in p for p in resonant.problems())


def test_the_design_is_a_data_model_a_pcb_generator_can_read() -> None:
    radio = design(load_profile("rfid-15x15-racks-pico"))
    refs = [p.ref for p in radio.parts]
    assert len(refs) == len(set(refs))
    for a in radio.antennas:
        assert f"D_{a.name}" in refs and f"ANT_{a.name}" in refs and f"R_PU_{a.name}" in refs
        assert a.segments and a.outline_mm[2] > a.outline_mm[0]
    nets: dict[str, int] = {}
    for p in radio.parts:
        for n in p.nets:
            nets[n] = nets.get(n, 0) + 1
    lonely = {
        n
        for n, count in nets.items()
        if count < 2 and n not in ("SEL_SER", "SEL_CLK", "SEL_LATCH", "SEL_OE", "BIAS_SW")
    }
    assert not lonely, lonely
    # The 17-square columns carry smaller end capacitors than the 15-square rows.
    assert sum(radio.antenna("C1").c_end) < sum(radio.antenna("R1").c_end)


def test_tabletop_rf_prints_the_table_and_the_ngspice_version() -> None:
    out = io.StringIO()
    assert main(["rf", "doubles-wild-rfid-pico"], out=out) == 0
    text = out.getvalue()
    assert ngspice_version() in text
    radio, results = _checked("doubles-wild-rfid-pico")
    assert rf_table(radio, results) in text


@pytest.mark.slow
@pytest.mark.parametrize("name", RFID_PROFILES)
def test_docs_show_the_table_the_code_computes(name: str) -> None:
    radio, results = _checked(name)
    assert rf_table(radio, results) in DOC.read_text(encoding="utf-8")


def test_the_emc_filter_passes_the_carrier_and_stops_its_harmonics() -> None:
    from wiring.rf.design import emc_attenuation_db

    radio = design(load_profile("rfid-15x15-pico"))
    assert emc_attenuation_db(radio, F0) < 0.1
    assert emc_attenuation_db(radio, 2 * F0) > 12
    assert emc_attenuation_db(radio, 3 * F0) > 30


@pytest.mark.parametrize("name", RFID_PROFILES)
def test_docs_give_each_profiles_component_values_as_the_design_computes_them(name: str) -> None:
    from wiring.rf.design import values_table

    assert values_table(design(load_profile(name))) in DOC.read_text(encoding="utf-8")


def test_docs_give_the_coupling_against_loop_width_the_geometry_gives() -> None:
    from wiring.rf.design import coupling_vs_width

    assert coupling_vs_width() in DOC.read_text(encoding="utf-8")


def test_tabletop_rf_writes_a_touchstone_file_with_the_match_at_the_carrier(
    tmp_path: Path,
) -> None:
    out = io.StringIO()
    s1p = tmp_path / "c5.s1p"
    assert (
        main(["rf", "doubles-wild-rfid-pico", "--s1p", str(s1p), "--antenna", "C5"], out=out) == 0
    )
    rows = [line.split() for line in s1p.read_text().splitlines() if line[:1].isdigit()]
    gammas = {round(float(f), 4): complex(float(re), float(im)) for f, re, im in rows}
    assert abs(gammas[13.56]) < 10 ** (-20 / 20)  # better than 20 dB at the carrier
    assert abs(gammas[11.0]) > 0.5  # and a poor match far from it
    assert "10 dB or better from" in out.getvalue()


def test_tabletop_rf_names_the_antennas_when_one_is_unknown() -> None:
    out = io.StringIO()
    assert (
        main(["rf", "doubles-wild-rfid-pico", "--s1p", "x.s1p", "--antenna", "R10"], out=out) == 2
    )


def test_the_pieces_drawing_is_to_scale_and_in_the_docs() -> None:
    import re

    from wiring.rf.drawing import SCALE, TILE_MM, pieces_svg

    svg = pieces_svg()
    assert svg == (DOC.parent / "img/rf-pieces.svg").read_text(encoding="utf-8")
    assert "img/rf-pieces.svg" in DOC.read_text(encoding="utf-8")
    tiles = re.findall(
        r'<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="([\d.]+)" '
        r'fill="#f5e6c8" fill-opacity',
        svg,
    )
    assert (f"{TILE_MM * SCALE:.1f}", f"{TILE_MM * SCALE:.1f}") in tiles


def test_the_radio_bill_of_materials_counts_a_diode_and_a_pull_up_per_antenna() -> None:
    from wiring.rf.design import radio_bom

    radio = design(load_profile("rfid-15x15-racks-pico"))
    bom = radio_bom(radio)
    diodes = sum(n for part, _, n in bom if part == PIN_DIODE.part)
    pull_ups = sum(n for _, value, n in bom if value == "100 kΩ")
    drivers = sum(n for part, _, n in bom if part == "TI TPIC6B595")
    assert diodes == pull_ups == len(radio.antennas) == 32
    assert drivers == 4
    assert sum(n for part, _, n in bom if part == "TI TRF7962A") == 1


def test_the_next_tiles_magnet_is_far_weaker_at_a_hall_switch_than_its_own() -> None:
    from wiring.rf.drawing import neighbour_magnet_ratio

    assert neighbour_magnet_ratio() < 0.05
    # Closer squares would bring the next tile's magnet nearer: the ratio grows.
    assert neighbour_magnet_ratio(19.5) > neighbour_magnet_ratio()


def test_the_docs_return_loss_trace_is_the_simulated_one() -> None:
    from wiring.rf.checks import match_sweep
    from wiring.rf.drawing import return_loss_svg

    radio = design(load_profile("rfid-15x15-pico"))
    points = match_sweep(radio, radio.antenna("R1"))
    title = "rfid-15x15-pico, antenna R1: simulated return loss at the 50 ohm point"
    svg = return_loss_svg(points, title)
    assert svg == (DOC.parent / "img/rf-return-loss-R1.svg").read_text(encoding="utf-8")
    assert "img/rf-return-loss-R1.svg" in DOC.read_text(encoding="utf-8")


@pytest.mark.parametrize("k", [0.98, 1.02])
def test_the_checks_hold_with_the_match_two_percent_off_and_the_diodes_at_their_limits(
    k: float,
) -> None:
    # Twice the 1 % tolerance of the C0G match capacitors, on both, with rf 1.8 Ω and
    # CT 0.55 pF: the resonance stays within 3 % and the match within 10 dB.
    radio = design(load_profile("rfid-15x15-racks-pico"))
    off = replace(radio, cp=tuple(c * k for c in radio.cp), cs=tuple(c * k for c in radio.cs))
    r = check_antenna(
        off, off.antenna("C15"), r_on=PIN_DIODE.r_on_max.value, c_off=PIN_DIODE.c_off_max.value
    )
    assert r.problems() == []


def test_inventory_times_follow_the_iso15693_timings_and_are_in_the_docs() -> None:
    from wiring.rf import timing as t

    # One tag: the request, one answered slot, 15 empty ones and 15 slot EOFs.
    one = t.request_s() + t.answer_slot_s() + 15 * t.empty_slot_s() + 15 * t.READER_EOF_S
    assert t.inventory_s(1) == pytest.approx(one)
    assert pytest.approx(37.76e-6, rel=1e-3) == t.BIT_S
    assert t.inventory_s(15) > t.inventory_s(5) > t.inventory_s(1)
    assert t.inventory_s(13, 2) > t.inventory_s(15)  # a collision costs a second round
    assert t.inventory_table() in DOC.read_text(encoding="utf-8")
