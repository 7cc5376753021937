"""The LED chain's parts and supply in the bill of materials, sized from its budget."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from msgspec.structs import replace

from firmware_bridge.apps.cli import main
from firmware_bridge.firmware import leds as firmware_leds
from firmware_bridge.kits import piece_sets
from wiring.bom import bill_of_materials, board_shape
from wiring.leds_power import (
    CHANNEL_MA,
    DARK_MA,
    LED_MA,
    MAX_DROP_V,
    led_lines,
    led_supply,
    rail_mohm_per_pitch,
)
from wiring.loader import list_profiles, load_profile
from wiring.profile import LedChain


def chain(leds: int, budget_ma: int = 2000) -> LedChain:
    return LedChain(15, "rows", tuple(f"c{i}" for i in range(leds)), 0.25, budget_ma)


def test_the_host_and_the_firmware_count_an_leds_current_alike() -> None:
    assert CHANNEL_MA == firmware_leds.CHANNEL_MA
    assert DARK_MA == firmware_leds.IDLE_MA
    # A frame at full white: the firmware's estimate is the bill's full-white figure.
    frame = [255] * (3 * 225)
    assert firmware_leds.current_ma(frame) == pytest.approx(225 * (LED_MA + DARK_MA))


def test_a_15x15_board_at_21_mm_gets_a_3_a_supply_and_a_feed_every_3_rows() -> None:
    supply = led_supply(chain(225), 15)
    # 2000 mA budget + 225 × 1 mA dark = 2225 mA; × 1.2 = 2670 mA → 3 A.
    assert supply.need_ma == pytest.approx(2225, abs=0.1)
    assert supply.supply_a == 3
    assert supply.full_white_ma == 225 * 60
    assert supply.pitch_mm == 21
    # 2 × 1.72e-8 Ω·m × 21 mm / (3 mm × 35 µm) = 6.88 mΩ a square.
    assert rail_mohm_per_pitch(21) == pytest.approx(6.88, abs=0.01)
    # 57 LEDs keep the rails' drop within 0.4 V; rounded down to whole rows of 15.
    assert supply.drop_v(57) <= MAX_DROP_V < supply.drop_v(58)
    assert supply.per_feed == 45 and supply.feeds == 5
    # 2225 mA / 0.75 = 2967 mA → a 3.15 A time-lag fuse.
    assert supply.fuse_a == 3.15


def test_the_racks_board_needs_six_feeds() -> None:
    assert led_supply(chain(255), 15).feeds == 6


def test_a_9x9_board_at_30_mm_is_fed_twice() -> None:
    supply = led_supply(chain(81, 1000), 9)
    assert supply.pitch_mm == 30
    # End to end from one feed: 9.83 mΩ × 1 A × 82 / 2 = 0.403 V, over the limit.
    assert supply.drop_v(81) == pytest.approx(0.403, abs=0.001)
    assert supply.drop_v(81) > MAX_DROP_V
    assert (supply.per_feed, supply.feeds) == (72, 2)


def test_a_small_chain_is_fed_at_its_start_only() -> None:
    supply = led_supply(chain(72, 1000), 8)
    assert (supply.supply_a, supply.feeds) == (2, 1)
    assert supply.per_feed == 72
    assert supply.fuse_a == 1.6


def test_a_bigger_budget_needs_a_bigger_supply_and_closer_feeds() -> None:
    small, big = led_supply(chain(225, 2000), 15), led_supply(chain(225, 6000), 15)
    assert big.supply_a == 8  # 6225 mA × 1.2 = 7470 mA
    assert big.per_feed < small.per_feed
    # Without a budget's cap a stretch draws its LEDs' full white.
    assert big.drop_v(10) == pytest.approx(6.88e-3 * 10 * LED_MA / 1000 * 5.5, rel=0.01)


def test_the_bill_lists_every_led_with_its_capacitor_and_the_chain_parts() -> None:
    lines = {x.part: x for x in led_lines(chain(225), 15)}
    assert lines["Addressable RGB LED, 3535"].qty == 225
    assert lines["Addressable RGB LED, 3535"].reference == "SK6812MINI"
    assert lines["Capacitor 100 nF X7R 0603"].qty == 225
    buffer = lines["Quad buffer, TTL-level inputs, DIP-14"]
    assert buffer.reference == "SN74AHCT125N" and buffer.distributor == "595-SN74AHCT125N"
    assert "spare inputs to GND" in buffer.purpose
    assert lines["Resistor 330 Ω"].qty == 1
    assert lines["Capacitor 1000 µF 10 V electrolytic"].qty == 1
    assert lines["Power supply 5 V 3 A, 5.5 × 2.1 mm plug"].qty == 1
    # The supply's own terminal, then one at the first LED and one per injection point.
    assert lines["Screw terminal 2-way, 5.0 mm"].qty == 1 + 5
    assert lines["Wire pair, 18 AWG, red and black, 0.5 m"].qty == 4
    assert lines["Fuse 3.15 A time-lag, 5 × 20 mm"].reference == "02183.15MXP"
    assert lines["Fuse holder 5 × 20 mm, PCB"].section == "pcb"
    assert lines["Fuse 3.15 A time-lag, 5 × 20 mm"].section == "buy"


def test_only_a_profile_with_a_chain_lists_its_parts() -> None:
    profile = load_profile("rfid-15x15-pico")
    parts = {x.part for x in bill_of_materials(profile, piece_sets())}
    assert "Quad buffer, TTL-level inputs, DIP-14" in parts
    bare = {x.part for x in bill_of_materials(replace(profile, leds=None), piece_sets())}
    # The radio's own single buffer (the antenna chain's G) stays; the chain's go.
    assert not any("LED, 3535" in p or "Quad buffer" in p for p in bare)
    assert parts - bare >= {"Addressable RGB LED, 3535", "Power supply 5 V 3 A, 5.5 × 2.1 mm plug"}


def test_tabletop_bom_shows_the_chain_supply_with_its_arithmetic() -> None:
    out = io.StringIO()
    assert main(["bom", "rfid-15x15-racks-pico"], out) == 0
    assert (
        "LED chain at 5 V, its own supply: 255 LEDs draw at most 2000 mA (budget) + 255 mA "
        "dark = 2255 mA (full white would be 15300 mA); × 1.2 → a 3 A supply, a 3.15 A "
        "fuse, fed at its start and every 45 LEDs (6 feeds) at 21 mm a square"
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
        f"5 V {s.supply_a} A | {s.fuse_a:g} A | {s.feeds} |"
    )
    assert row in doc
