"""The board's schematic as a KiCad 9 .kicad_sch: every part the symbol of its
library, embedded as the library has it, each connected pin carrying a label of its
net (KiCad joins pins of one label name), each pin left open on purpose a
no-connect flag, and a PWR_FLAG on every supply no part's pin drives."""

from __future__ import annotations

import math
import uuid
from pathlib import Path

from wiring.pcb.circuit import Board, Part
from wiring.pcb.library import symbol
from wiring.pcb.sexpr import Node, Quoted, dump, q

GRID = 2.54
NAMESPACE = uuid.UUID("6f1d4a34-5a8e-4d0f-9a57-2b7f3c1e9d10")


def uid(*key: str) -> str:
    """A UUID that is the same each time the project is made (a stable diff)."""
    return str(uuid.uuid5(NAMESPACE, "/".join(key)))


def root_uuid(board: Board) -> str:
    return uid(board.name, "root")


def symbol_uuid(board: Board, ref: str, unit: int = 1) -> str:
    """The UUID of the symbol (unit) ``ref``; the PCB's footprint links to unit 1's."""
    return uid(board.name, "symbol", ref, str(unit))


def _font() -> list[Node]:
    return ["effects", ["font", ["size", "1.27", "1.27"]]]


def _hidden_font() -> list[Node]:
    return ["effects", ["font", ["size", "1.27", "1.27"]], ["hide", "yes"]]


def _mm(v: float) -> str:
    return f"{round(v, 4):g}"


def _property(name: str, value: str, x: float, y: float, hidden: bool) -> list[Node]:
    return ["property", q(name), q(value), ["at", _mm(x), _mm(y), "0"],
            _hidden_font() if hidden else _font()]  # fmt: skip


def _placement(board: Board) -> dict[tuple[str, int], tuple[float, float]]:
    """Where each part's unit goes: the controller's parts in a wide row at the top,
    the squares' parts in a grid below, one cell per square."""
    places: dict[tuple[str, int], tuple[float, float]] = {}
    big = [p for p in board.parts if not p.square]
    x, y = 50.8, 50.8
    row_height = 0.0
    for part in big:
        sym = part.sym
        for unit in range(1, sym.units + 1):
            pins = [p for p in sym.pins if p.unit in (0, unit)]
            width = max((abs(p.x) for p in pins), default=5.08) * 2 + 25.4
            height = max((abs(p.y) for p in pins), default=5.08) * 2 + 15.24
            if x + width > 1000:
                x, y = 50.8, y + row_height
                row_height = 0.0
            places[(part.ref, unit)] = (_snap(x + width / 2), _snap(y + height / 2))
            x += width
            row_height = max(row_height, height)
    y += row_height + 25.4
    squares: dict[str, list[Part]] = {}
    for part in board.parts:
        if part.square:
            squares.setdefault(part.square, []).append(part)
    per_row = max(1, board.shape.columns)
    for i, cell in enumerate(squares):
        cx = 50.8 + (i % per_row) * 76.2
        cy = y + (i // per_row) * 38.1
        for k, part in enumerate(squares[cell]):
            places[(part.ref, 1)] = (_snap(cx + k * 17.78), _snap(cy))
    return places


def _snap(v: float) -> float:
    return round(v / GRID) * GRID


def schematic_text(board: Board, project: str) -> str:
    """The .kicad_sch of ``board`` in the project named ``project``."""
    places = _placement(board)
    lib_ids = sorted({p.lib_id for p in board.parts} | {"power:PWR_FLAG"})
    sheet_w = max(x for x, _y in places.values()) + 100
    sheet_h = max(y for _x, y in places.values()) + 100
    root = root_uuid(board)
    doc: list[Node] = [
        "kicad_sch", ["version", "20250114"], ["generator", q("tabletop")],
        ["generator_version", q("9.0")], ["uuid", q(root)],
        ["paper", q("User"), _mm(math.ceil(sheet_w)), _mm(math.ceil(sheet_h))],
        ["title_block", ["title", q(f"{board.name}: sensor board")],
         ["comment", "1", q("made by tabletop pcb from the board's profile")]],
        ["lib_symbols", *[symbol(lib).node for lib in lib_ids]],
    ]  # fmt: skip
    items: list[Node] = []
    flagged: set[str] = set()
    driven = _driven_nets(board)
    for part in board.parts:
        sym = part.sym
        for unit in range(1, sym.units + 1):
            x, y = places[(part.ref, unit)]
            node: list[Node] = [
                "symbol", ["lib_id", q(part.lib_id)], ["at", _mm(x), _mm(y), "0"],
                ["unit", str(unit)], ["exclude_from_sim", "no"],
                ["in_bom", "yes" if part.line is not None or part.ref.startswith("J") else "no"],
                ["on_board", "yes"], ["dnp", "no"], ["uuid", q(symbol_uuid(board, part.ref, unit))],
                _property("Reference", part.ref, x, y - 7.62, False),
                _property("Value", part.value, x, y + 7.62, False),
                _property("Footprint", part.footprint, x, y, True),
                _property("Datasheet", "", x, y, True),
            ]  # fmt: skip
            if part.line is not None:
                node += [
                    _property("Manufacturer", part.line.maker, x, y, True),
                    _property("MPN", part.line.reference, x, y, True),
                    _property("Mouser", part.line.distributor, x, y, True),
                ]
            for pin in sym.pins:
                if pin.unit in (0, unit):
                    node.append(
                        [
                            "pin",
                            q(pin.number),
                            ["uuid", q(uid(board.name, part.ref, "pin", pin.number))],
                        ]
                    )
            node.append(["instances", ["project", q(project), ["path", q(f"/{root}"),
                         ["reference", q(part.ref)], ["unit", str(unit)]]]])  # fmt: skip
            items.append(node)
            for pin in sym.pins:
                if pin.unit not in (0, unit):
                    continue
                if pin.unit == 0 and unit != 1:
                    continue
                px, py = x + pin.x, y - pin.y
                net = part.nets.get(pin.number, "")
                key = uid(board.name, part.ref, str(unit), pin.number)
                if not net:
                    items.append(["no_connect", ["at", _mm(px), _mm(py)], ["uuid", q(key)]])
                    continue
                items.append(["label", q(net), ["at", _mm(px), _mm(py), "0"],
                              ["effects", ["font", ["size", "1.27", "1.27"]],
                               ["justify", "left", "bottom"]], ["uuid", q(key)]])  # fmt: skip
                if net in driven and net not in flagged:
                    flagged.add(net)
                    items += _power_flag(board, net, px, py, project, root)
    doc += items
    doc.append(["sheet_instances", ["path", q("/"), ["page", q("1")]]])
    doc.append(["embedded_fonts", "no"])
    return dump(doc) + "\n"


def _driven_nets(board: Board) -> set[str]:
    """Nets with a power input on them and no power output: each gets a PWR_FLAG."""
    inputs: set[str] = set()
    outputs: set[str] = set()
    for part in board.parts:
        for pin in part.sym.pins:
            net = part.nets.get(pin.number, "")
            if not net:
                continue
            if pin.kind == "power_in":
                inputs.add(net)
            elif pin.kind == "power_out":
                outputs.add(net)
    return inputs - outputs


def _power_flag(board: Board, net: str, px: float, py: float, project: str, root: str
                ) -> list[Node]:  # fmt: skip
    """A PWR_FLAG beside the first pin of ``net``, joined to it by its own label."""
    ref = f"#FLG{net}"
    x, y = px, py - 12.7
    flag = symbol("power:PWR_FLAG")
    pin = flag.pins[0]
    node: list[Node] = [
        "symbol", ["lib_id", q("power:PWR_FLAG")], ["at", _mm(x), _mm(y), "0"], ["unit", "1"],
        ["exclude_from_sim", "no"], ["in_bom", "no"], ["on_board", "yes"], ["dnp", "no"],
        ["uuid", q(uid(board.name, "flag", net))],
        _property("Reference", ref, x, y - 2.54, True),
        _property("Value", "PWR_FLAG", x, y + 2.54, True),
        _property("Footprint", "", x, y, True),
        _property("Datasheet", "", x, y, True),
        ["pin", q(pin.number), ["uuid", q(uid(board.name, "flag", net, "pin"))]],
        ["instances", ["project", q(project), ["path", q(f"/{root}"), ["reference", q(ref)],
                                              ["unit", "1"]]]],
    ]  # fmt: skip
    label: list[Node] = ["label", q(net), ["at", _mm(x + pin.x), _mm(y - pin.y), "0"],
                         ["effects", ["font", ["size", "1.27", "1.27"]],
                          ["justify", "left", "bottom"]],
                         ["uuid", q(uid(board.name, "flag", net, "label"))]]  # fmt: skip
    return [node, label]


def write_schematic(board: Board, directory: Path, project: str) -> Path:
    path = directory / f"{project}.kicad_sch"
    path.write_text(schematic_text(board, project), encoding="utf-8")
    return path


__all__ = ["Quoted", "schematic_text", "symbol_uuid", "write_schematic"]
