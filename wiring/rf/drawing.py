"""Pieces on their squares, drawn to scale from the design's own dimensions (SVG).

Three panels, each a top view with a side view under it: a letter tile on a 21 mm
square (the racks' cells are the same squares), a domino on two squares, a Doubles
Wild ball on a 30 mm spot. Every dimension comes from ``wiring.rf.design`` or is named
below; the tests check the drawing against them.
"""

from __future__ import annotations

import math

from .design import LOOP_WIDTH_M, TAG_HEIGHT_M, TAG_SIDE_M, TRACE_WIDTH_M

SCALE = 10.0
"""Pixels per millimetre."""

TILE_MM = 19.0
"""A letter tile's side (docs/hardware.md: 19 mm tiles with 2 mm gaps)."""

TOP_MM = 2.0
"""The board top over the PCB (docs/hardware.md: 2 mm on an RFID board)."""

TILE_BASE_MM = TAG_HEIGHT_M * 1e3 - TOP_MM
"""The tag lies this far above the board's top surface, inside the tile's base."""

MAGNET_D_MM = 2.0
MAGNET_H_MM = 1.0
MAGNET_INSET_MM = 2.0
"""Four 2 × 1 mm axial disc magnets per tile (or domino half), at the middle of each
edge, their centres 2 mm in from it: outside the tag's 10 mm coil, and one always over
the hall switch whichever way the tile is turned."""

HALL_MM = (2.9, 1.6)
"""DRV5032 in SOT-23 (2.9 × 1.6 mm body), under the middle of the square's top edge,
where a tile's magnet comes to rest."""

LED_MM = 3.5
"""WS2812B-mini (3.5 × 3.5 mm) at the square's centre (docs/hardware.md)."""

BALL_D_MM = 25.0
RING_MM = (20.0, 14.0)
"""A Doubles Wild ball (25 mm) stands on a flat-bottomed cup holding the tag and a
ceramic (ferrite) ring magnet of 20 mm outside and 14 mm inside diameter around it: a
ferrite is an insulator, so unlike a NdFeB ring it is no shorted turn around the tag."""

COLOURS = {
    "row": "#c0392b",
    "column": "#2471a3",
    "tag": "#1e8449",
    "magnet": "#555555",
    "outline": "#333333",
    "part": "#b9770e",
}


def _rect(x: float, y: float, w: float, h: float, **style: str) -> str:
    attrs = " ".join(f'{k.replace("_", "-")}="{v}"' for k, v in style.items())
    return (
        f'<rect x="{x * SCALE:.1f}" y="{y * SCALE:.1f}" width="{w * SCALE:.1f}" '
        f'height="{h * SCALE:.1f}" {attrs}/>'
    )


def _circle(cx: float, cy: float, r: float, **style: str) -> str:
    attrs = " ".join(f'{k.replace("_", "-")}="{v}"' for k, v in style.items())
    return f'<circle cx="{cx * SCALE:.1f}" cy="{cy * SCALE:.1f}" r="{r * SCALE:.1f}" {attrs}/>'


def _text(x: float, y: float, s: str) -> str:
    return f'<text x="{x * SCALE:.1f}" y="{y * SCALE:.1f}" font-size="11">{s}</text>'


def _square(ox: float, oy: float, pitch: float, piece: str) -> list[str]:
    """One square at (ox, oy) (top-left, mm): its antennas' traces, LED, hall switch."""
    out = [
        _rect(ox, oy, pitch, pitch, fill="none", stroke=COLOURS["outline"], stroke_dasharray="4 3")
    ]
    half_loop, tw = LOOP_WIDTH_M * 1e3 / 2, TRACE_WIDTH_M * 1e3
    c = pitch / 2
    for dy in (-half_loop, half_loop):  # the row loop's two conductors (L1)
        out.append(
            _rect(ox, oy + c + dy - tw / 2, pitch, tw, fill=COLOURS["row"], fill_opacity="0.8")
        )
    for dx in (-half_loop, half_loop):  # the column loop's two conductors (L2)
        out.append(
            _rect(ox + c + dx - tw / 2, oy, tw, pitch, fill=COLOURS["column"], fill_opacity="0.6")
        )
    out.append(
        _rect(
            ox + c - LED_MM / 2,
            oy + c - LED_MM / 2,
            LED_MM,
            LED_MM,
            fill="#ffffff",
            stroke=COLOURS["part"],
        )
    )
    if piece != "ball":
        hx, hy = HALL_MM
        y_hall = MAGNET_INSET_MM + (pitch - TILE_MM) / 2
        out.append(_rect(ox + c - hx / 2, oy + y_hall - hy / 2, hx, hy, fill=COLOURS["part"]))
    return out


def _tile(ox: float, oy: float, w: float, h: float, halves: list[tuple[float, float]]) -> list[str]:
    out = [_rect(ox, oy, w, h, fill="#f5e6c8", fill_opacity="0.55", stroke=COLOURS["outline"])]
    t = TAG_SIDE_M * 1e3
    for cx, cy in halves:
        out.append(
            _rect(
                cx - t / 2, cy - t / 2, t, t, fill="none", stroke=COLOURS["tag"], stroke_width="2"
            )
        )
        d = TILE_MM / 2 - MAGNET_INSET_MM
        for mx, my in ((cx, cy - d), (cx, cy + d), (cx - d, cy), (cx + d, cy)):
            out.append(_circle(mx, my, MAGNET_D_MM / 2, fill=COLOURS["magnet"]))
    return out


TILE_THICK_MM = 4.0
"""Side views: a tile (or cup) 4 mm thick."""


def _side(ox: float, oy: float, w: float, ring: bool = False) -> list[str]:
    """A side view strip: PCB (L1/L2), board top, the piece's base with tag and magnet."""
    magnets = (
        [
            (w / 2 - RING_MM[0] / 2, (RING_MM[0] - RING_MM[1]) / 2),
            (w / 2 + RING_MM[1] / 2, (RING_MM[0] - RING_MM[1]) / 2),
        ]
        if ring
        else [(2.0, MAGNET_D_MM)]
    )
    out = [
        _rect(ox, oy + 6.0, w, 1.6, fill="#7d9b76"),
        _rect(ox, oy + 3.8, w, TOP_MM, fill="#d7bde2", fill_opacity="0.6"),
        _rect(
            ox + 1,
            oy + 3.8 - TILE_THICK_MM,
            w - 2,
            TILE_THICK_MM,
            fill="#f5e6c8",
            stroke=COLOURS["outline"],
        ),
        _rect(
            ox + w / 2 - TAG_SIDE_M * 500,
            oy + 3.8 - TILE_BASE_MM - 0.1,
            TAG_SIDE_M * 1e3,
            0.2,
            fill=COLOURS["tag"],
        ),
        _rect(ox, oy + 5.8, w, 0.2, fill=COLOURS["row"]),
    ]
    for x, width in magnets:
        out.append(
            _rect(ox + x, oy + 3.8 - MAGNET_H_MM - 0.2, width, MAGNET_H_MM, fill=COLOURS["magnet"])
        )
    return out


def pieces_svg() -> str:
    """The three panels, to scale (10 px per mm)."""
    parts: list[str] = []
    p15, p30 = 21.0, 30.0
    gap = (p15 - TILE_MM) / 2
    # (a) a letter tile on a square
    parts += _square(2, 4, p15, "tile")
    parts += _tile(2 + gap, 4 + gap, TILE_MM, TILE_MM, [(2 + p15 / 2, 4 + p15 / 2)])
    parts += _side(2, 28, p15)
    parts.append(_text(2, 2.5, "a: letter tile (and rack cell), 21 mm square"))
    # (b) a domino on two squares
    ox = 30.0
    parts += _square(ox, 4, p15, "tile") + _square(ox + p15, 4, p15, "tile")
    parts += _tile(
        ox + gap,
        4 + gap,
        2 * p15 - 2 * gap,
        TILE_MM,
        [(ox + p15 / 2, 4 + p15 / 2), (ox + 1.5 * p15, 4 + p15 / 2)],
    )
    parts += _side(ox, 28, 2 * p15)
    parts.append(_text(ox, 2.5, "b: domino, one tag per half"))
    # (c) a Doubles Wild ball on a 30 mm spot
    ox = 80.0
    parts += _square(ox, 4, p30, "ball")
    c = (ox + p30 / 2, 4 + p30 / 2)
    parts.append(
        _circle(*c, BALL_D_MM / 2, fill="#f5e6c8", fill_opacity="0.35", stroke=COLOURS["outline"])
    )
    parts.append(
        _circle(
            *c,
            (RING_MM[0] + RING_MM[1]) / 4,
            fill="none",
            stroke=COLOURS["magnet"],
            stroke_width=f"{(RING_MM[0] - RING_MM[1]) / 2 * SCALE:.0f}",
            stroke_opacity="0.6",
        )
    )
    t = TAG_SIDE_M * 1e3
    parts.append(
        _rect(
            c[0] - t / 2, c[1] - t / 2, t, t, fill="none", stroke=COLOURS["tag"], stroke_width="2"
        )
    )
    hx, hy = HALL_MM
    parts.append(_rect(c[0] - hx / 2, c[1] - RING_MM[0] / 2 + 0.5, hx, hy, fill=COLOURS["part"]))
    parts += _side(ox, 38, p30, ring=True)
    parts.append(_text(ox, 2.5, "c: Doubles Wild ball on its cup, 30 mm spot"))
    legend = [
        ("row antenna, L1", COLOURS["row"]),
        ("column antenna, L2", COLOURS["column"]),
        ("tag coil 10 × 10 mm", COLOURS["tag"]),
        ("magnets", COLOURS["magnet"]),
        ("hall switch, LED", COLOURS["part"]),
    ]
    for i, (label, colour) in enumerate(legend):
        parts.append(_rect(2 + i * 22, 45, 2, 2, fill=colour))
        parts.append(_text(5 + i * 22, 46.8, label))
    width, height = 113 * SCALE, 49 * SCALE
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}">\n<rect width="100%" height="100%" '
        'fill="#ffffff"/>\n' + "\n".join(parts) + "\n</svg>\n"
    )


def neighbour_magnet_ratio(pitch_mm: float = 21.0) -> float:
    """The vertical field at a square's hall switch from the nearest magnet of the next
    tile, over the field from its own tile's magnet above it, by the dipole model
    (B_z ∝ (3·cos²θ − 1)/r³; on the axis 2/r³): the hall switch's threshold must sit
    between the two. The magnets' centres lie MAGNET_H_MM/2 above the board top, the
    hall element just under it (its depth in the PCB left out)."""
    d = TILE_MM / 2 - MAGNET_INSET_MM  # magnet centre from the tile's centre
    height = TOP_MM + MAGNET_H_MM / 2
    own = 2 / height**3
    lateral = pitch_mm - 2 * d  # the next tile's facing magnet, to the side
    r = math.hypot(lateral, height)
    cos2 = (height / r) ** 2
    other = abs(3 * cos2 - 1) / r**3
    return other / own


def return_loss_svg(points: list[tuple[float, complex]], title: str) -> str:
    """A return-loss trace (dB against MHz, as a NanoVNA shows it) of simulated S11
    points, with the carrier and the 10 dB line marked."""
    w, h, left, top, right, bottom = 640, 320, 56, 30, 16, 40
    f0, f1 = points[0][0], points[-1][0]
    rl_max = 50.0

    def x(f: float) -> float:
        return left + (f - f0) / (f1 - f0) * (w - left - right)

    def y(rl: float) -> float:
        return top + min(rl, rl_max) / rl_max * (h - top - bottom)

    def rl(g: complex) -> float:
        return -20 * math.log10(max(abs(g), 1e-9))

    path = " ".join(
        f"{'M' if i == 0 else 'L'}{x(f):.1f},{y(rl(g)):.1f}" for i, (f, g) in enumerate(points)
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        f'<text x="{left}" y="18" font-size="13">{title}</text>',
    ]
    for db in range(0, int(rl_max) + 1, 10):
        out.append(
            f'<line x1="{left}" y1="{y(db):.1f}" x2="{w - right}" y2="{y(db):.1f}" '
            f'stroke="{"#c0392b" if db == 10 else "#dddddd"}"/>'
        )
        out.append(f'<text x="8" y="{y(db) + 4:.1f}" font-size="11">{db} dB</text>')
    mhz = math.ceil(f0 / 1e6)
    while mhz * 1e6 <= f1:
        out.append(f'<text x="{x(mhz * 1e6) - 8:.1f}" y="{h - 22}" font-size="11">{mhz}</text>')
        mhz += 1
    out.append(f'<text x="{w / 2 - 20:.0f}" y="{h - 6}" font-size="11">MHz</text>')
    fc = 13.56e6
    out.append(
        f'<line x1="{x(fc):.1f}" y1="{top}" x2="{x(fc):.1f}" y2="{h - bottom}" '
        'stroke="#2471a3" stroke-dasharray="4 3"/>'
    )
    out.append(f'<path d="{path}" fill="none" stroke="#1e8449" stroke-width="2"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
