"""The LED chain's parts and supply in the bill of materials, sized from its budget."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from msgspec.structs import replace

from firmware_bridge.apps.cli import main
from firmware_bridge.kits import piece_sets
from wiring.bom import bill_of_materials, board_shape
from wiring.leds_power import LED_MA, MAX_DROP_V, led_lines, led_supply
from wiring.loader import list_profiles, load_profile
from wiring.profile import LedChain


def chain(leds: int, budget_ma: int = 2000) -> LedChain:
    return LedChain(15, "rows", tuple(f"c{i}" for i in range(leds)), 0.25, budget_ma)


def test_a_15x15_board_gets_a_3_a_supply_and_a_feed_every_4_rows() -> None:
    supply = led_supply(chain(225), 15)
    # 2000 mA budget + 225 × 1 mA dark = 2225 mA; × 1.2 = 2670 mA → 3 A.
    assert supply.need_ma == pytest.approx(2225, abs=0.1)
    assert supply.supply_a == 3
    assert supply.full_white_ma == 225 * 36
    # 63 LEDs keep the rails' drop within 0.4 V; rounded down to whole rows of 15.
    assert supply.per_feed == 60 and supply.feeds == 4
    assert supply.drop_v(60) <= MAX_DROP_V < supply.drop_v(64)


def test_a_small_chain_is_fed_at_its_start_only() -> None:
    supply = led_supply(chain(72, 1000), 8)
    assert (supply.supply_a, supply.feeds) == (2, 1)
    assert supply.per_feed == 72


def test_a_bigger_budget_needs_a_bigger_supply_and_closer_feeds() -> None:
    small, big = led_supply(chain(225, 2000), 15), led_supply(chain(225, 6000), 15)
    assert big.supply_a == 8  # 6225 mA × 1.2 = 7470 mA
    assert big.per_feed < small.per_feed
    # Without a budget's cap a stretch draws its LEDs' full white.
    assert big.drop_v(10) == pytest.approx(6.24e-3 * 10 * LED_MA / 1000 * 5.5, rel=0.01)


def test_the_bill_lists_every_led_with_its_capacitor_and_the_chain_parts() -> None:
    lines = {x.part: x for x in led_lines(chain(225), 15)}
    assert lines["Addressable RGB LED, 3535"].qty == 225
    assert "WS2812B-Mini" in lines["Addressable RGB LED, 3535"].reference
    assert lines["Capacitor 100 nF X7R 0603"].qty == 226
    assert lines["Quad buffer, TTL-level inputs"].reference == "SN74AHCT125N"
    assert "spare inputs to GND" in lines["Quad buffer, TTL-level inputs"].purpose
    assert lines["Resistor 330 Ω"].qty == 1
    assert lines["Capacitor 1000 µF 10 V electrolytic"].qty == 1
    assert lines["Power supply 5 V 3 A"].qty == 1
    assert lines["Wire pair, 18 AWG, red and black, 0.5 m"].qty == 3


def test_only_a_profile_with_a_chain_lists_its_parts() -> None:
    profile = load_profile("rfid-15x15-pico")
    parts = {x.part for x in bill_of_materials(profile, piece_sets())}
    assert "Quad buffer, TTL-level inputs" in parts
    bare = {x.part for x in bill_of_materials(replace(profile, leds=None), piece_sets())}
    assert not any("LED, 3535" in p or "AHCT" in p for p in bare)
    assert parts - bare >= {"Addressable RGB LED, 3535", "Power supply 5 V 3 A"}


def test_tabletop_bom_shows_the_chain_supply_with_its_arithmetic() -> None:
    out = io.StringIO()
    assert main(["bom", "rfid-15x15-racks-pico"], out) == 0
    assert (
        "LED chain at 5 V, its own supply: 255 LEDs draw at most 2000 mA (budget) + 255 mA "
        "dark = 2255 mA (full white would be 9180 mA); × 1.2 → a 3 A supply, fed at its "
        "start and every 60 LEDs (5 feeds)"
    ) in out.getvalue()


@pytest.mark.parametrize("name", list_profiles())
def test_docs_give_each_chain_supply_as_bom_works_it_out(name: str) -> None:
    doc = (Path(__file__).parents[2] / "docs/hardware.md").read_text(encoding="utf-8")
    profile = load_profile(name)
    if profile.leds is None:
        assert f"| `{name}` | {len(profile.cells)} | " not in doc.split("## The LED chain")[1]
        return
    s = led_supply(profile.leds, board_shape(profile).columns)
    row = (
        f"| `{name}` | {s.leds} | {s.budget_ma} | {s.need_ma:.0f} | {s.full_white_ma:.0f} | "
        f"5 V {s.supply_a} A | {s.feeds} |"
    )
    assert row in doc
