"""The radio's checks, antenna by antenna, computed by ngspice, and the table of them.

For every antenna of a board: the resonance (the frequency of the largest antenna
current), the impedance the reader sees at 13.56 MHz (and its return loss against
50 Ω), the loaded Q (carrier over the antenna current's −3 dB bandwidth), the field on
a tag over the weakest of its own squares, and the coupling to a tag on the nearest
square of a neighbouring antenna of the same axis, relative to that weakest own
square (with every loop's mutual inductance, so what unselected loops relay is in it).
"""

from __future__ import annotations

import math

from msgspec import Struct

from . import geometry as g
from .design import BIAS_V, PIN_VF, Antenna, RadioDesign, bias_current, own_and_neighbour_mutuals
from .parts import F0, H_MAX_A_PER_M, H_MIN_A_PER_M, PIN_DIODE, READER, SUBCARRIER_HZ
from .spice import Probe, Sweep, netlist, ngspice_version, run

TOLERANCE = 0.03
"""Resonance within ±3 % of 13.56 MHz."""

Q_MAX = F0 / (2 * SUBCARRIER_HZ)
"""The highest Q whose −3 dB bandwidth holds both subcarrier sidebands (±423.75 kHz):
f0 / (2·fsc) = 16."""

COUPLING_MAX_DB = -20.0
"""A tag on a neighbouring row or column at least 20 dB below one on the selected."""


class AntennaCheck(Struct, frozen=True):
    antenna: str
    resonance_hz: float
    z_reader: complex
    z_match: complex
    q: float
    h_own: float
    h_neighbour: float
    coupling_db: float
    own_square: tuple[int, int]
    neighbour_square: tuple[int, int]
    v_bus_peak: float
    i_antenna_peak: float

    @property
    def reverse_bias_margin_v(self) -> float:
        """How far the unselected diodes' reverse bias (24 V less the selected diode's
        0.95 V on the bus) exceeds the bus's peak RF voltage: positive keeps them off."""
        return BIAS_V - PIN_VF - self.v_bus_peak

    @property
    def charge_ratio(self) -> float:
        """The selected diode's stored charge (IF·τ) over the charge one RF half-cycle
        moves (I_peak/(π·f)): a PIN diode stays a resistor while this is ≫ 1 (10 or
        more here)."""
        stored = bias_current() * PIN_DIODE.lifetime.value
        return stored / (self.i_antenna_peak / (math.pi * F0))

    @property
    def return_loss_db(self) -> float:
        return _return_loss(self.z_reader)

    @property
    def match_return_loss_db(self) -> float:
        return _return_loss(self.z_match)

    def problems(self) -> list[str]:
        out = []
        if abs(self.resonance_hz / F0 - 1) > TOLERANCE:
            out.append(f"{self.antenna}: resonance {self.resonance_hz / 1e6:.3f} MHz is off ±3 %")
        if self.return_loss_db < READER.return_loss_db.value:
            out.append(f"{self.antenna}: reader sees {self.z_reader:.1f} Ω (RL < 10 dB)")
        if self.match_return_loss_db < READER.return_loss_db.value:
            out.append(f"{self.antenna}: the match gives {self.z_match:.1f} Ω (RL < 10 dB)")
        if not 1 < self.q <= Q_MAX:
            out.append(f"{self.antenna}: Q {self.q:.1f} is outside 1–{Q_MAX:.0f}")
        if self.coupling_db > COUPLING_MAX_DB:
            out.append(f"{self.antenna}: neighbour coupling {self.coupling_db:.1f} dB > −20 dB")
        if not H_MIN_A_PER_M * 3 <= self.h_own <= H_MAX_A_PER_M:
            out.append(f"{self.antenna}: {self.h_own:.2f} A/m on its own squares")
        if self.reverse_bias_margin_v < 5:
            out.append(f"{self.antenna}: bus swings {self.v_bus_peak:.1f} V, near the bias")
        if self.charge_ratio < 10:
            out.append(f"{self.antenna}: the selected diode's stored charge is too small")
        if self.h_neighbour >= H_MIN_A_PER_M:
            out.append(f"{self.antenna}: {self.h_neighbour:.2f} A/m wakes a neighbour's tag")
        return out


def _return_loss(z: complex) -> float:
    r0 = READER.load.value
    gamma = abs((z - r0) / (z + r0))
    return math.inf if gamma == 0 else -20 * math.log10(gamma)


def check_antenna(
    radio: RadioDesign,
    a: Antenna,
    *,
    r_on: float | None = None,
    c_off: float | None = None,
    c_close: float | None = None,
) -> AntennaCheck:
    """Simulate ``radio`` with ``a`` selected and measure it."""
    (_, own_sq), (_, near_sq) = own_and_neighbour_mutuals(
        radio, a, radio.rows, radio.columns, radio.pitch, radio.tag
    )
    probes = [
        Probe("own", tuple(radio.tag_segments(*own_sq))),
        Probe("near", tuple(radio.tag_segments(*near_sq))),
    ]
    deck = netlist(radio, a, probes, r_on=r_on, c_off=c_off, c_close=c_close)
    s = run(
        deck,
        [
            "v(txo)",
            "v(tx)",
            "v(rf50x)",
            "i(vcs)",
            f"i(vm_{a.name})",
            "v(p_own)",
            "v(p_near)",
            "v(bus)",
            f"v(tap_{a.name})",
        ],
    )
    return measure(radio, a, s, own_sq, near_sq)


def measure(
    radio: RadioDesign, a: Antenna, s: Sweep, own_sq: tuple[int, int], near_sq: tuple[int, int]
) -> AntennaCheck:
    current = [abs(i) for i in s.vectors[f"i(vm_{a.name})"]]
    k = max(range(len(current)), key=current.__getitem__)
    f_res = s.freq[k]
    half = current[k] / math.sqrt(2)
    lo = next((s.freq[j] for j in range(k, -1, -1) if current[j] < half), s.freq[0])
    hi = next((s.freq[j] for j in range(k, len(current)) if current[j] < half), s.freq[-1])
    q = f_res / (hi - lo)
    v_txo, v_tx = s.at("v(txo)", F0), s.at("v(tx)", F0)
    z_reader = v_txo / ((v_tx - v_txo) / READER.r_out_half.value)
    z_match = s.at("v(rf50x)", F0) / s.at("i(vcs)", F0)
    area = radio.tag.side**2
    omega = 2 * math.pi * F0
    h_own = abs(s.at("v(p_own)", F0)) / (omega * g.MU0 * area)
    h_near = abs(s.at("v(p_near)", F0)) / (omega * g.MU0 * area)
    coupling = 20 * math.log10(h_near / h_own)
    v_bus = max(abs(s.at("v(bus)", F0)), abs(s.at(f"v(tap_{a.name})", F0)))
    i_ant = abs(s.at(f"i(vm_{a.name})", F0))
    return AntennaCheck(
        a.name, f_res, z_reader, z_match, q, h_own, h_near, coupling, own_sq, near_sq, v_bus, i_ant
    )


def check_radio(radio: RadioDesign) -> list[AntennaCheck]:
    return [check_antenna(radio, a) for a in radio.antennas]


def _z(z: complex) -> str:
    sign = "+" if z.imag >= 0 else "−"
    return f"{z.real:.1f} {sign} j{abs(z.imag):.1f}"


def rf_table(radio: RadioDesign, results: list[AntennaCheck]) -> str:
    """The table ``tabletop rf`` prints and docs/rf.md shows: one row per antenna."""
    head = (
        "| antenna | L (µH) | feed (mm) | resonance (MHz) | Z at the reader (Ω) | RL (dB) | "
        "Z at the 50 Ω point (Ω) | Q | H own (A/m) | worst neighbour (dB) |"
    )
    lines = [head, "|" + "---|" * 10]
    for a, r in zip(radio.antennas, results, strict=True):
        lines.append(
            f"| {a.name} | {a.inductance * 1e6:.3f} | {a.feed_length * 1e3:.0f} | "
            f"{r.resonance_hz / 1e6:.3f} | "
            f"{_z(r.z_reader)} | {r.return_loss_db:.1f} | {_z(r.z_match)} | {r.q:.1f} | "
            f"{r.h_own:.2f} | {r.coupling_db:.1f} |"
        )
    return "\n".join(lines)


def rf_report(radio: RadioDesign, results: list[AntennaCheck]) -> str:
    """The table with a heading naming the profile and the ngspice that computed it."""
    return (
        f"RFID radio of {radio.profile}: {len(radio.antennas)} antennas "
        f"({radio.rows} rows, {radio.columns} columns), computed by {ngspice_version()}\n\n"
        + rf_table(radio, results)
    )


def match_sweep(radio: RadioDesign, a: Antenna) -> list[tuple[float, complex]]:
    """S11 against 50 Ω at the 50 Ω point, looking into the match with ``a`` selected
    (what a NanoVNA sees there with the attenuator's R_PAD2 and R_PAD3 lifted)."""
    s = run(netlist(radio, a), ["v(rf50x)", "i(vcs)"])
    r0 = READER.load.value
    out = []
    for f, v, i in zip(s.freq, s.vectors["v(rf50x)"], s.vectors["i(vcs)"], strict=True):
        z = v / i
        out.append((f, (z - r0) / (z + r0)))
    return out


def touchstone(points: list[tuple[float, complex]], title: str) -> str:
    """A one-port Touchstone (.s1p) file of ``points``: NanoVNA-Saver and most VNA
    programs overlay it on a measured sweep."""
    lines = [f"! {title}", "# MHz S RI R 50"]
    lines += [f"{f / 1e6:.4f} {gamma.real:.6f} {gamma.imag:.6f}" for f, gamma in points]
    return "\n".join(lines) + "\n"


def bandwidth_10db(points: list[tuple[float, complex]]) -> tuple[float, float]:
    """The band where the match's return loss is 10 dB or better, Hz."""
    good = [f for f, gamma in points if abs(gamma) <= 10 ** (-10 / 20)]
    return (min(good), max(good)) if good else (math.nan, math.nan)
