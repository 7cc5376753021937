"""The netlist's parts as their data sheets number them, the LED chain's protection,
and the ERC's counts, which must hold however often a netlist is drawn up."""

from __future__ import annotations

import builtins
import io
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.apps.cli import main
from wiring import netlist
from wiring.loader import load_profile
from wiring.pcb.parts import adg1606_pins

# The ADG1606's TSSOP pins as its data sheet's pin configuration figure draws them,
# typed out here apart from the package's table: S16 down to S9 on pins 4-11, S1 up
# to S8 on pins 19-26, the drain on 28.
DATASHEET_ADG1606 = {
    1: "VDD", 2: "NC", 3: "NC", 12: "GND", 13: "NC", 14: "A3", 15: "A2", 16: "A1",
    17: "A0", 18: "EN", 27: "VSS", 28: "D",
    **{4 + i: f"S{16 - i}" for i in range(8)},
    **{19 + i: f"S{1 + i}" for i in range(8)},
}  # fmt: skip


def test_the_adg1606_table_is_the_data_sheets() -> None:
    assert {n: name for n, name, _kind in adg1606_pins()} == DATASHEET_ADG1606


def _nets(text: str) -> dict[str, set[tuple[str, str]]]:
    nets: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for block in text.split("(net\n")[1:]:
        name = re.search(r'\(name "([^"]+)"\)', block)
        assert name is not None
        for ref, pin in re.findall(r'\(ref "([^"]+)"\)\s*\(pin "([^"]+)"\)', block):
            nets[name[1]].add((ref, pin))
    return nets


@pytest.fixture(scope="module")
def rfid_9x9(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[tuple[str, str]]]:
    path = tmp_path_factory.mktemp("net") / "board.net"
    assert main(["netlist", "doubles-wild-rfid-pico", "--kicad", str(path)], io.StringIO()) == 0
    return _nets(path.read_text(encoding="utf-8"))


def test_every_square_reaches_its_own_coil_through_the_channel_its_address_selects(
    rfid_9x9: dict[str, set[tuple[str, str]]],
) -> None:
    by_pin = {n: name for n, name, _kind in adg1606_pins()}
    leaves: dict[str, int] = {}
    for k in range(1, 7):  # 81 squares: 6 leaves (16 channels each) behind a first level
        ((leaf, pin),) = [(r, p) for r, p in rfid_9x9[f"ANT_BRANCH{k}"] if p == "28"]
        leaves[leaf] = k
    for square in range(1, 82):
        feed = rfid_9x9[f"ANT_FEED{square}"]
        ((leaf, pin),) = [(r, p) for r, p in feed if r in leaves]
        channel = (square - 1) % 16 + 1
        assert leaves[leaf] == (square - 1) // 16 + 1
        assert by_pin[int(pin)] == f"S{channel}"  # address channel-1 closes S<channel>


def test_the_led_buffer_input_is_pulled_down_and_the_led_supply_fused(
    rfid_9x9: dict[str, set[tuple[str, str]]],
) -> None:
    data = rfid_9x9["LED_DATA_3V3"]
    pulls = [ref for ref, _pin in data if ref.startswith("R")]
    assert len(pulls) == 1
    assert any(ref == pulls[0] for ref, _pin in rfid_9x9["GND"])
    ((fuse, _),) = [(r, p) for r, p in rfid_9x9["+5V_LED_IN"] if r.startswith("F")]
    assert any(ref == fuse for ref, _pin in rfid_9x9["+5V_LED"])


def test_erc_counts_are_the_same_each_time_the_netlist_is_drawn_up(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    drawn = netlist._draw

    def with_a_floating_input(skidl: Any, circuit: Any, shape: Any, chain: Any) -> Any:
        result = drawn(skidl, circuit, shape, chain)
        t = skidl.Pin.types
        part = skidl.Part(
            tool=skidl.SKIDL, name="probe", ref_prefix="X", circuit=circuit,
            pins=[skidl.Pin(num=1, name="IN", func=t.INPUT),
                  skidl.Pin(num=2, name="OUT", func=t.OUTPUT)],
        )  # fmt: skip
        floating = skidl.Net("FLOATING", circuit=circuit)
        floating += part["IN"]  # an input nothing drives: one ERC finding
        part["OUT"] += circuit.NC
        return result

    monkeypatch.setattr(netlist, "_draw", with_a_floating_input)
    profile = load_profile("double-take-pico")
    first = netlist.build_netlist(profile, tmp_path / "a.net")
    second = netlist.build_netlist(profile, tmp_path / "b.net")
    assert first.errors + first.warnings > 0
    assert (second.errors, second.warnings) == (first.errors, first.warnings)


def test_without_skidl_the_netlist_command_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real_import = builtins.__import__

    def no_skidl(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "skidl" or name.startswith("skidl."):
            raise ModuleNotFoundError("No module named 'skidl'", name="skidl")
        return real_import(name, *args, **kwargs)

    for name in [m for m in sys.modules if m == "skidl" or m.startswith("skidl.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(builtins, "__import__", no_skidl)
    code = main(["netlist", "double-take-pico", "--kicad", str(tmp_path / "x.net")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "pip install 'tabletop[build]'" in err


def _kind(value: str) -> str | None:
    """The chips and sensors both netlists name alike, by their values."""
    kinds = {"Raspberry Pi Pico": "pico", "Raspberry Pi Pico H": "pico", "74HC595": "595",
             "74HC165": "165", "74AHCT125": "125", "BAT43": "diode", "reed NO": "reed",
             "MDSR-7-15-20": "reed"}  # fmt: skip
    if value.startswith("SK6812MINI"):
        return "led"
    return kinds.get(value)


def test_the_hand_written_netlist_joins_the_pins_kicads_symbols_join(tmp_path: Path) -> None:
    """SKiDL's parts carry pin numbers typed from data sheets; tabletop pcb's come from
    KiCad's symbols by pin name. On every net both name, the chips' and sensors' pins
    must be the same ones (which pins of which kinds of part)."""
    from firmware_bridge.kits import piece_sets
    from wiring.bom import bill_of_materials
    from wiring.pcb.circuit import build_board

    profile = load_profile("double-take-pico")
    path = tmp_path / "board.net"
    netlist.build_netlist(profile, path)
    text = path.read_text(encoding="utf-8")
    values = dict(re.findall(r'\(ref "([^"]+)"\)\s*\(value "([^"]+)"\)', text))
    skidl_nets = {
        name: sorted((k, pin) for ref, pin in pins if (k := _kind(values[ref])) is not None)
        for name, pins in _nets(text).items()
    }
    board = build_board(profile, bill_of_materials(profile, piece_sets()))
    by_ref = {p.ref: p for p in board.parts}
    kicad_nets = {
        name: sorted((k, pin) for ref, pin in pins if (k := _kind(by_ref[ref].value)) is not None)
        for name, pins in board.nets().items()
    }
    shared = sorted(set(skidl_nets) & set(kicad_nets) - {"GND"})
    assert len(shared) > 150  # every row, column, square, LED link and bus
    for name in shared:
        assert skidl_nets[name] == kicad_nets[name], name
    # Ground: the same pins but the Pico's AGND, which the PCB joins through a net tie.
    assert [p for p in skidl_nets["GND"] if p != ("pico", "33")] == kicad_nets["GND"]
