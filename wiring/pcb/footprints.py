"""The project's own footprints, for parts KiCad 9's libraries lack, made from their
data sheets' dimensions.

The reed switch: Littelfuse (Hamlin) MDSR-7, data sheet "MDSR-7 12.7mm
Sub-miniature Reed Switch" (Littelfuse, "Dimensions"): glass 12.70 mm long at most,
1.80 mm across, leads 0.47 mm thick. Its leads are bent down 2.54 mm clear of each
end of the glass (the glass seal must not be stressed: bend no nearer than that),
so its holes are 12.70 + 2 × 2.54 = 17.78 mm apart (a 0.7 inch pitch), drilled
0.8 mm for the 0.47 mm lead (IPC-2222's lead + 0.25-0.35 mm), with 1.6 mm pads.
"""

from __future__ import annotations

from msgspec import Struct

from wiring.pcb.sexpr import Node, dump, q


class ReedGeometry(Struct, frozen=True):
    glass_mm: float = 12.70
    glass_dia_mm: float = 1.80
    lead_dia_mm: float = 0.47
    bend_clear_mm: float = 2.54
    drill_mm: float = 0.8
    pad_mm: float = 1.6

    @property
    def pitch_mm(self) -> float:
        return self.glass_mm + 2 * self.bend_clear_mm


MDSR_7 = ReedGeometry()
REED_NAME = "Reed_MDSR-7_P17.78mm"


def _line(x1: float, y1: float, x2: float, y2: float, layer: str, width: float) -> list[Node]:
    return ["fp_line", ["start", f"{x1:g}", f"{y1:g}"], ["end", f"{x2:g}", f"{y2:g}"],
            ["stroke", ["width", f"{width:g}"], ["type", "solid"]],
            ["layer", q(layer)]]  # fmt: skip


def _rect(x1: float, y1: float, x2: float, y2: float, layer: str, width: float) -> list[Node]:
    return ["fp_rect", ["start", f"{x1:g}", f"{y1:g}"], ["end", f"{x2:g}", f"{y2:g}"],
            ["stroke", ["width", f"{width:g}"], ["type", "solid"]], ["fill", "no"],
            ["layer", q(layer)]]  # fmt: skip


def reed_footprint(g: ReedGeometry = MDSR_7) -> str:
    """The reed switch's footprint: pad 1 at the origin, pad 2 ``pitch`` to its right."""
    p = g.pitch_mm
    x0 = (p - g.glass_mm) / 2
    r = g.glass_dia_mm / 2
    pad_r = g.pad_mm / 2
    node: list[Node] = [
        "footprint", q(REED_NAME), ["version", "20241229"], ["generator", q("tabletop")],
        ["layer", q("F.Cu")],
        ["descr", q("Reed switch, Littelfuse MDSR-7 (glass 12.7 x 1.8 mm), leads bent 2.54 mm "
                    "clear of the glass, 17.78 mm pitch; MDSR-7 data sheet, Dimensions")],
        ["tags", q("reed switch THT")],
        ["property", q("Reference"), q("REF**"), ["at", f"{p / 2:g}", "-2.2", "0"],
         ["layer", q("F.SilkS")], ["effects", ["font", ["size", "1", "1"], ["thickness", "0.15"]]]],
        ["property", q("Value"), q(REED_NAME), ["at", f"{p / 2:g}", "2.2", "0"],
         ["layer", q("F.Fab")], ["effects", ["font", ["size", "1", "1"], ["thickness", "0.15"]]]],
        ["attr", "through_hole"],
        _rect(x0, -r, x0 + g.glass_mm, r, "F.Fab", 0.1),
        _line(pad_r + 0.3, 0, x0, 0, "F.Fab", 0.1),
        _line(x0 + g.glass_mm, 0, p - pad_r - 0.3, 0, "F.Fab", 0.1),
        _rect(x0 - 0.12, -r - 0.12, x0 + g.glass_mm + 0.12, r + 0.12, "F.SilkS", 0.12),
        _rect(-pad_r - 0.25, -r - 0.4, p + pad_r + 0.25, r + 0.4, "F.CrtYd", 0.05),
    ]  # fmt: skip
    for number, x in (("1", 0.0), ("2", p)):
        node.append(
            ["pad", q(number), "thru_hole", "circle", ["at", f"{x:g}", "0"],
             ["size", f"{g.pad_mm:g}", f"{g.pad_mm:g}"], ["drill", f"{g.drill_mm:g}"],
             ["layers", q("*.Cu"), q("*.Mask")], ["remove_unused_layers", "no"]]
        )  # fmt: skip
    return dump(node) + "\n"
