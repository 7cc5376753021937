"""The RFID radio of a board, designed from its profile: antennas, switches, matching,
EMC filter, field-setting attenuator, bias supply and the parts that carry them.

The architecture (docs/rf.md argues it): one ISO/IEC 15693 reader (TRF7962A), one
antenna per row and one per column (rows on the PCB's top copper L1, columns on L2
just under it), each a single-turn loop narrower than its row, switched onto a common
RF bus by a PIN diode in series (BAR67). A selected antenna's diode carries 10 mA of
bias; every other one is reverse-biased by 23 V and is then a 0.35 pF capacitor, so
an unselected loop is open: it neither loads the bus nor carries a relayed current.
The reader's 50 Ω output goes through an EMC low-pass filter and a fixed attenuator
(which sets the field at the tags and isolates the reader from the antennas) to the
50 Ω point, then through one series and one parallel capacitor (shared by all the
antennas) to the bus. Each antenna's far end is grounded for RF by its own capacitor,
sized so that every antenna presents the same reactance to the shared matching.

``design(profile)`` computes all of it; ``RadioDesign`` is the data a PCB generator
reads (parts with values and nets, antenna outlines and trace segments).
"""

from __future__ import annotations

import math

from msgspec import Struct
from msgspec.structs import replace

from ..profile import Profile
from . import bus as rfbus
from . import geometry as g
from .parts import (
    BOOST_PART,
    BOOST_VOUT_MAX,
    BOOST_VREF,
    E12,
    E96,
    F0,
    PIN_DIODE,
    READER,
    SELECT_DRIVER_PART,
    SELECT_DRIVER_VDS_MAX,
    nearest,
    pair,
)

OMEGA = 2 * math.pi * F0

LOOP_WIDTH_M = 7e-3
"""Outer width of an antenna loop (trace centre to trace centre). Narrower than the
21 mm row so that a tag on the next row lies well outside it: docs/rf.md shows the
coupling to a tag on the neighbouring row against this width (the 20 dB rule is met
from 7 mm down with 10 mm tags)."""

TRACE_WIDTH_M = 1.0e-3
"""Antenna trace width, 1 oz copper."""

LEAD_M = 3e-3
"""How far each antenna runs past the last square, on the side where its diode and
end capacitor sit (the board's edge)."""

L2_DEPTH_M = 0.2e-3
"""Depth of copper layer L2 below L1: the column antennas lie there. A 4-layer board
with at most 0.2 mm of prepreg between L1 and L2 (order it so)."""

TAG_SIDE_M = 10e-3
"""The tag's coil: a square of 10 mm mean side (an ISO/IEC 15693 inlay whose coil fits
10 × 10 mm)."""

TAG_HEIGHT_M = 3.0e-3
"""Tag coil above L1: 2 mm board top (docs/hardware.md) and 1 mm of tile base."""

H_TARGET_A_PER_M = 1.0
"""The field the weakest square of a selected antenna gets: 6.7 × the ISO/IEC 15693
Hmin of 0.15 A/m, so that a neighbouring row's tag, 20 dB or more below it, stays
under Hmin."""

EMC_L_TARGET = 50.0 / OMEGA
"""The EMC filter's inductor aims at 50 Ω of reactance at the carrier (0.587 µH, a
quarter-wave 50 Ω line in lumped form); the E12 value nearest it is used and the π's
capacitors are sized to keep the section matched to 50 Ω at 13.56 MHz."""

BIAS_V = 24.0
"""The PIN diodes' bias supply (nfcgameboard uses 24 V for the same job), from a
TPS61040 boost converter on 5 V."""

FEED_R = 1500.0
"""Bias feed from BIAS_V to the RF bus: (24 V − 0.95 V) / 1.5 kΩ = 15.4 mA through the
selected diode (0.35 W: a 2512 resistor); at RF it is a known, stable damping resistor
on the bus. 15 mA rather than 10 mA keeps the diode's stored charge 12 times what one
RF half-cycle moves (``wiring.rf.checks``)."""

PULLUP_R = 100e3
"""Each unselected antenna's far end is pulled to BIAS_V through this: 0.23 mA each, so
the bias supply gives 15.4 mA + 29 × 0.23 mA = 22 mA on a 15 × 15 board; the diode's
20 nA leakage drops 2 mV across it. With the 10 nF far-end capacitor it sets how fast
a released antenna's diode turns off (``deselect_settle_s``)."""

PIN_VF = 0.95
"""BAR67 forward voltage: 0.95 V typ. at IF = 50 mA (Infineon BAR67 datasheet p. 2); at
15 mA it is lower, so this is the most the bus sits above ground."""

C_END_MAX = 10e-9
"""The far-end RF ground of the shortest antennas (C0G, X = −1.17 Ω at 13.56 MHz)."""

FEED_TAP_C = 1e-9
"""DC block from the 50 Ω point to the reader's RX_IN1/RX_IN2 (X = −11.7 Ω)."""


class Part(Struct, frozen=True):
    """One component for the schematic: reference, kind, value (SI units: F, Ω, H; a
    diode's is its bias current, a loop's its inductance), part, and (pin, net) pairs
    (two-terminal parts: pins "1" and "2"; a diode: "A" and "K"; ICs: datasheet pin
    names)."""

    ref: str
    kind: str  # "C", "R", "L", "D", "U", "ANT"
    value: float
    part: str
    pins: tuple[tuple[str, str], ...]
    note: str = ""

    @property
    def nets(self) -> tuple[str, ...]:
        return tuple(net for _, net in self.pins)


class Antenna(Struct, frozen=True):
    """One row or column antenna: where it lies and what it is electrically."""

    name: str
    axis: str  # "row" or "column"
    index: int
    layer: str
    outline_mm: tuple[float, float, float, float]
    segments: tuple[g.Segment, ...]
    inductance: float
    resistance: float
    c_end: tuple[float, ...]
    squares: int
    feed: float = 0.0
    """Where the antenna's diode taps the RF bus: metres along the bus from the matching
    at the board's corner (``wiring.rf.bus``); the tap's stub to the diode is
    ``bus.OFFSET_M`` more."""

    @property
    def feed_length(self) -> float:
        """The bus and stub between the matching and this antenna's diode, metres."""
        return self.feed + rfbus.OFFSET_M

    @property
    def net_start(self) -> str:
        return f"ANT_{self.name}_A"

    @property
    def net_end(self) -> str:
        return f"ANT_{self.name}_B"


class Tag(Struct, frozen=True):
    side: float
    height: float

    def segments(self, cx: float, cy: float, z: float) -> list[g.Segment]:
        h = self.side / 2
        return g.rectangle(cx - h, cy - h, cx + h, cy + h, z, 0.5e-3)


class RadioDesign(Struct, frozen=True):
    """One board's radio: the grid (``rows``, ``columns``, ``pitch`` in metres, square
    (0, 0) at the origin, x along the columns, y down the rows), the tag it is designed
    for, every antenna, the shared RF chain's values (``emc``, ``pad``, ``cs``, ``cp``)
    and every part with its nets (``parts``): what a schematic and PCB generator reads
    (docs/rf.md, "For the PCB generator")."""

    profile: str
    pitch: float
    rows: int
    columns: int
    tag: Tag
    antennas: tuple[Antenna, ...]
    emc: tuple[float, float, float, float, float]  # C1, L1, C2, L2, C3 (two π sections)
    pad_db: int
    pad: tuple[float, float, float]  # shunt, series, shunt
    cs: tuple[float, ...]
    cp: tuple[float, ...]
    tx_power: float
    emc_caps: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    """The EMC filter's end capacitors and its middle one, each as its C0G parts."""
    parts: tuple[Part, ...] = ()

    def antenna(self, name: str) -> Antenna:
        return next(a for a in self.antennas if a.name == name)

    def square_centre(self, row: int, column: int) -> tuple[float, float]:
        return ((column + 0.5) * self.pitch, (row + 0.5) * self.pitch)

    def squares_of(self, a: Antenna) -> list[tuple[int, int]]:
        if a.axis == "row":
            return [(a.index, c) for c in range(self.columns)]
        return [(r, a.index) for r in range(self.rows)]

    def neighbours(self, a: Antenna) -> list[Antenna]:
        return [b for b in self.antennas if b.axis == a.axis and abs(b.index - a.index) == 1]

    def tag_segments(self, row: int, column: int) -> list[g.Segment]:
        """The tag's coil over square (row, column), as the simulation places it."""
        cx, cy = self.square_centre(row, column)
        return self.tag.segments(cx, cy, self.tag.height)


def pitch_of(columns: int) -> float:
    """Square pitch (docs/hardware.md, "Size, top and pieces"): 21 mm on the 15-wide
    boards (19 mm tiles, 2 mm gaps), 30 mm for the Doubles Wild spots."""
    return 21e-3 if columns == 15 else 30e-3


def _antennas(rows: int, columns: int, pitch: float) -> list[Antenna]:
    out: list[Antenna] = []
    inset = (pitch - LOOP_WIDTH_M) / 2
    width, height = columns * pitch, rows * pitch
    for r in range(rows):
        y0, y1 = r * pitch + inset, (r + 1) * pitch - inset
        segs = g.rectangle(-LEAD_M, y0, width + 1e-3, y1, 0.0, TRACE_WIDTH_M)
        feed = y0 + LEAD_M + rfbus.OFFSET_M
        out.append(replace(_antenna(f"R{r + 1}", "row", r, "L1", segs, columns), feed=feed))
    for c in range(columns):
        x0, x1 = c * pitch + inset, (c + 1) * pitch - inset
        # Along y: the first side runs down x0 (rectangle() walks x first, so swap).
        segs = [
            g.Segment(
                (s.start[1], s.start[0], -L2_DEPTH_M), (s.end[1], s.end[0], -L2_DEPTH_M), s.width
            )
            for s in g.rectangle(-LEAD_M, x0, height + 1e-3, x1, 0.0, TRACE_WIDTH_M)
        ]
        feed = x0 + LEAD_M + rfbus.OFFSET_M
        out.append(replace(_antenna(f"C{c + 1}", "column", c, "L2", segs, rows), feed=feed))
    return out


def _antenna(
    name: str, axis: str, index: int, layer: str, segs: list[g.Segment], squares: int
) -> Antenna:
    xs = [p[0] for s in segs for p in (s.start, s.end)]
    ys = [p[1] for s in segs for p in (s.start, s.end)]
    outline = (min(xs) * 1e3, min(ys) * 1e3, max(xs) * 1e3, max(ys) * 1e3)
    return Antenna(
        name,
        axis,
        index,
        layer,
        outline,
        tuple(segs),
        g.inductance(segs),
        g.ac_resistance(segs, F0),
        (),
        squares,
    )


def bus_length(antennas: tuple[Antenna, ...] | list[Antenna]) -> float:
    """The whole bus, both its branches (down the left edge to the last row's tap, along
    the top edge to the last column's), metres."""
    return sum(max((a.feed for a in antennas if a.axis == axis), default=0.0)
               for axis in ("row", "column"))  # fmt: skip


def branch_z(a: Antenna, *, on: bool, r_on: float | None = None) -> complex:
    """Series impedance of one antenna branch at the carrier: diode (on: rf + LS; off:
    its capacitance), loop, far-end capacitor."""
    d = PIN_DIODE
    line = rfbus.line(F0)
    z = complex(
        a.resistance + line.r_per_m * a.feed_length,
        OMEGA * (a.inductance + line.l_per_m * a.feed_length + d.series_l.value),
    )
    z += 1 / (1j * OMEGA * sum(a.c_end))
    if on:
        return z + (d.r_on.value if r_on is None else r_on)
    return z + 1 / (1j * OMEGA * d.c_off.value)


def _match(y_known: complex, r_target: float) -> tuple[float, float]:
    """Cs (series, from the 50 Ω point) and Cp (bus to ground) that turn a bus with
    admittance ``y_known`` into ``r_target`` ohms: Re(1/(Y + jωCp)) = R, then Cs cancels
    the inductive rest."""
    gk, bk = y_known.real, y_known.imag
    if gk >= 1 / r_target:
        raise ValueError("the bus is below the target resistance: no C-C match")
    b = -math.sqrt(gk / r_target - gk * gk)
    cp = (b - bk) / OMEGA
    x = -b / (gk * gk + b * b)
    cs = 1 / (OMEGA * x)
    if cp <= 0:
        raise ValueError("the antennas' own capacitance already exceeds the tuning")
    return cs, cp


def design(profile: Profile) -> RadioDesign:
    """The radio of ``profile`` (an RFID board): raises ValueError for any other."""
    serial = profile.serial
    if serial is None or serial.sensor != "rfid":
        raise ValueError(
            f"profile {profile.name} has no RFID reader: name an RFID profile "
            "(rfid-15x15-pico, rfid-15x15-racks-pico, doubles-wild-rfid-pico)"
        )
    if BOOST_VOUT_MAX.value < BIAS_V or SELECT_DRIVER_VDS_MAX.value < BIAS_V:
        raise ValueError("the bias supply exceeds its converter's or its drivers' rating")
    shape = serial
    pitch = pitch_of(shape.columns)
    ants = _antennas(shape.rows, shape.columns, pitch)
    line = rfbus.line(F0)

    # Equal reactance for the shared matching: the far-end capacitor takes up each
    # antenna's extra inductance (a longer loop, a longer feed) over the least one's.
    def reactance(a: Antenna) -> float:
        return OMEGA * (a.inductance + line.l_per_m * a.feed_length)

    x_ref = min(reactance(a) for a in ants) - 1 / (OMEGA * C_END_MAX)
    trimmed = []
    for a in ants:
        extra = reactance(a) - x_ref
        c_end = (
            pair(1 / (OMEGA * extra)) if extra > 1 / (OMEGA * C_END_MAX) * 1.001 else (C_END_MAX,)
        )
        trimmed.append(replace(a, c_end=c_end))
    ants = trimmed
    ref = ants[0]
    y_bus = 1 / branch_z(ref, on=True) + 1 / FEED_R
    y_bus += sum(1 / branch_z(a, on=False) for a in ants[1:])
    y_bus += 1j * OMEGA * line.c_per_m * bus_length(ants)
    cs_ideal, cp_ideal = _match(y_bus, READER.load.value)
    cs, cp = pair(cs_ideal), pair(cp_ideal)
    r0 = READER.load.value
    c_emc, l_emc = emc_filter(r0)
    c_mid = pair(2 * sum(c_emc))
    tag = Tag(TAG_SIDE_M, TAG_HEIGHT_M)
    tx = READER.tx_power_half.value
    pad_db = _pad_for_field(ants, shape.rows, shape.columns, pitch, tag, y_bus, tx)
    k = 10 ** (pad_db / 20)
    pad = (
        nearest(r0 * (k + 1) / (k - 1), E96),
        nearest(r0 * (k * k - 1) / (2 * k), E96),
        nearest(r0 * (k + 1) / (k - 1), E96),
    )
    radio = RadioDesign(
        profile.name,
        pitch,
        shape.rows,
        shape.columns,
        tag,
        tuple(ants),
        (sum(c_emc), l_emc, sum(c_mid), l_emc, sum(c_emc)),
        pad_db,
        pad,
        cs,
        cp,
        tx,
        (c_emc, c_mid),
    )
    return replace(radio, parts=tuple(_parts(radio)))


def emc_filter(r0: float) -> tuple[tuple[float, ...], float]:
    """One section of the EMC low-pass: a symmetric C-L-C π that is a piece of 50 Ω line
    of electrical length θ at the carrier (X_L = R0·sin θ, B_C = (1 − cos θ)/(R0·sin θ)),
    so the reader sees 50 Ω through it; two in cascade (C-L-2C-L-C, fifth order) make the
    filter. Returns (each end capacitor as a C0G pair, the inductor)."""
    l_emc = nearest(EMC_L_TARGET, E12)
    x = OMEGA * l_emc
    if x >= r0:
        raise ValueError("the EMC inductor's reactance must stay below 50 Ω")
    theta = math.asin(x / r0)
    b = (1 - math.cos(theta)) / (r0 * math.sin(theta))
    return pair(b / OMEGA), l_emc


def own_and_neighbour_mutuals(
    radio_or_ants: RadioDesign | list[Antenna],
    a: Antenna,
    rows: int,
    columns: int,
    pitch: float,
    tag: Tag,
) -> tuple[tuple[float, tuple[int, int]], tuple[float, tuple[int, int]]]:
    """The weakest mutual inductance from ``a`` to a tag on one of its own squares, and
    the strongest to a tag on a square of a neighbouring antenna (same axis), with the
    squares (row, column)."""
    ants = radio_or_ants.antennas if isinstance(radio_or_ants, RadioDesign) else radio_or_ants

    def tag_at(r: int, c: int) -> list[g.Segment]:
        return tag.segments((c + 0.5) * pitch, (r + 0.5) * pitch, tag.height)

    if a.axis == "row":
        own = [(a.index, c) for c in range(columns)]
    else:
        own = [(r, a.index) for r in range(rows)]
    nb_ants = [b for b in ants if b.axis == a.axis and abs(b.index - a.index) == 1]
    near: list[tuple[int, int]] = []
    for b in nb_ants:
        near += (
            [(b.index, c) for c in range(columns)]
            if b.axis == "row"
            else [(r, b.index) for r in range(rows)]
        )
    own_m = min((abs(g.mutual(a.segments, tag_at(*sq))), sq) for sq in own)
    near_m = max((abs(g.mutual(a.segments, tag_at(*sq))), sq) for sq in near)
    return own_m, near_m


def _pad_for_field(
    ants: list[Antenna],
    rows: int,
    columns: int,
    pitch: float,
    tag: Tag,
    y_bus: complex,
    tx: float,
) -> int:
    """Whole dB of attenuation that leaves the weakest own square of the weakest
    antenna at or above H_TARGET_A_PER_M with the reader at half power (matched chain:
    the 50 Ω point gets tx·10^(−A/10); the selected branch takes its share of the bus's
    conductance)."""
    worst = math.inf
    area = tag.side**2
    for a in ants:
        (m_own, _), _ = own_and_neighbour_mutuals(ants, a, rows, columns, pitch, tag)
        z = branch_z(a, on=True)
        share = (1 / z).real / (y_bus.real)
        # 1 W at the 50 Ω point: P_branch = share W = ½|I|²·Re(z).
        i_per_sqrt_w = math.sqrt(2 * share / z.real)
        h_per_sqrt_w = m_own * i_per_sqrt_w / (g.MU0 * area)
        worst = min(worst, h_per_sqrt_w)
    p_needed = (H_TARGET_A_PER_M / worst) ** 2
    return max(0, math.floor(10 * math.log10(tx / p_needed)))


def _two(a: str, b: str) -> tuple[tuple[str, str], ...]:
    return (("1", a), ("2", b))


def feedback_divider() -> tuple[float, float]:
    """TPS61040 feedback divider for BIAS_V: VOUT = VFB·(1 + R1/R2) (datasheet SLVS413K
    §7.2.2.2), R1 = 1.8 MΩ and R2 the E96 value that comes nearest."""
    r1 = 1.8e6
    return r1, nearest(r1 / (BIAS_V / BOOST_VREF.value - 1), E96)


def _parts(r: RadioDesign) -> list[Part]:
    d = PIN_DIODE
    rx = (("RX_IN1", "RF_RX"), ("RX_IN2", "RF_RX"))
    parts = [
        Part(
            "U_RF",
            "U",
            0,
            READER.part,
            (("TX_OUT", "RF_TX"), *rx, ("VIN", "+5V"), ("VSS", "GND")),
            READER.protocol,
        ),
        Part("L_EMC1", "L", r.emc[1], "Q > 40 at 13.56 MHz", _two("RF_TX", "RF_EMC_M")),
        Part("L_EMC2", "L", r.emc[3], "Q > 40 at 13.56 MHz", _two("RF_EMC_M", "RF_EMC")),
        Part("R_PAD1", "R", r.pad[0], "1 % 1206", _two("RF_EMC", "GND"), f"{r.pad_db} dB π pad"),
        Part("R_PAD2", "R", r.pad[1], "1 % 1206", _two("RF_EMC", "RF_50")),
        Part("R_PAD3", "R", r.pad[2], "1 % 0805", _two("RF_50", "GND")),
        Part("C_RX", "C", FEED_TAP_C, "C0G", _two("RF_50", "RF_RX"), "receive tap"),
    ]
    ends, middle = r.emc_caps
    for node, ref, caps in (
        ("RF_TX", "C_EMC1", ends),
        ("RF_EMC_M", "C_EMC2", middle),
        ("RF_EMC", "C_EMC3", ends),
    ):
        for i, c in enumerate(caps):
            parts.append(Part(f"{ref}_{i + 1}", "C", c, "C0G 1 %", _two(node, "GND"), "EMC"))
    for i, c in enumerate(r.cs):
        parts.append(Part(f"C_S{i + 1}", "C", c, "C0G 1 %", _two("RF_50", "RF_BUS"), "series"))
    for i, c in enumerate(r.cp):
        parts.append(Part(f"C_P{i + 1}", "C", c, "C0G 1 %", _two("RF_BUS", "GND"), "parallel"))
    parts.append(Part("R_FEED", "R", FEED_R, "1 % 2512", _two("VBIAS", "RF_BUS"), "diode bias"))
    for a in r.antennas:
        parts.append(
            Part(f"D_{a.name}", "D", bias_current(), d.part, (("A", "RF_BUS"), ("K", a.net_start)))
        )
        parts.append(
            Part(
                f"ANT_{a.name}",
                "ANT",
                a.inductance,
                f"PCB loop on {a.layer}",
                _two(a.net_start, a.net_end),
                f"{a.squares} squares",
            )
        )
        for i, c in enumerate(a.c_end):
            parts.append(Part(f"C_END_{a.name}_{i + 1}", "C", c, "C0G 2 %", _two(a.net_end, "GND")))
        parts.append(Part(f"R_PU_{a.name}", "R", PULLUP_R, "5 %", _two("VBIAS", a.net_end)))
    drivers = math.ceil(len(r.antennas) / 8)
    for i in range(drivers):
        pins = [(f"DRAIN{k}", a.net_end) for k, a in enumerate(r.antennas[i * 8 : (i + 1) * 8])]
        serial_in = "SEL_SER" if i == 0 else f"SEL_SER{i}"
        pins += [
            ("SER_IN", serial_in),
            ("SRCK", "SEL_CLK"),
            ("RCK", "SEL_LATCH"),
            ("VCC", "+5V"),
            ("GND", "GND"),
            ("G", "SEL_OE"),
            ("SRCLR", "+5V"),
        ]
        if i + 1 < drivers:
            pins.append(("SER_OUT", f"SEL_SER{i + 1}"))
        parts.append(
            Part(
                f"U_SEL{i + 1}",
                "U",
                0,
                SELECT_DRIVER_PART,
                tuple(pins),
                "a low output selects its antenna",
            )
        )
    parts.append(
        Part("R_OE", "R", 10e3, "5 %", _two("+5V", "SEL_OE"), "outputs off until initialised")
    )
    r1, r2 = feedback_divider()
    parts += [
        Part(
            "U_BIAS",
            "U",
            BIAS_V,
            BOOST_PART,
            (("VIN", "+5V"), ("EN", "+5V"), ("SW", "BIAS_SW"), ("FB", "BIAS_FB"), ("GND", "GND")),
            "L, diode and capacitors as its datasheet's typical application (SLVS413K §7.2)",
        ),
        Part("R_FB1", "R", r1, "1 %", _two("VBIAS", "BIAS_FB")),
        Part("R_FB2", "R", r2, "1 %", _two("BIAS_FB", "GND")),
    ]
    return parts


def deselect_settle_s(c_end: float = C_END_MAX, reverse_v: float = 5.0) -> float:
    """How long a released antenna's far end takes, charging its end capacitor through
    PULLUP_R from 0 V towards BIAS_V, to reverse-bias its diode by ``reverse_v`` (the
    voltage the BAR67's 0.55 pF maximum is given at) against the bus's PIN_VF:
    t = −R·C·ln(1 − (VR + VF)/BIAS_V). The firmware switches antennas with the field
    off and waits this long (rounded up) before switching it on."""
    return -PULLUP_R * c_end * math.log(1 - (reverse_v + PIN_VF) / BIAS_V)


def bias_current() -> float:
    """Forward current of the selected diode: (BIAS_V − VF) / FEED_R, amperes."""
    return (BIAS_V - PIN_VF) / FEED_R


def emc_attenuation_db(radio: RadioDesign, frequency: float) -> float:
    """Insertion loss of the EMC filter between 50 Ω terminations at ``frequency`` (its
    ABCD matrix: shunt C, series L, shunt 2C, series L, shunt C); dB, positive."""
    w = 2 * math.pi * frequency
    r0 = READER.load.value
    a, b, c, d = 1 + 0j, 0j, 0j, 1 + 0j
    for k, v in enumerate(radio.emc):
        if k % 2 == 0:  # shunt capacitor: [[1, 0], [jωC, 1]]
            y = 1j * w * v
            a, c = a + b * y, c + d * y
        else:  # series inductor: [[1, jωL], [0, 1]]
            z = 1j * w * v
            b, d = a * z + b, c * z + d
    s21 = 2 / (a + b / r0 + c * r0 + d)
    return -20 * math.log10(abs(s21))


def _si(value: float, unit: str) -> str:
    for factor, prefix in (
        (1e-12, "p"),
        (1e-9, "n"),
        (1e-6, "µ"),
        (1e-3, "m"),
        (1, ""),
        (1e3, "k"),
        (1e6, "M"),
    ):
        if abs(value) < factor * 1000:
            return f"{value / factor:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"


def _caps(values: tuple[float, ...]) -> str:
    return " + ".join(_si(v, "F") for v in values)


def _ends(antennas: list[Antenna]) -> str:
    """The far-end capacitors from the nearest antenna's to the farthest's."""
    first, last = antennas[0], antennas[-1]
    return f"{first.name} {_caps(first.c_end)} … {last.name} {_caps(last.c_end)}"


def _bus_row(radio: RadioDesign) -> str:
    line = rfbus.line(F0)
    return (
        f"{bus_length(radio.antennas) * 1e3:.0f} mm; {line.l_per_m * 1e6:.2f} µH/m, "
        f"{line.c_per_m * 1e12:.1f} pF/m, {line.r_per_m:.2f} Ω/m"
    )


def values_table(radio: RadioDesign) -> str:
    """The radio's component values, each with how it was found (docs/rf.md)."""
    r1, r2 = feedback_divider()
    settle = deselect_settle_s(max(sum(a.c_end) for a in radio.antennas))
    rows_ = [antenna for antenna in radio.antennas if antenna.axis == "row"]
    cols = [antenna for antenna in radio.antennas if antenna.axis == "column"]
    lines = [
        "| part | value | from |",
        "|---|---|---|",
        f"| row antenna (L1), {rows_[0].squares} squares | {_si(rows_[0].inductance, 'H')}, "
        f"{rows_[0].resistance:.2f} Ω | partial-inductance sum; skin-effect R |",
        f"| column antenna (L2), {cols[0].squares} squares | {_si(cols[0].inductance, 'H')}, "
        f"{cols[0].resistance:.2f} Ω | partial-inductance sum; skin-effect R |",
        f"| row far-end capacitors | {_ends(rows_)} | RF ground; equal reactance, feed included |",
        f"| column far-end capacitors | {_ends(cols)} | RF ground; equal reactance, feed "
        "included |",
        f"| RF bus | {_bus_row(radio)} | coplanar strips on L1 (wiring.rf.bus) |",
        f"| EMC filter C-L-2C-L-C | {_si(radio.emc[0], 'F')}, {_si(radio.emc[1], 'H')}, "
        f"{_si(radio.emc[2], 'F')}, {_si(radio.emc[3], 'H')}, {_si(radio.emc[4], 'F')} | "
        "two 50 Ω π sections, E12 inductor |",
        f"| attenuator ({radio.pad_db} dB π) | {_si(radio.pad[0], 'Ω')}, "
        f"{_si(radio.pad[1], 'Ω')}, {_si(radio.pad[2], 'Ω')} | field ≥ "
        f"{H_TARGET_A_PER_M:g} A/m at half power, E96 |",
        f"| series match Cs | {_caps(radio.cs)} | 50 Ω at 13.56 MHz, C0G (E24, one or two) |",
        f"| parallel match Cp | {_caps(radio.cp)} | 50 Ω at 13.56 MHz, C0G (E24, one or two) |",
        f"| bias feed | {_si(FEED_R, 'Ω')}: {bias_current() * 1e3:.1f} mA | "
        f"({BIAS_V:g} V − {PIN_VF} V) / R |",
        f"| far-end pull-ups | {_si(PULLUP_R, 'Ω')} each | reverse bias when unselected; "
        f"released, 5 V reverse after {settle * 1e3:.2f} ms |",
        f"| bias supply | {BIAS_V:g} V: R1 {_si(r1, 'Ω')}, R2 {_si(r2, 'Ω')} | "
        "TPS61040, VOUT = 1.233 V·(1 + R1/R2) |",
        f"| receive tap | {_si(FEED_TAP_C, 'F')} to RX_IN1/RX_IN2 | DC block, −j11.7 Ω |",
    ]
    return "\n".join(lines)


def coupling_vs_width(
    pitch: float = 21e-3, columns: int = 15, widths_mm: tuple[int, ...] = (15, 11, 9, 7, 5)
) -> str:
    """Geometry alone: a row loop's inductance, its weakest own-square and strongest
    next-row mutual inductance to the 10 mm tag, and their ratio, against loop width."""
    tag = Tag(TAG_SIDE_M, TAG_HEIGHT_M)
    lines = [
        "| loop width (mm) | L (µH) | M own, weakest (nH) | M next row, strongest (nH) | "
        "ratio (dB) |",
        "|---|---|---|---|---|",
    ]
    for w in widths_mm:
        inset = (pitch - w * 1e-3) / 2
        segs = g.rectangle(
            -LEAD_M, pitch + inset, columns * pitch + 1e-3, 2 * pitch - inset, 0.0, TRACE_WIDTH_M
        )

        def tag_at(r: int, c: int) -> list[g.Segment]:
            return tag.segments((c + 0.5) * pitch, (r + 0.5) * pitch, tag.height)

        own = min(abs(g.mutual(segs, tag_at(1, c))) for c in range(columns))
        near = max(abs(g.mutual(segs, tag_at(r, c))) for r in (0, 2) for c in range(columns))
        lines.append(
            f"| {w} | {g.inductance(segs) * 1e6:.3f} | {own * 1e9:.2f} | {near * 1e9:.2f} | "
            f"{20 * math.log10(near / own):.1f} |"
        )
    return "\n".join(lines)


def radio_bom(radio: RadioDesign) -> list[tuple[str, str, int]]:
    """The radio's parts grouped for a bill of materials: (part, value, quantity), the
    PCB loops left out (they are copper, not parts)."""
    units = {"C": "F", "R": "Ω", "L": "H", "D": "A", "U": "V"}
    counts: dict[tuple[str, str], int] = {}
    for p in radio.parts:
        if p.kind == "ANT":
            continue
        value = "" if p.kind == "U" else _si(p.value, units[p.kind])
        if p.kind == "D":
            value = f"{value} bias"
        key = (p.part, value)
        counts[key] = counts.get(key, 0) + 1
    return sorted((part, value, n) for (part, value), n in counts.items())
