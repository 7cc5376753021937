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
from wiring.pcb.parts import OWN, own_part
from wiring.pcb.sexpr import Node, Quoted, child, children, dump, parse

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


OWN_LIBRARY = "tabletop"
"""The project's own symbol library: the parts of wiring/pcb/parts, each drawn from its
data sheet's pin table (a box, pins 1..n/2 down the left, the rest up the right, as a
dual-in-line package's top view)."""


def _font() -> Node:
    return ["effects", ["font", ["size", "1.27", "1.27"]]]


def own_symbol_node(name: str) -> list[Node]:
    """The KiCad symbol of the own part ``name``, from its pin table."""
    pins, footprint, datasheet = own_part(name)
    half = (len(pins) + 1) // 2
    top = 2.54 * (half // 2)  # pins on the 2.54 mm grid
    height = top + 2.54
    body: list[Node] = ["symbol", Quoted(f"{name}_0_1"),
                        ["rectangle", ["start", "-10.16", f"{height:g}"],
                         ["end", "10.16", f"{-height:g}"],
                         ["stroke", ["width", "0.254"], ["type", "default"]],
                         ["fill", ["type", "background"]]]]  # fmt: skip
    unit: list[Node] = ["symbol", Quoted(f"{name}_1_1")]
    for i, (number, pin_name, kind) in enumerate(pins):
        left = i < half
        y = top - 2.54 * (i if left else len(pins) - 1 - i)
        x, angle = (-12.7, "0") if left else (12.7, "180")
        unit.append(["pin", kind, "line", ["at", f"{x:g}", f"{round(y, 4):g}", angle],
                     ["length", "2.54"], ["name", Quoted(pin_name.replace(" ", "_")), _font()],
                     ["number", Quoted(str(number)), _font()]])  # fmt: skip

    def prop(key: str, value: str, y: float, hidden: bool) -> list[Node]:
        effects = [*_font(), ["hide", "yes"]] if hidden else _font()
        return ["property", Quoted(key), Quoted(value), ["at", "0", f"{y:g}", "0"], effects]

    return ["symbol", Quoted(f"{OWN_LIBRARY}:{name}"), ["pin_names", ["offset", "1.016"]],
            ["exclude_from_sim", "no"], ["in_bom", "yes"], ["on_board", "yes"],
            prop("Reference", "U", height + 1.27, False),
            prop("Value", name, -height - 1.27, False),
            prop("Footprint", footprint, 0, True), prop("Datasheet", datasheet, 0, True),
            prop("Description", name, 0, True), body, unit]  # fmt: skip


@cache
def symbol(lib_id: str) -> Symbol:
    """The symbol ``Lib:Name`` of KiCad's libraries, or ``tabletop:Name`` of the
    project's own (wiring/pcb/parts)."""
    lib_name, name = lib_id.split(":", 1)
    if lib_name == OWN_LIBRARY:
        if name not in OWN:
            raise NetlistError(f"the project has no own symbol {name}")
        node = own_symbol_node(name)
    else:
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


def own_library_text(names: list[str]) -> str:
    """The project's own symbol library file (tabletop.kicad_sym) holding ``names``."""
    nodes: list[Node] = ["kicad_symbol_lib", ["version", "20241209"],
                         ["generator", Quoted("tabletop")]]  # fmt: skip
    for name in names:
        node = own_symbol_node(name)
        node[1] = Quoted(name)
        nodes.append(node)
    return dump(nodes) + "\n"


def footprint_file(footprint: str) -> Path:
    """The .kicad_mod file of ``Lib:Name`` in KiCad's footprint libraries."""
    lib, name = footprint.split(":", 1)
    return KICAD_SHARE / "footprints" / f"{lib}.pretty" / f"{name}.kicad_mod"
