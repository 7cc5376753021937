"""The radio's edge, placed and routed by rule: every antenna loop where the design puts
it, the RF bus and its ground return along the board's left and top edges, and at each
loop's open corner its PIN diode, far-end capacitors and pull-up.

The RF bus is the design's (``wiring.rf.bus``): two coplanar strips on the top copper,
2 mm wide and 2 mm apart, the bus ``OFFSET_MM`` outside the loops' lead ends and its
ground return outside it, from the matching's corner (top left) down past the rows and
along past the columns. Nothing runs under them but the far-end capacitors' ground
stubs, which cross them at right angles on the bottom copper (about 0.03 pF each).

One antenna's corner, in a frame of its own: u across the edge (0 at the squares' edge,
negative outwards), v along it (0 at the loop's first corner, P1; the loop's end, P2,
2 mm further). Rows have u = x, v = y; columns u = y, v = x.

- The diode (SOD-523) at u = −5.5 on the first corner's line, its cathode wired to P1,
  its anode to the bus.
- The far-end capacitors (0805, one or two) at u = −5.4, 2 mm apart from P2's line on:
  the first wired to P2, the second to the first; each grounded through a via at
  u = −7.45 and a bottom-copper stub to a via on the return strip.
- The pull-up (0805) 2 mm after the last capacitor, wired to it; its other end through
  a via to the bias line, a track on the second inner copper (In2.Cu) at u = −6.35 that
  runs the length of the edge.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct

from wiring.pcb.antenna import footprint_name, origin_mm
from wiring.pcb.library import symbol
from wiring.rf import bus as rfbus
from wiring.rf.design import LEAD_M, Antenna, RadioDesign

BUS_W = rfbus.WIDTH_M * 1e3
LEAD_U = -LEAD_M * 1e3
"""Where the loops' lead ends lie (u, mm): the design's lead past the last square."""
BUS_U = LEAD_U - rfbus.OFFSET_M * 1e3
RETURN_U = BUS_U - (rfbus.WIDTH_M + rfbus.GAP_M) * 1e3
DIODE_U, PART_U = -5.5, -5.4
GROUND_VIA_U, BIAS_U = -7.45, -6.35
STEP = 2.0
SIGNAL_W, BIAS_W, VIA, VIA_DRILL = 0.5, 0.5, 0.6, 0.3

DIODE_FP = "Diode_SMD:D_SOD-523"
CAP_FP = "Capacitor_SMD:C_0805_2012Metric"
RES_FP = "Resistor_SMD:R_0805_2012Metric"


class EdgePart(Struct, frozen=True):
    """One part the edge places: its reference, footprint and pads' nets by number."""

    ref: str
    footprint: str
    pads: dict[str, str]


class Edge(Struct):
    """What the edge adds to a board: footprints (with where and how turned), tracks,
    vias; coordinates in mm on the board."""

    parts: list[tuple[EdgePart, float, float, float]]
    tracks: list[dict[str, Any]]
    vias: list[dict[str, Any]]


def _pads(lib_id: str, pins: dict[str, str]) -> dict[str, str]:
    """Pin names (or numbers) to pad numbers, by the symbol's own table."""
    sym = symbol(lib_id)
    return {sym.pin(key).number: net for key, net in pins.items()}


def lay_out_edge(radio: RadioDesign, x0: float, y0: float) -> Edge:
    """The edge of ``radio`` with square A1's top-left corner at (``x0``, ``y0``) mm."""
    edge = Edge([], [], [])
    ends: dict[str, tuple[float, float]] = {}
    for a in radio.antennas:
        ground, bias = _corner(edge, a, x0, y0)
        old = ends.get(a.axis, (-1e9, -1e9))
        ends[a.axis] = (max(old[0], ground), max(old[1], bias))
    for axis, (ground, bias) in ends.items():
        tap = max(_v0(a) for a in radio.antennas if a.axis == axis)
        _strip(edge, axis, x0, y0, "RF_BUS", BUS_U, BUS_U, tap, BUS_W)
        _strip(edge, axis, x0, y0, "GND", RETURN_U, RETURN_U, ground, BUS_W)
        _strip(edge, axis, x0, y0, "VBIAS", BIAS_U, BIAS_U, bias, BIAS_W, layer="In2.Cu")
    return edge


def _v0(a: Antenna) -> float:
    """P1's v: the loop's first corner along the edge (mm from square A1's corner)."""
    ox, oy = origin_mm(a)
    return oy if a.axis == "row" else ox


def _xy(axis: str, u: float, v: float, x0: float, y0: float) -> tuple[float, float]:
    return (x0 + u, y0 + v) if axis == "row" else (x0 + v, y0 + u)


def _strip(
    edge: Edge, axis: str, x0: float, y0: float, net: str, u: float, v_from: float,
    v_to: float, width: float, layer: str = "F.Cu",
) -> None:  # fmt: skip
    (ax, ay), (bx, by) = _xy(axis, u, v_from, x0, y0), _xy(axis, u, v_to, x0, y0)
    edge.tracks.append({"net": net, "layer": layer, "x1": ax, "y1": ay, "x2": bx, "y2": by,
                        "width": width})  # fmt: skip


def _corner(edge: Edge, a: Antenna, x0: float, y0: float) -> tuple[float, float]:
    """Place and wire ``a``'s loop and corner parts; the v of its last ground via and of
    its bias via."""
    axis = a.axis
    v0 = _v0(a)
    row = axis == "row"

    def at(u: float, v: float) -> tuple[float, float]:
        return _xy(axis, u, v, x0, y0)

    def track(net: str, u1: float, v1: float, u2: float, v2: float, layer: str = "F.Cu",
              width: float = SIGNAL_W) -> None:  # fmt: skip
        (ax, ay), (bx, by) = at(u1, v1), at(u2, v2)
        edge.tracks.append({"net": net, "layer": layer, "x1": ax, "y1": ay, "x2": bx,
                            "y2": by, "width": width})  # fmt: skip

    def via(net: str, u: float, v: float) -> None:
        x, y = at(u, v)
        edge.vias.append({"net": net, "x": x, "y": y, "size": VIA, "drill": VIA_DRILL})

    ox, oy = origin_mm(a)
    loop = EdgePart(f"AE_{a.name}", f"tabletop:{footprint_name(a)}",
                    {"1": a.net_start, "2": a.net_end})  # fmt: skip
    edge.parts.append((loop, x0 + ox, y0 + oy, 0.0))
    # Turned so the pad toward the loop is pad 1 (rows: +x, rotation 180; columns: +y, 90).
    turn = 180.0 if row else 90.0
    diode = EdgePart(f"D_{a.name}", DIODE_FP,
                     _pads("Device:D", {"A": "RF_BUS", "K": a.net_start}))  # fmt: skip
    edge.parts.append((diode, *at(DIODE_U, v0), turn))
    track(a.net_start, DIODE_U + 0.7, v0, LEAD_U, v0)
    track("RF_BUS", DIODE_U - 0.7, v0, BUS_U + 0.5, v0)
    v = v0 + STEP
    track(a.net_end, PART_U + 0.95, v, LEAD_U, v)
    for i, _c in enumerate(a.c_end):
        cap = EdgePart(f"C_END_{a.name}_{i + 1}", CAP_FP,
                       _pads("Device:C", {"1": a.net_end, "2": "GND"}))  # fmt: skip
        edge.parts.append((cap, *at(PART_U, v), turn))
        if i:
            track(a.net_end, PART_U + 0.95, v, PART_U + 0.95, v - STEP)
        track("GND", PART_U - 0.95, v, GROUND_VIA_U, v)
        via("GND", GROUND_VIA_U, v)
        track("GND", GROUND_VIA_U, v, RETURN_U, v, layer="B.Cu")
        via("GND", RETURN_U, v)
        ground = v
        v += STEP
    pull = EdgePart(f"R_PU_{a.name}", RES_FP, _pads("Device:R", {"1": a.net_end, "2": "VBIAS"}))
    edge.parts.append((pull, *at(PART_U, v), turn))
    track(a.net_end, PART_U + 0.912, v, PART_U + 0.95, v - STEP)
    track("VBIAS", PART_U - 0.912, v, BIAS_U, v + 1.4)
    via("VBIAS", BIAS_U, v + 1.4)
    return ground, v + 1.4
