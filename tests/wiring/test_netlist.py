"""Netlists of the Pico boards, drawn up with SKiDL: a clean ERC, a switch and a
Schottky diode per square wired column → switch → diode → row, and the chips."""

from __future__ import annotations

import io
import re
from collections import defaultdict
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from wiring.leds_power import led_supply
from wiring.loader import load_profile


def _nets(text: str) -> dict[str, set[tuple[str, str]]]:
    """Net name -> (part reference, pin) pairs, from a KiCad netlist."""
    nets: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for block in text.split("(net\n")[1:]:
        name = re.search(r'\(name "([^"]+)"\)', block)
        assert name is not None
        for ref, pin in re.findall(r'\(ref "([^"]+)"\)\s*\(pin "([^"]+)"\)', block):
            nets[name[1]].add((ref, pin))
    return nets


@pytest.mark.slow
@pytest.mark.parametrize(
    ("profile", "rows", "columns"),
    [("occupancy-15x15-pico", 15, 15), ("rfid-15x15-pico", 15, 15)],
)
def test_netlist_passes_erc_with_a_switch_and_diode_per_square(
    profile: str, rows: int, columns: int, tmp_path: Path
) -> None:
    path = tmp_path / f"{profile}.net"
    out = io.StringIO()
    assert main(["netlist", profile, "--kicad", str(path)], out) == 0
    assert "ERC: 0 errors, 0 warnings" in out.getvalue()
    text = path.read_text(encoding="utf-8")
    assert text.startswith("(export")
    values = dict(re.findall(r'\(ref "([^"]+)"\)\s*\(value "([^"]+)"\)', text))
    switches = [ref for ref, value in values.items() if value == "reed NO"]
    diodes = [ref for ref, value in values.items() if value == "BAT43"]
    assert len(switches) == len(diodes) == rows * columns
    nets = _nets(text)
    for r in range(1, rows + 1):
        for c in range(1, columns + 1):
            (sw, _), (d, pin) = sorted(nets[f"SQ{r}_{c}"], key=lambda p: p[0].startswith("D"))
            assert sw in switches and d in diodes and pin == "2"  # the diode's anode
            assert (sw, "1") in nets[f"COL{c}"]
            assert (d, "1") in nets[f"ROW{r}"]  # its cathode on the row
    chips = set(values.values())
    assert {"74HC595", "74HC165", "Raspberry Pi Pico", "100nF"} <= chips
    _check_led_chain(profile, out.getvalue(), values, nets)
    if profile.startswith("rfid"):
        assert "MFRC522 module" in chips
        assert sum(1 for v in values.values() if v == "ADG1606") == 16
        assert sum(1 for v in values.values() if v == "MFRC522 module") == 1


def test_a_gpio_board_has_no_netlist(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["netlist", "double-take-gpio", "--kicad", str(tmp_path / "x.net")]) == 2
    assert "not a Pico board" in capsys.readouterr().err


def _check_led_chain(
    name: str, report: str, values: dict[str, str], nets: dict[str, set[tuple[str, str]]]
) -> None:
    """The chain of the profile's [leds]: data pin → 74AHCT125 gate 1 → 330 Ω → the
    first LED's DIN, each DOUT to the next DIN in chain order, power and capacitors."""
    chain = load_profile(name).leds
    assert chain is not None
    assert f"and {len(chain.chain)} LEDs; ERC: 0 errors, 0 warnings" in report
    led = {value.removeprefix("SK6812MINI "): ref for ref, value in values.items()}
    (buffer,) = [ref for ref, value in values.items() if value == "74AHCT125"]
    (pico,) = [ref for ref, value in values.items() if value == "Raspberry Pi Pico"]
    # GP15 → 1A, held low by its 10 kΩ pull-down while the Pico boots.
    ((pull_down, _),) = nets["LED_DATA_3V3"] - {(pico, "20"), (buffer, "2")}
    assert values[pull_down] == "10k" and (pull_down, "2") in nets["GND"]
    ((resistor, _),) = nets["LED_DATA_5V"] - {(buffer, "3")}
    assert values[resistor] == "330"
    # SK6812MINI: 1 DOUT, 2 VSS, 3 DIN, 4 VDD.
    assert nets["LED_DIN1"] == {(resistor, "2"), (led[chain.chain[0]], "3")}
    for i in range(1, len(chain.chain)):
        before, after = led[chain.chain[i - 1]], led[chain.chain[i]]
        assert nets[f"LED_DIN{i + 1}"] == {(before, "1"), (after, "3")}
    supply, ground = nets["+5V_LED"], nets["GND"]
    for cell in chain.chain:
        assert (led[cell], "4") in supply and (led[cell], "2") in ground
    caps = [ref for ref, value in values.items() if value == "100nF"]
    assert sum(1 for ref in caps if (ref, "1") in supply) == len(chain.chain) + 1
    assert {(buffer, "5"), (buffer, "9"), (buffer, "12"), (buffer, "1")} <= ground
    assert {(buffer, "4"), (buffer, "10"), (buffer, "13"), (buffer, "14")} <= supply
    feeds = [ref for ref, value in values.items() if value.startswith("5V feed")]
    assert len(feeds) == led_supply(chain, 15).feeds == 5
    assert sum(1 for value in values.values() if value == "1000uF") == 1
