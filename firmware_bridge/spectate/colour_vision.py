"""Colours as people see them: colour-vision deficiencies simulated, and colour differences.

The simulation is Machado, Oliveira and Fernandes's model ("A Physiologically-based
Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6), 2009), at
severity 1.0 (protanopia, deuteranopia, tritanopia): the matrices of the paper's
table, applied to linear sRGB as the paper does. The difference of two colours is
CIEDE2000 (CIE 142-2001; the formulas as written out by Sharma, Wu and Dalal,
"The CIEDE2000 Color-Difference Formula", Color Research & Application 30(1),
2005) in CIELAB under D65.
"""

from __future__ import annotations

import math

RGB = tuple[int, int, int]
Lab = tuple[float, float, float]
Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

MACHADO: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
"""Machado et al. (2009), severity 1.0, on linear RGB."""

VISIONS = ("normal", *MACHADO)
"""Normal vision and the three deficiencies simulated."""

_SRGB_TO_XYZ: Matrix = (
    (0.4124564, 0.3575761, 0.1804375),
    (0.2126729, 0.7151522, 0.0721750),
    (0.0193339, 0.1191920, 0.9503041),
)
_WHITE_D65 = (0.95047, 1.0, 1.08883)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(value: float) -> int:
    v = min(1.0, max(0.0, value))
    c = v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return round(c * 255)


def _times(m: Matrix, v: tuple[float, float, float]) -> tuple[float, float, float]:
    return (
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    )


def simulate(rgb: RGB, vision: str) -> RGB:
    """``rgb`` (sRGB) as seen with ``vision`` (one of :data:`VISIONS`)."""
    if vision == "normal":
        return rgb
    try:
        matrix = MACHADO[vision]
    except KeyError:
        raise ValueError(f"no vision {vision!r}: the visions are {', '.join(VISIONS)}") from None
    r, g, b = _times(matrix, (_linear(rgb[0]), _linear(rgb[1]), _linear(rgb[2])))
    return (_encoded(r), _encoded(g), _encoded(b))


def lab(rgb: RGB) -> Lab:
    """CIELAB (D65) of an sRGB colour."""
    x, y, z = _times(_SRGB_TO_XYZ, (_linear(rgb[0]), _linear(rgb[1]), _linear(rgb[2])))

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(v / w) for v, w in zip((x, y, z), _WHITE_D65, strict=True))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(first: Lab, second: Lab) -> float:
    """CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1)."""
    l1, a1, b1 = first
    l2, a2, b2 = second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_mean = (h1p + h2p + 360) / 2
    else:
        h_mean = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dH / sh) ** 2 + rt * (dc / sc) * (dH / sh))


def difference(first: RGB, second: RGB, vision: str = "normal") -> float:
    """How far apart two sRGB colours look with ``vision`` (CIEDE2000)."""
    return ciede2000(lab(simulate(first, vision)), lab(simulate(second, vision)))
