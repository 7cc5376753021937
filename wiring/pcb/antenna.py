"""The radio's antennas as KiCad footprints, made from their geometry
(``wiring.rf.design``: one single-turn loop per row on L1 and per column on L2, its
trace centre lines and width in ``Antenna.segments``), so the copper is the loop the
ngspice model and the field calculations of docs/rf.md were made for.

A loop's footprint: its trace as one copper polygon on its layer (L1 is KiCad's F.Cu, L2 the
first inner layer In1.Cu of a 4-layer board), and two plated pads at the loop's open
first corner, where the PIN diode (pad 1, the loop's start, the diode's cathode) and
the far-end capacitor (pad 2, the loop's end) connect. The loop's last side stops
``GAP_MM`` short of the corner so the two pads stand apart; the gap is bridged by those
parts. Both pads go through every layer (a column loop on In1.Cu reaches its parts on
the top). The footprint is a net tie of its two pads (KiCad's ``net_tie_pad_groups``):
its copper joins two nets on purpose, being an inductor.
"""

from __future__ import annotations

import itertools
import math

from wiring.pcb.sexpr import Node, dump, q
from wiring.rf.design import Antenna

LAYERS = {"L1": "F.Cu", "L2": "In1.Cu"}
"""The design's copper layers as KiCad's: rows on the top, columns on the first inner
layer (0.1 mm under it on a 3313-prepreg 4-layer stack-up, docs/hardware.md)."""

GAP_MM = 2.0
"""How far the loop's last side stops short of its first corner."""

PAD_MM, DRILL_MM = 1.2, 0.6


def footprint_name(a: Antenna) -> str:
    return f"Loop_{a.name}"


def _mm(v: float) -> str:
    return f"{round(v, 4):g}"


def loop_lines(a: Antenna) -> list[tuple[float, float, float, float]]:
    """The loop's copper in the footprint's frame (mm, the first corner at the origin):
    the design's segments, the last one ``GAP_MM`` short."""
    x0, y0 = a.segments[0].start[0] * 1e3, a.segments[0].start[1] * 1e3
    lines = []
    for i, s in enumerate(a.segments):
        ax, ay = s.start[0] * 1e3 - x0, s.start[1] * 1e3 - y0
        bx, by = s.end[0] * 1e3 - x0, s.end[1] * 1e3 - y0
        if i == len(a.segments) - 1:
            length = abs(bx - ax) + abs(by - ay)
            if length <= GAP_MM:
                raise ValueError(f"antenna {a.name}'s last side is shorter than the gap")
            f = (length - GAP_MM) / length
            bx, by = ax + (bx - ax) * f, ay + (by - ay) * f
        lines.append((round(ax, 4), round(ay, 4), round(bx, 4), round(by, 4)))
    return lines


def trace_outline(
    lines: list[tuple[float, float, float, float]], width: float
) -> list[tuple[float, float]]:
    """The copper of a trace ``width`` wide along ``lines`` (a path of straight runs
    meeting at right angles) as one polygon: its left edge out, its right edge back,
    mitred at the corners, cut square at both ends. One shape, so KiCad sees the loop
    as one piece of copper between its two pads."""
    pts = [(lines[0][0], lines[0][1])] + [(ln[2], ln[3]) for ln in lines]
    normals = []
    for (ax, ay), (bx, by) in itertools.pairwise(pts):
        length = math.hypot(bx - ax, by - ay)
        normals.append((-(by - ay) / length, (bx - ax) / length))
    h = width / 2

    def edge(sign: float) -> list[tuple[float, float]]:
        out = []
        for k, (x, y) in enumerate(pts):
            nx = sum(n[0] for n in normals[max(0, k - 1) : k + 1])
            ny = sum(n[1] for n in normals[max(0, k - 1) : k + 1])
            out.append((round(x + sign * h * nx, 4), round(y + sign * h * ny, 4)))
        return out

    return edge(1.0) + edge(-1.0)[::-1]


def origin_mm(a: Antenna) -> tuple[float, float]:
    """Where the footprint's origin (the loop's first corner) lies in the design's frame
    (mm from square A1's top-left corner)."""
    return a.segments[0].start[0] * 1e3, a.segments[0].start[1] * 1e3


def antenna_footprint(a: Antenna) -> str:
    """The .kicad_mod text of antenna ``a``."""
    layer = LAYERS[a.layer]
    width = a.segments[0].width * 1e3
    lines = loop_lines(a)
    end = lines[-1][2:]
    xs = [v for ln in lines for v in (ln[0], ln[2])]
    ys = [v for ln in lines for v in (ln[1], ln[3])]
    m = width / 2 + 0.25
    node: list[Node] = [
        "footprint", q(footprint_name(a)), ["version", "20241229"], ["generator", q("tabletop")],
        ["layer", q("F.Cu")],
        ["descr", q(f"{a.axis} antenna {a.name}: single-turn loop, {width:g} mm trace on "
                    f"{a.layer}, {a.squares} squares, {a.inductance * 1e9:.0f} nH "
                    "(wiring.rf.design, docs/rf.md)")],
        ["tags", q("RFID loop antenna 13.56 MHz")],
        ["property", q("Reference"), q("REF**"), ["at", "0", "-2", "0"], ["layer", q("F.SilkS")],
         ["effects", ["font", ["size", "1", "1"], ["thickness", "0.15"]]]],
        ["property", q("Value"), q(footprint_name(a)), ["at", "0", "2", "0"],
         ["layer", q("F.Fab")], ["effects", ["font", ["size", "1", "1"], ["thickness", "0.15"]]]],
        ["attr", "through_hole", "exclude_from_pos_files", "exclude_from_bom"],
        ["net_tie_pad_groups", q("1,2")],
    ]  # fmt: skip
    points: list[Node] = [["xy", _mm(x), _mm(y)] for x, y in trace_outline(lines, width)]
    band: list[Node] = ["pts", *points]
    node.append(
        ["fp_poly", band, ["stroke", ["width", "0"], ["type", "solid"]], ["fill", "yes"],
         ["layer", q(layer)]]
    )  # fmt: skip
    node.append(
        ["fp_rect", ["start", _mm(min(xs) - m), _mm(min(ys) - m)],
         ["end", _mm(max(xs) + m), _mm(max(ys) + m)],
         ["stroke", ["width", "0.05"], ["type", "solid"]], ["fill", "no"],
         ["layer", q("F.Fab")]]
    )  # fmt: skip
    for number, (x, y) in (("1", (0.0, 0.0)), ("2", end)):
        node.append(
            ["pad", q(number), "thru_hole", "circle", ["at", _mm(x), _mm(y)],
             ["size", _mm(PAD_MM), _mm(PAD_MM)], ["drill", _mm(DRILL_MM)],
             ["layers", q("*.Cu"), q("*.Mask")], ["remove_unused_layers", "no"]]
        )  # fmt: skip
    return dump(node) + "\n"
