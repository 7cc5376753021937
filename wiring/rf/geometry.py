"""Antenna geometry and the inductances and resistances it gives.

Every antenna and tag coil here is made of straight, axis-parallel trace segments. Its
inductance is the **partial-inductance sum** (Ruehli, "Inductance calculations in a
complex integrated circuit environment", IBM J. Res. Dev. 16, 1972): L = Σᵢ Σⱼ Mᵢⱼ over
the segments, where Mᵢⱼ is Neumann's double line integral, which for two parallel
filaments has Grover's closed form (F. W. Grover, *Inductance Calculations*, 1946,
chapter 1), and the self term of a flat trace is Grover's formula for a bar of
rectangular section. Segments at right angles have no mutual inductance (their
directions' dot product in Neumann's integral is zero), so for these shapes the sum is
exact for the filaments, with no numerical integration. The same sum between the
segments of two coils is their mutual inductance.

Resistance at 13.56 MHz uses the effective-thickness skin-effect model of Yue & Wong
("Physical modeling of spiral inductors on silicon", IEEE Trans. Electron Devices 47,
2000): R = ρ·l / (w·δ·(1 − e^(−t/δ))), δ = √(ρ / (π·f·μ₀)). It leaves out the
proximity effect, which raises R a little; the damping resistor, not the copper, sets
the antennas' Q (``wiring.rf.design``), so the result hardly depends on it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

from msgspec import Struct

MU0 = 4e-7 * math.pi
"""Vacuum permeability, H/m (FR-4, air and wood are non-magnetic)."""

RHO_CU = 1.72e-8
"""Resistivity of annealed copper at 20 °C, Ω·m (IEC 60028)."""

COPPER_1OZ_M = 35e-6
"""Thickness of 1 oz/ft² PCB copper (IPC-4562), m."""


class Segment(Struct, frozen=True):
    """A straight trace from ``start`` to ``end`` (metres, x/y/z), parallel to x or y,
    ``width`` wide and ``thickness`` thick."""

    start: tuple[float, float, float]
    end: tuple[float, float, float]
    width: float
    thickness: float = COPPER_1OZ_M

    @property
    def axis(self) -> int:
        dx = abs(self.end[0] - self.start[0])
        dy = abs(self.end[1] - self.start[1])
        if dx > 0 and dy == 0:
            return 0
        if dy > 0 and dx == 0:
            return 1
        raise ValueError("a segment runs along x or y")

    @property
    def length(self) -> float:
        return abs(self.end[self.axis] - self.start[self.axis])

    @property
    def direction(self) -> int:
        """+1 when the segment runs towards growing x (or y), −1 otherwise."""
        return 1 if self.end[self.axis] > self.start[self.axis] else -1


def _f(u: float, d: float) -> float:
    return u * math.asinh(u / d) - math.sqrt(u * u + d * d)


def parallel_mutual(a: Segment, b: Segment) -> float:
    """Neumann's mutual inductance of two parallel filaments (Grover's closed form),
    signed by their directions; henries."""
    ax = a.axis
    other = [i for i in range(3) if i != ax]
    d = math.hypot(*(a.start[i] - b.start[i] for i in other))
    a1, a2 = sorted((a.start[ax], a.end[ax]))
    b1, b2 = sorted((b.start[ax], b.end[ax]))
    if d == 0:
        # Two filaments on one line: Neumann's integral is finite while they do not
        # overlap (the ln d terms cancel); a tiny distance gives that limit.
        if a2 > b1 and b2 > a1:
            raise ValueError("two traces on top of each other: one coil crosses itself")
        d = 1e-9
    m = _f(b2 - a1, d) + _f(b1 - a2, d) - _f(b2 - a2, d) - _f(b1 - a1, d)
    return MU0 / (4 * math.pi) * m * a.direction * b.direction


def self_inductance(s: Segment) -> float:
    """Grover's partial self-inductance of a straight bar of rectangular section:
    μ₀·l/(2π)·[ln(2l/(w+t)) + 1/2 + 0.2235·(w+t)/l]; henries."""
    length, wt = s.length, s.width + s.thickness
    return MU0 * length / (2 * math.pi) * (math.log(2 * length / wt) + 0.5 + 0.2235 * wt / length)


def mutual(a: Sequence[Segment], b: Sequence[Segment]) -> float:
    """Mutual inductance of two coils given as their segments in current order; H."""
    total = 0.0
    for sa in a:
        for sb in b:
            if sa.axis == sb.axis:
                total += parallel_mutual(sa, sb)
    return total


def inductance(coil: Sequence[Segment]) -> float:
    """Self-inductance of a coil: the sum of its segments' partial inductances; H."""
    total = 0.0
    for i, sa in enumerate(coil):
        total += self_inductance(sa)
        for sb in coil[i + 1 :]:
            if sa.axis == sb.axis:
                total += 2 * parallel_mutual(sa, sb)
    return total


def skin_depth(frequency: float, rho: float = RHO_CU) -> float:
    """δ = √(ρ/(π·f·μ₀)), metres."""
    return math.sqrt(rho / (math.pi * frequency * MU0))


def ac_resistance(coil: Iterable[Segment], frequency: float, rho: float = RHO_CU) -> float:
    """Series resistance at ``frequency`` (effective-thickness skin model); ohms."""
    delta = skin_depth(frequency, rho)
    total = 0.0
    for s in coil:
        t_eff = delta * (1 - math.exp(-s.thickness / delta))
        total += rho * s.length / (s.width * t_eff)
    return total


def rectangle(
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    z: float,
    width: float,
    turns: int = 1,
    pitch: float = 0.0,
) -> list[Segment]:
    """A rectangular coil, ``turns`` turns spiralling inwards by ``pitch`` (trace width
    plus gap) per turn, outer trace centre line on (x0, y0)–(x1, y1), at height ``z``.
    The current runs x0→x1 along y0 first (counter-clockwise seen from +z when y grows
    upwards). The short link between turns is left out (it closes each turn)."""
    segs: list[Segment] = []
    for k in range(turns):
        i = k * pitch
        ax0, ay0, ax1, ay1 = x0 + i, y0 + i, x1 - i, y1 - i
        if ax1 <= ax0 or ay1 <= ay0:
            raise ValueError("too many turns for the coil's size")
        corners = [(ax0, ay0), (ax1, ay0), (ax1, ay1), (ax0, ay1), (ax0, ay0)]
        for (xa, ya), (xb, yb) in itertools.pairwise(corners):
            segs.append(Segment((xa, ya, z), (xb, yb, z), width))
    return segs


def square_spiral_wheeler(outer: float, turns: int, width: float, gap: float) -> float:
    """The modified Wheeler formula for a square planar spiral (Mohan, del Mar
    Hershenson, Boyd & Lee, "Simple accurate expressions for planar spiral inductances",
    IEEE JSSC 34, 1999, eq. 1, K1 = 2.34, K2 = 2.75); henries. A cross-check of
    ``inductance`` on a shape both apply to."""
    inner = outer - 2 * (turns * width + (turns - 1) * gap)
    d_avg = (outer + inner) / 2
    fill = (outer - inner) / (outer + inner)
    return 2.34 * MU0 * turns**2 * d_avg / (1 + 2.75 * fill)
