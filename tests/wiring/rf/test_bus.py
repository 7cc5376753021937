"""The RF bus between the shared match and the antennas' diodes (wiring.rf.bus): its
line constants, and that the simulation and the design carry it."""

from __future__ import annotations

import itertools
import math
import os

import pytest
from msgspec.structs import replace

from wiring.loader import load_profile
from wiring.rf import bus
from wiring.rf.checks import check_antenna
from wiring.rf.design import bus_length, design
from wiring.rf.parts import F0
from wiring.rf.spice import netlist, ngspice_path


@pytest.fixture
def ngspice() -> None:
    if ngspice_path() is None:
        message = "ngspice is missing: apt-get install ngspice"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


def test_the_elliptic_integral_gives_its_known_values() -> None:
    assert bus.elliptic_k(0.0) == pytest.approx(math.pi / 2, rel=1e-12)
    # K(1/√2) = Γ(1/4)² / (4√π)
    assert bus.elliptic_k(1 / math.sqrt(2)) == pytest.approx(
        math.gamma(0.25) ** 2 / (4 * math.sqrt(math.pi)), rel=1e-12
    )


def test_the_conformal_inductance_agrees_with_the_partial_inductance_sum() -> None:
    line = bus.line(F0)
    assert line.l_per_m == pytest.approx(bus.neumann_l_per_m(), rel=0.10)
    # A 144 Ω line: √(L'/C') for these strips, slower than light by √ε_eff.
    assert math.sqrt(line.l_per_m / line.c_per_m) == pytest.approx(144, rel=0.02)
    speed = 1 / math.sqrt(line.l_per_m * line.c_per_m)
    assert speed == pytest.approx(299_792_458 / math.sqrt((bus.EPS_R + 1) / 2), rel=1e-6)


def test_wider_gaps_raise_the_inductance_and_lower_the_capacitance() -> None:
    near, far = bus.line(F0, gap=1e-3), bus.line(F0, gap=4e-3)
    assert far.l_per_m > near.l_per_m
    assert far.c_per_m < near.c_per_m


def test_each_antenna_taps_the_bus_where_its_lead_ends() -> None:
    radio = design(load_profile("rfid-15x15-pico"))
    rows = [a for a in radio.antennas if a.axis == "row"]
    steps = {round(b.feed - a.feed, 9) for a, b in itertools.pairwise(rows)}
    assert steps == {radio.pitch}
    assert bus_length(radio.antennas) == pytest.approx(2 * rows[-1].feed)
    assert rows[-1].feed_length == pytest.approx(0.316, abs=1e-3)


def test_the_netlist_carries_the_bus_as_sections_up_to_each_tap() -> None:
    radio = design(load_profile("rfid-15x15-pico"))
    deck = netlist(radio, radio.antenna("R15"))
    sections = [line for line in deck.splitlines() if line.startswith("LB")]
    line = bus.line(F0)
    total = sum(float(s.split()[-1]) for s in sections)
    assert total == pytest.approx(line.l_per_m * bus_length(radio.antennas), rel=1e-4)
    assert all(float(s.split()[-1]) <= line.l_per_m * bus.SECTION_M * 1.0001 for s in sections)
    taps = [line for line in deck.splitlines() if line.startswith("VT_")]
    assert len(taps) == len(radio.antennas)


@pytest.mark.usefixtures("ngspice")
def test_a_design_blind_to_the_feed_leaves_the_far_antenna_mistuned() -> None:
    radio = design(load_profile("rfid-15x15-pico"))
    far = radio.antenna("R15")
    assert check_antenna(radio, far).problems() == []
    blind = replace(
        radio,
        antennas=tuple(replace(a, c_end=radio.antenna("R1").c_end) for a in radio.antennas),
    )
    result = check_antenna(blind, blind.antenna("R15"))
    assert result.resonance_hz < F0 * 0.97
    assert any("resonance" in p for p in result.problems())
