"""Netlists of the Pico boards, drawn up with SKiDL: a clean ERC, a switch and a
Schottky diode per square wired column → switch → diode → row, and the chips."""

from __future__ import annotations

import io
import re
from collections import defaultdict
from pathlib import Path

import pytest

from firmware_bridge.cli import main


def _nets(text: str) -> dict[str, set[tuple[str, str]]]:
    """Net name -> (part reference, pin) pairs, from a KiCad netlist."""
    nets: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for block in text.split("(net\n")[1:]:
        name = re.search(r'\(name "([^"]+)"\)', block)
        assert name is not None
        for ref, pin in re.findall(r'\(ref "([^"]+)"\)\s*\(pin "([^"]+)"\)', block):
            nets[name[1]].add((ref, pin))
    return nets


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
    if profile.startswith("rfid"):
        assert "MFRC522 module" in chips
        assert sum(1 for v in values.values() if v == "ADG1606") == 16
        assert sum(1 for v in values.values() if v == "MFRC522 module") == 1


def test_a_gpio_board_has_no_netlist(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["netlist", "double-take-gpio", "--kicad", str(tmp_path / "x.net")]) == 2
    assert "not a Pico board" in capsys.readouterr().err
