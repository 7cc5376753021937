"""KiCad 9's own symbol and footprint libraries (Debian's kicad-symbols and
kicad-footprints): a symbol's pins, read from its library, so no pin map is typed
by hand, and the symbol's text to embed in a schematic."""

from __future__ import annotations

import copy
import os
import shutil
from functools import cache
from pathlib import Path

from msgspec import Struct

from wiring.errors import NetlistError
from wiring.pcb.sexpr import Node, Quoted, child, children, parse

KICAD_SHARE = Path(os.environ.get("TABLETOP_KICAD_SHARE", "/usr/share/kicad"))
INSTALL_KICAD = (
    "install KiCad 9 with its libraries (Debian 12: add bookworm-backports, then "
    "apt-get install -t bookworm-backports kicad kicad-symbols kicad-footprints)"
)


class LibPin(Struct, frozen=True):
    """One pin of a symbol: its number, name, electrical type, unit and its
    connection point in the symbol's coordinates (mm, y up)."""

    number: str
    name: str
    kind: str
    unit: int
    x: float
    y: float
    hidden: bool


class Symbol(Struct, frozen=True):
    """A library symbol: its ``Lib:Name``, units, pins and the flattened text."""

    lib_id: str
    units: int
    pins: tuple[LibPin, ...]
    node: list[Node]
    power: bool

    def pin(self, name_or_number: str) -> LibPin:
        """The pin of that number, else the one pin of that name."""
        by_number = [p for p in self.pins if p.number == name_or_number]
        if by_number:
            return by_number[0]
        named = [p for p in self.pins if p.name == name_or_number]
        if len(named) != 1:
            raise KeyError(f"{self.lib_id} has {len(named)} pins named {name_or_number!r}")
        return named[0]


def require_libraries() -> None:
    """Fail with one line saying what to install when KiCad's libraries are missing."""
    if not (KICAD_SHARE / "symbols" / "Device.kicad_sym").is_file():
        raise NetlistError(
            f"KiCad's symbol libraries are not in {KICAD_SHARE}/symbols: " + INSTALL_KICAD
        )
    if not (KICAD_SHARE / "footprints" / "Resistor_THT.pretty").is_dir():
        raise NetlistError(
            f"KiCad's footprint libraries are not in {KICAD_SHARE}/footprints: " + INSTALL_KICAD
        )


def kicad_cli() -> str:
    """The path of kicad-cli, or a one-line error saying what to install."""
    found = shutil.which("kicad-cli")
    if found is None:
        raise NetlistError("kicad-cli is not installed: " + INSTALL_KICAD)
    return found


@cache
def _library(name: str) -> dict[str, list[Node]]:
    path = KICAD_SHARE / "symbols" / f"{name}.kicad_sym"
    if not path.is_file():
        raise NetlistError(f"KiCad's symbol library {path} is missing: " + INSTALL_KICAD)
    tree = parse(path.read_text(encoding="utf-8"))
    return {str(s[1]): s for s in children(tree, "symbol")}


def _flatten(lib: dict[str, list[Node]], name: str) -> list[Node]:
    node = lib[name]
    extends = child(node, "extends")
    if extends is None:
        return copy.deepcopy(node)
    parent = _flatten(lib, str(extends[1]))
    own_props = {str(p[1]): p for p in children(node, "property")}
    flat: list[Node] = ["symbol", Quoted(name)]
    for item in parent[2:]:
        if isinstance(item, list) and item and item[0] == "property" and str(item[1]) in own_props:
            flat.append(copy.deepcopy(own_props.pop(str(item[1]))))
        elif isinstance(item, list) and item and item[0] == "symbol":
            unit = copy.deepcopy(item)
            unit[1] = Quoted(name + str(item[1])[len(str(parent[1])) :])
            flat.append(unit)
        else:
            flat.append(copy.deepcopy(item))
    for prop in own_props.values():
        flat.insert(2, copy.deepcopy(prop))
    return flat


def _num(x: Node) -> float:
    return float(str(x))


@cache
def symbol(lib_id: str) -> Symbol:
    """The symbol ``Lib:Name`` of KiCad's libraries."""
    lib_name, name = lib_id.split(":", 1)
    lib = _library(lib_name)
    if name not in lib:
        raise NetlistError(f"KiCad's {lib_name} library has no symbol {name}: " + INSTALL_KICAD)
    node = _flatten(lib, name)
    node[1] = Quoted(lib_id)
    pins: list[LibPin] = []
    units = 1
    for unit_node in children(node, "symbol"):
        unit_name = str(unit_node[1])
        unit = int(unit_name.rsplit("_", 2)[-2])
        units = max(units, unit)
        for pin in children(unit_node, "pin"):
            at = child(pin, "at")
            name_node = child(pin, "name")
            number_node = child(pin, "number")
            assert at is not None and name_node is not None and number_node is not None
            hidden = "hide" in pin or any(
                isinstance(x, list) and x[:2] == ["hide", "yes"] for x in pin
            )
            pins.append(
                LibPin(str(number_node[1]), str(name_node[1]), str(pin[1]), unit,
                       _num(at[1]), _num(at[2]), hidden)
            )  # fmt: skip
    power = child(node, "power") is not None
    return Symbol(lib_id, units, tuple(pins), node, power)


def footprint_file(footprint: str) -> Path:
    """The .kicad_mod file of ``Lib:Name`` in KiCad's footprint libraries."""
    lib, name = footprint.split(":", 1)
    return KICAD_SHARE / "footprints" / f"{lib}.pretty" / f"{name}.kicad_mod"
