"""The RF bus: the trace that carries the carrier from the shared matching to every
antenna's PIN diode, and its ground return beside it.

The matching sits at the board's top-left corner, outside the squares. From there the
bus runs down the left edge, past the row antennas' lead ends, and along the top edge,
past the column antennas' lead ends; each antenna's diode taps it where its loop's lead
ends. So the selected antenna is fed through a length of bus that grows with its index:
up to 0.33 m on a 15 × 15 board, comparable in inductance with a loop itself, and the
rest of the bus hangs on as an open stub. The simulation (``wiring.rf.spice``) carries
the bus as a ladder of short sections, each a series inductance and resistance with its
shunt capacitance, and the design (``wiring.rf.design``) lets each antenna's far-end
capacitor take up its own length of feed as it takes up a longer loop's inductance.

The bus and its return are two coplanar strips on the top copper (``WIDTH_M`` wide,
``GAP_M`` apart edge to edge), with no copper under them on the other layers: their
inductance and capacitance per metre are the quasi-static conformal-mapping results for
coplanar strips (C. P. Wen, "Coplanar waveguide: a surface strip transmission line
suitable for nonreciprocal gyromagnetic device applications", IEEE Trans. MTT 17, 1969;
K. C. Gupta, R. Garg, I. Bahl, P. Bhartia, *Microstrip Lines and Slotlines*, 2nd ed.,
1996, §7.5): with k = s/(s + 2w), L' = μ₀·K(k)/K(k′) and C' = ε₀·ε_eff·K(k′)/K(k),
ε_eff = (ε_r + 1)/2 for a substrate thick against the gap (the board is 1.6 mm, the gap
2 mm, so this is an upper bound on C'). The partial-inductance sum of
``wiring.rf.geometry`` gives the same L' to a few per cent (a test). The resistance is
both strips' skin-effect resistance (``geometry.ac_resistance``).

Left out: the bus's coupling to the loops and tags (it runs outside the squares, along
their lead ends) and the dielectric's loss (tan δ ≈ 0.02 at 13.56 MHz adds far less than
the copper's).
"""

from __future__ import annotations

import math

from msgspec import Struct

from . import geometry as g

WIDTH_M = 2.0e-3
"""Width of the bus and of its ground return."""

GAP_M = 2.0e-3
"""Edge-to-edge gap between the bus and its ground return."""

OFFSET_M = 6.0e-3
"""How far outside the loops' lead ends the bus's centre line runs (room for each
antenna's diode between them); each tap's stub from the bus to its diode is this long."""

EPS_R = 4.6
"""Relative permittivity of the board's FR-4 core (JLCPCB's controlled-impedance page:
core 4.6, 7628 prepreg 4.6, 3313 prepreg 4.05)."""

EPS0 = 8.8541878128e-12
"""Vacuum permittivity, F/m."""

SECTION_M = 25e-3
"""The ladder's longest section: at 13.56 MHz the bus's wavelength is about 13 m, so a
section of 25 mm is 1/500 of it and a lumped L-C section is exact enough."""


class Line(Struct, frozen=True):
    """Per metre of bus (bus and return together): inductance, capacitance, resistance."""

    l_per_m: float
    c_per_m: float
    r_per_m: float


def elliptic_k(k: float) -> float:
    """The complete elliptic integral of the first kind K(k), by the arithmetic-geometric
    mean: K(k) = π / (2·AGM(1, √(1 − k²)))."""
    a, b = 1.0, math.sqrt(1 - k * k)
    while abs(a - b) > 1e-15 * a:
        a, b = (a + b) / 2, math.sqrt(a * b)
    return math.pi / (2 * a)


def line(frequency: float, width: float = WIDTH_M, gap: float = GAP_M) -> Line:
    """The bus's L', C' and R' at ``frequency``."""
    k = gap / (gap + 2 * width)
    ratio = elliptic_k(k) / elliptic_k(math.sqrt(1 - k * k))
    eps_eff = (EPS_R + 1) / 2
    strip = g.Segment((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), width)
    r = 2 * g.ac_resistance([strip], frequency)
    return Line(g.MU0 * ratio, EPS0 * eps_eff / ratio, r)


def neumann_l_per_m(width: float = WIDTH_M, gap: float = GAP_M, length: float = 1.0) -> float:
    """L' of the same two strips by the partial-inductance sum (each strip's self term
    less twice their mutual, currents opposite), per metre of a ``length`` long pair."""
    a = g.Segment((0.0, 0.0, 0.0), (length, 0.0, 0.0), width)
    b = g.Segment((length, width + gap, 0.0), (0.0, width + gap, 0.0), width)
    return (2 * g.self_inductance(a) + 2 * g.parallel_mutual(a, b)) / length


def sections(length: float) -> list[float]:
    """``length`` cut into equal sections no longer than ``SECTION_M``."""
    if length <= 0:
        return []
    n = max(1, math.ceil(length / SECTION_M - 1e-9))
    return [length / n] * n
