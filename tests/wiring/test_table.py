"""The pin table `tabletop wiring` prints."""

from __future__ import annotations

import re

import pytest

from wiring.loader import list_profiles, load_profile
from wiring.table import pin_rows, pin_table


def table_lines(name: str) -> dict[str, tuple[int, str]]:
    """Header name (GPIO17) → (physical pin, use) for every GPIO line of the table."""
    found: dict[str, tuple[int, str]] = {}
    for line in pin_table(load_profile(name)).splitlines():
        match = re.match(r"\s*(\d+)\s+(GPIO\d+)\S*(?: \([^)]*\))?\s+(.*)$", line)
        if match:
            found[match.group(2)] = (int(match.group(1)), match.group(3))
    return found


def test_bcm_17_is_physical_11_and_bcm_4_is_physical_7() -> None:
    lines = table_lines("double-take-gpio")
    assert lines["GPIO17"] == (11, "matrix row 1 (driven low): a2..h2")
    assert lines["GPIO4"] == (7, "matrix row 0 (driven low): a1..h1")


@pytest.mark.parametrize("name", ["double-take-gpio", "doubles-wild-gpio", "rfid-15x15-pico"])
def test_table_lists_every_used_pin_once(name: str) -> None:
    profile = load_profile(name)
    lines = table_lines(name)
    for bcm in profile.used_pins():
        assert f"GPIO{bcm}" in lines
    assert set(lines) == {f"GPIO{b}" for b in profile.used_pins()} | {"GPIO2", "GPIO3"}


def test_table_shows_oled_lines_on_i2c1() -> None:
    lines = table_lines("sim")
    assert lines["GPIO2"][0] == 3
    assert lines["GPIO2"][1].startswith("OLED SDA")
    assert lines["GPIO3"] == (5, "OLED SCL")
    text = pin_table(load_profile("sim"))
    assert re.search(r"^\s+1\s+3V3\s+OLED VCC$", text, re.M)
    assert re.search(r"^\s+9\s+GND\s+OLED GND$", text, re.M)


def test_table_is_sorted_by_physical_pin() -> None:
    for name in list_profiles():
        physical = [row.physical for row in pin_rows(load_profile(name))]
        assert physical == sorted(physical)


def test_table_names_each_button_and_the_buzzer() -> None:
    lines = table_lines("double-take-gpio")
    uses = [use for _, use in lines.values()]
    for button in ("roll", "left", "right", "ok", "back"):
        assert any(u.startswith(f"button {button} ") for u in uses)
    assert lines["GPIO18"] == (12, "buzzer: NPN transistor base via 1 kΩ")


def test_serial_board_table_says_where_the_sensors_are() -> None:
    text = pin_table(load_profile("rfid-15x15-pico"))
    assert "15×15 rfid board on /dev/serial/by-id/" in text
    header = text.split("its pins:)")[0]
    assert "matrix" not in header  # no matrix line on the Pi's header
    pico = text.split("its pins:)")[1]
    # The Pico side: the switch matrix's SPI0, the reader's SPI1, the antenna chain.
    assert " 21  GP16      SPI0 MISO ← first 74HC165 QH" in pico
    assert " 17  GP13      reader chip select" in pico
    assert pico.count("[TPIC6B595 antenna chain (4 for 30 antennas)]") == 4
    assert "antenna select bit" not in pico  # the older multiplexed board's
