"""Placement and routing of a sensor PCB, by rule: the boards are regular grids.

Two layers, one direction each where they cross: top copper (F.Cu) runs across,
bottom copper (B.Cu) runs down, a via where a net changes layer.

- **The squares.** Each square (pitch p, centre c) holds its reed switch 5 mm above
  the centre, its BAT43 below the switch, its LED 6 mm below the centre and the
  LED's capacitor beside it. A column's wire runs down on B.Cu through the switches'
  first leads; a row's wire runs across on F.Cu 9 mm above the centres, each diode's
  cathode climbing to it on B.Cu. The LED chain runs along a row and back along the
  next (serpentine): on rows that run right each LED is turned 180°, the data line
  below the LEDs, ground above and 5 V below; on rows that run left the other way
  about (a row runs the way the chain's steps along it go). Every row's two rails
  reach two buses down the right margin, where the feed terminals stand; the chain
  turns at the row ends on B.Cu. Where it jumps between squares that are not
  neighbours along a row (the racks' seats after the spares), it runs on B.Cu from
  beside one LED's data out to a lane of its own across the lower row's upper half,
  along it on F.Cu and on B.Cu again to beside the next LED's data in.
- **The controller.** Below the squares, a row of parts (the Pico, the shift
  registers, the buffer, resistors, capacitors, connectors) between two channels.
  Each pad on a part's upper side climbs on B.Cu to its net's trunk, a track across
  on F.Cu in the channel above; a pad on its lower side drops to its net's trunk in
  the channel below; a net with pads on both sides joins its two trunks on B.Cu in
  a link zone left free of parts. The wires that come down from the squares
  (columns, rows, the chain's data, the buses) reach their trunks at x positions
  half a 2.54 mm pitch from every part's pads, so no two wires running down ever
  meet. The LED supply's inlet, fuse and bulk capacitor stand right of the buses.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from msgspec import Struct, field

from wiring.errors import NetlistError
from wiring.pcb.circuit import Board, Part
from wiring.pcb.geometry import Pad, placed_box, placed_pads

PITCH = 2.54
ARRIVAL_PHASE = 1.27
"""Wires coming down into the channel sit at x ≡ 1.27 (mod 2.54); pads at x ≡ 0."""
PAD_PHASE_SLACK = 0.17
SIGNAL_W, POWER_W, RAIL_W, BUS_W = 0.25, 1.0, 1.2, 2.0
VIA, VIA_DRILL, POWER_VIA, POWER_DRILL = 0.6, 0.3, 1.0, 0.5
POWER_NETS = ("+5V_LED", "+5V_LED_IN", "GND")
TOP_MARGIN = 10.0
RIGHT_MARGIN = 24.0
LANE_PITCH = 1.0


class Layout(Struct):
    footprints: list[dict[str, Any]] = field(default_factory=list)
    tracks: list[dict[str, Any]] = field(default_factory=list)
    vias: list[dict[str, Any]] = field(default_factory=list)
    texts: list[dict[str, Any]] = field(default_factory=list)
    outline: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    placed: dict[str, tuple[float, float, float]] = field(default_factory=dict)

    def track(self, net: str, layer: str, x1: float, y1: float, x2: float, y2: float,
              width: float = SIGNAL_W) -> None:  # fmt: skip
        if (round(x1, 4), round(y1, 4)) == (round(x2, 4), round(y2, 4)):
            return
        self.tracks.append({"net": net, "layer": layer, "x1": round(x1, 4), "y1": round(y1, 4),
                            "x2": round(x2, 4), "y2": round(y2, 4), "width": width})  # fmt: skip

    def path(self, net: str, layer: str, points: list[tuple[float, float]],
             width: float = SIGNAL_W) -> None:  # fmt: skip
        for (ax, ay), (bx, by) in itertools.pairwise(points):
            self.track(net, layer, ax, ay, bx, by, width)

    def via(self, net: str, x: float, y: float, power: bool = False) -> None:
        self.vias.append({"net": net, "x": round(x, 4), "y": round(y, 4),
                          "size": POWER_VIA if power else VIA,
                          "drill": POWER_DRILL if power else VIA_DRILL})  # fmt: skip


def _phase_ok(x: float) -> bool:
    r = x % PITCH
    return r <= PAD_PHASE_SLACK or r >= PITCH - PAD_PHASE_SLACK


def _arrival_x(x: float) -> float:
    """The x of phase 1.27 nearest ``x``."""
    return round((x - ARRIVAL_PHASE) / PITCH) * PITCH + ARRIVAL_PHASE


def _is_power(net: str) -> bool:
    return net in POWER_NETS


class _Channel:
    """A routing channel: trunks across on F.Cu, one track per net (packed)."""

    def __init__(self) -> None:
        self.points: dict[str, list[float]] = {}

    def add(self, net: str, x: float) -> None:
        self.points.setdefault(net, []).append(x)

    def assign(self, top: float) -> tuple[dict[str, float], float]:
        """Each net's trunk y from ``top`` down; returns them and the channel's bottom."""
        spans = sorted(
            ((min(xs), max(xs), net) for net, xs in self.points.items()), key=lambda s: s[0]
        )
        tracks: list[list[tuple[float, float, str]]] = []
        for lo, hi, net in spans:
            for row in tracks:
                if row[-1][1] + 2.5 < lo and _is_power(row[-1][2]) == _is_power(net):
                    row.append((lo, hi, net))
                    break
            else:
                tracks.append([(lo, hi, net)])
        ys: dict[str, float] = {}
        y = top
        previous = 0.0
        for row in tracks:
            size = max((BUS_W if _is_power(n) else VIA) for _lo, _hi, n in row)
            y += previous / 2 + size / 2 + 0.3
            for _lo, _hi, net in row:
                ys[net] = y
            previous = size
        return ys, y + previous / 2 + 0.3


def layout_board(board: Board, pitch: float) -> Layout:
    """Place and route ``board`` at ``pitch`` mm a square."""
    if pitch < 21:
        raise NetlistError(f"a square of {pitch} mm is too small for the switch, diode and LED")
    out = Layout()
    rows, columns = board.shape.rows, board.shape.columns
    by_square: dict[str, list[Part]] = {}
    for part in board.parts:
        if part.square:
            by_square.setdefault(part.square, []).append(part)
    leds = [p for p in board.parts if p.lib_id == "LED:SK6812MINI"]
    index = {cell: i for i, cell in enumerate(board.cells)}
    rightwards = _row_directions(board, leds, index, rows, columns)
    lanes = [f"ROW{r + 1}" for r in range(rows)] + (["LED_DIN1"] if leds else [])
    lane_x = {net: 6.0 + i * LANE_PITCH for i, net in enumerate(lanes)}
    left = max(6.0 + len(lanes) * LANE_PITCH + 11.0 - pitch / 2, 12.0)
    left = math.ceil(left / PITCH) * PITCH
    matrix_right = left + columns * pitch
    avoid = [_arrival_x(left + (c + 0.5) * pitch - 8.89) for c in range(columns)]
    ctl = _row_x(board, lane_x, avoid)
    x_v = _arrival_x(max(matrix_right + 6.0, ctl.links_end + 4.0))
    x_g = x_v + 2 * PITCH

    def centre(r: int, c: int) -> tuple[float, float]:
        return left + (c + 0.5) * pitch, TOP_MARGIN + (r + 0.5) * pitch

    rail_y: dict[tuple[int, str], float] = {}
    for r in range(rows):
        _, cy = centre(r, 0)
        if rightwards[r]:
            rail_y[(r, "GND")], rail_y[(r, "+5V_LED")] = cy + 3.2, cy + 9.6
        else:
            rail_y[(r, "+5V_LED")], rail_y[(r, "GND")] = cy + 2.4, cy + 8.8
    led_at: dict[int, tuple[int, int]] = {}
    for cell, parts in by_square.items():
        r, c = divmod(index[cell], columns)
        cx, cy = centre(r, c)
        for part in parts:
            if part.lib_id == "Switch:SW_Reed":
                _put(out, board, part, cx - 8.89, cy - 5.0, 0)
                out.track(part.nets["2"], "B.Cu", cx + 8.89, cy - 5.0, cx + 8.89, cy - 0.5)
            elif part.lib_id == "Diode:BAT43":
                _put(out, board, part, cx + 1.27, cy - 0.5, 0)
                row = part.nets["1"]
                out.track(row, "B.Cu", cx + 1.27, cy - 0.5, cx + 1.27, cy - 9.0)
                out.via(row, cx + 1.27, cy - 9.0)
            elif part.lib_id == "LED:SK6812MINI":
                _put(out, board, part, cx - 3.0, cy + 6.0, 180 if rightwards[r] else 0)
                led_at[int(part.nets["3"].removeprefix("LED_DIN")) - 1] = (r, c)
                top5, topg = (cx - 1.25, cy + 5.125), (cx - 4.75, cy + 6.875)
                if rightwards[r]:  # VSS top right → GND above; VDD bottom left → 5 V below
                    out.track("GND", "F.Cu", *top5, cx - 1.25, rail_y[(r, "GND")], 0.5)
                    out.track("+5V_LED", "F.Cu", *topg, cx - 4.75, rail_y[(r, "+5V_LED")], 0.5)
                else:  # VDD top right → 5 V above; VSS bottom left → GND below
                    out.track("+5V_LED", "F.Cu", *top5, cx - 1.25, rail_y[(r, "+5V_LED")], 0.5)
                    out.track("GND", "F.Cu", *topg, cx - 4.75, rail_y[(r, "GND")], 0.5)
            else:  # the LED's capacitor, pin 1 to 5 V through a via, pin 2 to GND
                even = rightwards[r]
                _put(out, board, part, cx + 4.5, cy + 6.0, 90 if even else 270)
                y1 = cy + (6.775 if even else 5.225)
                y2 = cy + (5.225 if even else 6.775)
                out.track("GND", "F.Cu", cx + 4.5, y2, cx + 4.5, rail_y[(r, "GND")], 0.5)
                out.path("+5V_LED", "F.Cu", [(cx + 4.5, y1), (cx + 5.8, y1)], 0.5)
                out.via("+5V_LED", cx + 5.8, y1)
                out.track("+5V_LED", "B.Cu", cx + 5.8, y1, cx + 5.8, rail_y[(r, "+5V_LED")], 0.5)
                out.via("+5V_LED", cx + 5.8, rail_y[(r, "+5V_LED")])
        out.texts.append({"text": cell, "x": cx + 6.0, "y": cy - 8.2, "size": 1.0})
    # Rows, rails and the chain's turns.
    bottom = TOP_MARGIN + rows * pitch
    for r in range(rows):
        cx0, cy = centre(r, 0)
        last_x, _ = centre(r, columns - 1)
        net = f"ROW{r + 1}"
        out.track(net, "F.Cu", lane_x[net], cy - 9.0, last_x + 1.27, cy - 9.0)
        out.via(net, lane_x[net], cy - 9.0)
        for rail, bus in (("+5V_LED", x_v), ("GND", x_g)):
            if leds:
                y = rail_y[(r, rail)]
                out.track(rail, "F.Cu", cx0 - 5.5, y, bus, y, RAIL_W)
                out.via(rail, bus, y, power=True)
    for c in range(columns):
        cx, cy = centre(0, c)
        x = cx - 8.89
        out.track(f"COL{c + 1}", "B.Cu", x, cy - 5.0, x, bottom + 1.0)
    if leds:
        _chain(out, leds, led_at, centre, lane_x, rightwards, columns)
    # Buses down the right margin, feed terminals on them.
    feeds = [p for p in board.parts if p.value.startswith("5V feed")]
    if leds:
        y_top = min([*rail_y.values(), *(centre(0, 0)[1] - 3.0 for _ in feeds[:1])])
        for rail, bus in (("+5V_LED", x_v), ("GND", x_g)):
            out.track(rail, "B.Cu", bus, y_top, bus, bottom + 1.0, BUS_W)
    feeds = [p for p in board.parts if p.value.startswith("5V feed")]
    per_feed = _per_feed(feeds, leds)
    for k, part in enumerate(feeds):
        r = min(rows - 1, (k * per_feed) // columns)
        _, cy = centre(r, 0)
        _put(out, board, part, x_v, cy - 3.0, 0)
    _controller(out, board, ctl, x_v, x_g, lane_x, bottom, centre, pitch)
    return out


class _Row(Struct):
    rows: list[list[Part]]
    special: list[Part]
    rotation: dict[str, float]
    xs: dict[str, float]
    link_xs: list[float]
    links_end: float


ROWS_OF_PARTS = 2
"""The controller's parts stand in two rows, three channels around them."""


def _sides(part: Part, x: float, rotation: float) -> list[tuple[str, Pad, bool]]:
    """(number, pad, on the lower side?) of each connected pad, with its courtyard top
    at y = 0."""
    box = placed_box(part.footprint, x, 0.0, rotation)
    pads = placed_pads(part.footprint, x, -box[1], rotation)
    ys = [p.y for g in pads.values() for p in g]
    mid = (min(ys) + max(ys)) / 2
    flat = max(ys) - min(ys) < 0.01
    return [
        (n, p, not flat and p.y > mid + 0.01)
        for n, g in pads.items()
        for p in g
        if part.nets.get(n)
    ]


def _upright(part: Part) -> float:
    """A part's turn in the controller's row: its pads in at most two rows across, so
    each pad's wire leaves straight up or down past no other pad."""
    pads = [p for g in placed_pads(part.footprint, 0.0, 0.0, 0.0).values() for p in g]
    xs, ys = [p.x for p in pads], [p.y for p in pads]
    return 90.0 if max(ys) - min(ys) > max(xs) - min(xs) else 0.0


LINK_PITCH = PITCH / 2
"""Links stand 1.27 mm apart (a 1.0 mm supply track beside a 1.0 mm via keeps 0.27 mm),
never within 1.2 mm of a column's wire coming down."""


def _link_xs(start: float, count: int, avoid: list[float]) -> list[float]:
    xs: list[float] = []
    x = start
    while len(xs) < count:
        if all(abs(x - a) >= 1.2 for a in avoid):
            xs.append(round(x, 4))
        x += LINK_PITCH
    return xs


def _row_x(board: Board, lane_x: dict[str, float], avoid: list[float]) -> _Row:
    """The controller's parts' x: two rows, the first's pads on the 2.54 grid, the
    second's half a pitch off it (so no two pads' wires meet in the channel between),
    courtyards 2 mm apart; then a link zone for the nets that cross a row."""
    power_zone = ("Fuse:", "NetTie:")
    parts = [p for p in board.parts if not p.square and not p.value.startswith("5V feed")]
    regular = [
        p
        for p in parts
        if not p.footprint.startswith(power_zone)
        and not p.value.endswith("A in")
        and p.value != "1000uF"
    ]
    special = [p for p in parts if p not in regular]
    rotation = {p.ref: _upright(p) for p in parts}
    start = max(lane_x.values(), default=0.0) + 4.0
    widths: dict[str, float] = {}
    for p in regular:
        box = placed_box(p.footprint, 0.0, 0.0, rotation[p.ref])
        widths[p.ref] = box[2] - box[0] + 2.0
    half = sum(widths.values()) / ROWS_OF_PARTS
    rows: list[list[Part]] = [[]]
    used = 0.0
    for part in regular:
        if used >= half and len(rows) < ROWS_OF_PARTS:
            rows.append([])
            used = 0.0
        rows[-1].append(part)
        used += widths[part.ref]
    xs: dict[str, float] = {}
    end = start
    touched: dict[str, set[int]] = {}
    for k, row in enumerate(rows):
        cursor = start
        for part in row:
            cursor = _fit(part, rotation[part.ref], cursor, phase=(k % 2) * ARRIVAL_PHASE)
            xs[part.ref] = cursor
            for number, _pad, lower in _sides(part, cursor, rotation[part.ref]):
                touched.setdefault(part.nets[number], set()).add(k + (1 if lower else 0))
            cursor = placed_box(part.footprint, cursor, 0.0, rotation[part.ref])[2] + 2.0
        end = max(end, cursor)
    for net, where in touched.items():
        if net.startswith(("ROW", "COL")) or net in ("LED_DIN1", *POWER_NETS):
            where.add(0)
    for part in special:
        for net in part.nets.values():
            if net:
                touched.setdefault(net, set()).add(0)
    links = sum(len(t) - 1 for t in touched.values())
    link_start = math.ceil((end + 1.0) / PITCH) * PITCH
    spots = _link_xs(link_start, links, avoid)
    return _Row(rows, special, rotation, xs, spots, (spots[-1] if spots else link_start) + 2.0)


def _per_feed(feeds: list[Part], leds: list[Part]) -> int:
    return max(1, math.ceil(len(leds) / max(1, len(feeds))))


def _row_directions(
    board: Board, leds: list[Part], index: dict[str, int], rows: int, columns: int
) -> list[bool]:
    """Whether the chain runs rightwards along each row (its LEDs turned for that):
    as its steps from one square to the next in the row go, else alternating."""
    rightwards = [r % 2 == 0 for r in range(rows)]
    order = [p.square for p in sorted(leds, key=lambda p: int(p.nets["3"][7:]))]
    seen: dict[int, set[bool]] = {}
    for a, b in itertools.pairwise(order):
        (r, c), (r2, c2) = divmod(index[a], columns), divmod(index[b], columns)
        if r == r2 and abs(c2 - c) == 1:
            seen.setdefault(r, set()).add(c2 > c)
    for r, ways in seen.items():
        if len(ways) > 1:
            raise NetlistError(
                f"the [leds] chain runs both ways along row {r + 1}: tabletop pcb lays each "
                "row's LEDs out one way (run the chain one way along a row)"
            )
        rightwards[r] = ways.pop()
    return rightwards


HOP_LANES = (-7.2, -3.0, -2.0, 1.5)
"""Where (mm from a square's centre, down) the chain's jumps cross a row on F.Cu, in
the row's upper half: clear of the switch's pads (5 mm up), the diode's (0.5 mm up),
the row's wire (9 mm up) and the ground rail (3.2 mm down), 1 mm or more apart."""


def _hops(
    out: Layout,
    hops: list[tuple[str, tuple[int, int], tuple[int, int]]],
    centre: Any,
    rightwards: list[bool],
) -> None:
    """The chain's jumps between squares that are not neighbours along a row (a rack's
    first slot after the spares, a slot past a spare): from the LED's data out down
    through a via, on B.Cu to a lane across the lower of the two rows, along it on
    F.Cu, on B.Cu to beside the next LED's data in. No two jumps share a lane, nor a
    stretch of B.Cu at one x."""
    used: dict[int, int] = {}
    verticals: dict[float, list[tuple[float, float, str]]] = {}
    for net, (r, c), (r2, c2) in hops:
        if not (rightwards[r] and rightwards[r2]):
            raise NetlistError(
                f"tabletop pcb jumps the LED chain only between rows that run rightwards; "
                f"{net} leaves row {r + 1} or enters row {r2 + 1} running leftwards"
            )
        row = max(r, r2)
        k = used.get(row, 0)
        if k >= len(HOP_LANES):
            raise NetlistError(
                f"row {row + 1} has room for {len(HOP_LANES)} jumps of the LED chain, "
                f"not {k + 1}: run the [leds] chain through fewer non-neighbouring squares"
            )
        used[row] = k + 1
        sx, sy = centre(r, c)
        tx, ty = centre(r2, c2)
        lane = centre(row, 0)[1] + HOP_LANES[k]
        ex, ey = sx - 1.25, sy + 8.0  # below the data out (bottom right when turned)
        nx, ny = tx - 6.5, ty + 5.125  # left of the data in (top left)
        for x, a, b in ((ex, ey, lane), (nx, lane, ny)):
            lo, hi = min(a, b), max(a, b)
            for lo2, hi2, other in verticals.get(round(x, 3), []):
                if lo < hi2 + 1.0 and lo2 < hi + 1.0:
                    raise NetlistError(
                        f"the LED chain's jumps {other} and {net} would share B.Cu at "
                        f"x = {x:.2f} mm: reorder the [leds] chain"
                    )
            verticals.setdefault(round(x, 3), []).append((lo, hi, net))
        out.track(net, "F.Cu", sx - 1.25, sy + 6.875, ex, ey)
        out.via(net, ex, ey)
        out.track(net, "B.Cu", ex, ey, ex, lane)
        out.via(net, ex, lane)
        out.track(net, "F.Cu", ex, lane, nx, lane)
        out.via(net, nx, lane)
        out.track(net, "B.Cu", nx, lane, nx, ny)
        out.via(net, nx, ny)
        out.track(net, "F.Cu", nx, ny, tx - 4.75, ny)


def _chain(
    out: Layout,
    leds: list[Part],
    led_at: dict[int, tuple[int, int]],
    centre: Any,
    lane_x: dict[str, float],
    rightwards: list[bool],
    columns: int,
) -> None:
    count = len(leds)
    if led_at[0] != (0, 0) or not rightwards[0]:
        raise NetlistError(
            "tabletop pcb starts the LED chain at the first square, running along the "
            "first row; this profile's [leds] chain starts elsewhere"
        )
    hops: list[tuple[str, tuple[int, int], tuple[int, int]]] = []
    for i in range(count - 1):
        net = f"LED_DIN{i + 2}"
        r, c = led_at[i]
        r2, c2 = led_at[i + 1]
        cx, cy = centre(r, c)
        nx, ny = centre(r2, c2)
        right = rightwards[r]
        end = columns - 1 if right else 0
        if r2 == r and right and c2 == c + 1:  # DOUT bottom right → next DIN top left
            out.path(net, "F.Cu", [(cx - 1.25, cy + 6.875), (cx - 1.25, cy + 8.0),
                                   (nx - 6.5, cy + 8.0), (nx - 6.5, cy + 5.125),
                                   (nx - 4.75, cy + 5.125)])  # fmt: skip
        elif r2 == r and not right and c2 == c - 1:  # DOUT top left → next DIN bottom right
            out.path(net, "F.Cu", [(cx - 4.75, cy + 5.125), (cx - 4.75, cy + 4.0),
                                   (nx + 0.5, cy + 4.0), (nx + 0.5, cy + 6.875),
                                   (nx - 1.25, cy + 6.875)])  # fmt: skip
        elif r2 != r + 1 or c2 != c or c != end or rightwards[r2] == right:
            hops.append((net, (r, c), (r2, c2)))
        elif right:  # the right end: down the margin to the next row
            xj = cx + 10.3
            out.path(net, "F.Cu", [(cx - 1.25, cy + 6.875), (cx - 1.25, cy + 8.0),
                                   (xj, cy + 8.0)])  # fmt: skip
            out.via(net, xj, cy + 8.0)
            out.track(net, "B.Cu", xj, cy + 8.0, xj, ny + 4.0)
            out.via(net, xj, ny + 4.0)
            out.path(net, "F.Cu", [(xj, ny + 4.0), (nx + 0.5, ny + 4.0), (nx + 0.5, ny + 6.875),
                                   (nx - 1.25, ny + 6.875)])  # fmt: skip
        else:  # the left end
            xj = cx - 10.3
            out.path(net, "F.Cu", [(cx - 4.75, cy + 5.125), (cx - 4.75, cy + 4.0),
                                   (xj, cy + 4.0)])  # fmt: skip
            out.via(net, xj, cy + 4.0)
            out.track(net, "B.Cu", xj, cy + 4.0, xj, ny + 8.0)
            out.via(net, xj, ny + 8.0)
            out.path(net, "F.Cu", [(xj, ny + 8.0), (nx - 6.5, ny + 8.0), (nx - 6.5, ny + 5.125),
                                   (nx - 4.75, ny + 5.125)])  # fmt: skip
    _hops(out, hops, centre, rightwards)
    cx, cy = centre(0, 0)
    x = lane_x["LED_DIN1"]
    out.via("LED_DIN1", x, cy + 8.0)
    out.path("LED_DIN1", "F.Cu", [(x, cy + 8.0), (cx - 6.5, cy + 8.0), (cx - 6.5, cy + 5.125),
                                  (cx - 4.75, cy + 5.125)])  # fmt: skip


def _put(out: Layout, board: Board, part: Part, x: float, y: float, rotation: float) -> None:
    from wiring.pcb.schematic import symbol_uuid

    if part.footprint.startswith("tabletop:"):
        library, nick = "tabletop.pretty", "tabletop"
    else:
        nick = part.footprint.split(":", 1)[0]
        library = f"{{share}}/footprints/{nick}.pretty"
    name = part.footprint.split(":", 1)[1]
    fields = {}
    if part.line is not None:
        fields = {"Manufacturer": part.line.maker, "MPN": part.line.reference,
                  "Mouser": part.line.distributor}  # fmt: skip
    out.footprints.append({
        "library": library, "lib_nick": nick, "name": name, "ref": part.ref,
        "value": part.value, "path": f"/{symbol_uuid(board, part.ref)}",
        "x": round(x, 4), "y": round(y, 4), "rotation": rotation,
        "pads": {k: f"/{v}" if v else _unconnected(part, k) for k, v in part.nets.items()},
        "fields": fields,
    })  # fmt: skip
    out.placed[part.ref] = (x, y, rotation)


def _unconnected(part: Part, number: str) -> str:
    """The net KiCad's schematic gives a pin with a no-connect flag."""
    name = part.sym.pin(number).name
    middle = "" if name == "~" else f"{name}-"
    return f"unconnected-({part.ref}-{middle}Pad{number})"


def _controller(
    out: Layout,
    board: Board,
    row: _Row,
    x_v: float,
    x_g: float,
    lane_x: dict[str, float],
    bottom: float,
    centre: Any,
    pitch: float,
) -> None:
    """The controller's parts in rows under the squares, routed through the channels
    above, between and below them."""
    rotation, xs = row.rotation, dict(row.xs)
    channels = [_Channel() for _ in range(len(row.rows) + 1)]
    stubs: list[tuple[Part, Pad, int]] = []  # pad (courtyard top at 0), its channel
    row_of: dict[str, int] = {}
    for k, parts in enumerate(row.rows):
        for part in parts:
            row_of[part.ref] = k
            for number, pad, lower in _sides(part, xs[part.ref], rotation[part.ref]):
                channel = k + (1 if lower else 0)
                channels[channel].add(part.nets[number], pad.x)
                stubs.append((part, pad, channel))
    arrivals: dict[str, float] = dict(lane_x)
    for c in range(board.shape.columns):
        cx, _ = centre(0, c)
        arrivals[f"COL{c + 1}"] = _arrival_x(cx - 8.89)
    if any(p.lib_id == "LED:SK6812MINI" for p in board.parts):
        arrivals["+5V_LED"], arrivals["GND"] = x_v, x_g
    for net, x in arrivals.items():
        channels[0].add(net, x)
    # The power zone right of the buses: the inlet, the fuse, the bulk capacitor, the tie.
    cursor = max(x_g + BUS_W, row.links_end) + 4.0
    for part in row.special:
        xs[part.ref] = cursor
        row_of[part.ref] = 0
        for number, pad, _lower in _sides(part, cursor, rotation[part.ref]):
            channels[0].add(part.nets[number], pad.x)
            stubs.append((part, pad, 0))
        cursor = placed_box(part.footprint, cursor, 0.0, rotation[part.ref])[2] + 3.0
    links: list[tuple[str, float, int, int]] = []
    spots = iter(row.link_xs)
    for net in sorted({n for ch in channels for n in ch.points}):
        touched = [k for k, ch in enumerate(channels) if net in ch.points]
        for a, b in itertools.pairwise(touched):
            spot = next(spots, None)
            if spot is None:
                raise NetlistError(f"the link zone has no room left for {net}")
            links.append((net, spot, a, b))
            channels[a].add(net, spot)
            channels[b].add(net, spot)
    # Down the board: channel, row, channel, row, channel.
    trunk_y: list[dict[str, float]] = []
    row_top: list[float] = []
    y = bottom + 3.0
    for k, chan in enumerate(channels):
        ys, y = chan.assign(y)
        trunk_y.append(ys)
        if k < len(row.rows):
            top = y + 1.0
            row_top.append(top)
            lowest = top
            for part in [*row.rows[k], *(row.special if k == 0 else [])]:
                box = placed_box(part.footprint, xs[part.ref], 0.0, rotation[part.ref])
                _put(out, board, part, xs[part.ref], top - box[1], rotation[part.ref])
                lowest = max(lowest, top + box[3] - box[1])
            y = lowest + 1.0
    # Wires from the squares down to their trunks.
    first = trunk_y[0]
    for c in range(board.shape.columns):
        net = f"COL{c + 1}"
        cx, _ = centre(0, c)
        x0, x1 = cx - 8.89, arrivals[net]
        out.path(net, "B.Cu", [(x0, bottom + 1.0), (x1, bottom + 1.0), (x1, first[net])])
        out.via(net, x1, first[net])
    for net, lx in lane_x.items():
        if net.startswith("ROW"):
            start = TOP_MARGIN + (int(net[3:]) - 0.5) * pitch - 9.0
        else:
            start = centre(0, 0)[1] + 8.0
        out.track(net, "B.Cu", lx, start, lx, first[net])
        out.via(net, lx, first[net])
    if "+5V_LED" in arrivals:
        for net in ("+5V_LED", "GND"):
            bx = arrivals[net]
            out.track(net, "B.Cu", bx, bottom + 1.0, bx, first[net], BUS_W)
            out.via(net, bx, first[net], power=True)
    # Pads to their trunks, trunks joined across the rows.
    for part, pad, channel in stubs:
        net = next(n for num, n in part.nets.items() if num == pad.number)
        power = _is_power(net)
        py = pad.y + row_top[row_of[part.ref]]
        trunk = trunk_y[channel][net]
        out.track(net, "B.Cu", pad.x, py, pad.x, trunk, POWER_W if power else SIGNAL_W)
        out.via(net, pad.x, trunk, power=power)
    for net, lx, a, b in links:
        power = _is_power(net)
        out.track(net, "B.Cu", lx, trunk_y[a][net], lx, trunk_y[b][net],
                  POWER_W if power else SIGNAL_W)  # fmt: skip
        out.via(net, lx, trunk_y[a][net], power=power)
        out.via(net, lx, trunk_y[b][net], power=power)
    for chan, ys in zip(channels, trunk_y, strict=True):
        for net, points in chan.points.items():
            width = BUS_W if _is_power(net) else (0.5 if net == "+3V3" else SIGNAL_W)
            out.track(net, "F.Cu", min(points), ys[net], max(points), ys[net], width)
    width = max(cursor + 6.0, x_g + RIGHT_MARGIN - 2 * PITCH)
    out.outline = (0.0, 0.0, round(width, 2), round(y + 8.0, 2))


def _fit(part: Part, rotation: float, cursor: float, phase: float) -> float:
    """The first x at or after ``cursor`` where every connected pad of ``part`` sits at
    ``phase`` on the 2.54 mm grid and its courtyard starts at or after ``cursor``."""
    reach = -placed_box(part.footprint, 0.0, 0.0, rotation)[0]
    x = math.ceil((cursor + reach) / PITCH) * PITCH + phase
    for _ in range(400):
        box = placed_box(part.footprint, x, 0.0, rotation)
        pads = placed_pads(part.footprint, x, 0.0, rotation)
        if box[0] >= cursor and all(
            _phase_ok(p.x - phase) for g in pads.values() for p in g if part.nets.get(p.number)
        ):
            return x
        x += 0.01
    raise NetlistError(
        f"no place on the 2.54 mm grid fits the pads of {part.ref} ({part.footprint})"
    )
