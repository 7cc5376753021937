"""Footprints' pads and courtyards read from their .kicad_mod files, and where a pad
lands when its footprint is placed and turned (KiCad's convention: y down, an
orientation turns counter-clockwise on the screen)."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

from msgspec import Struct

from wiring.pcb.footprints import REED_NAME, reed_footprint
from wiring.pcb.library import footprint_file
from wiring.pcb.sexpr import child, children, parse


class Pad(Struct, frozen=True):
    number: str
    x: float
    y: float
    w: float
    h: float
    through: bool


class Outline(Struct, frozen=True):
    pads: tuple[Pad, ...]
    courtyard: tuple[float, float, float, float]


def _text(footprint: str) -> str:
    if footprint == f"tabletop:{REED_NAME}":
        return reed_footprint()
    return Path(footprint_file(footprint)).read_text(encoding="utf-8")


@cache
def outline(footprint: str) -> Outline:
    """The pads (in the footprint's own frame) and courtyard box of ``footprint``."""
    tree = parse(_text(footprint))
    pads = []
    for pad in children(tree, "pad"):
        at, size = child(pad, "at"), child(pad, "size")
        assert at is not None and size is not None
        w, h = float(str(size[1])), float(str(size[2]))
        x, y = float(str(at[1])), float(str(at[2]))
        pads.append(Pad(str(pad[1]), x, y, w, h, str(pad[2]) != "smd"))
    xs: list[float] = []
    ys: list[float] = []
    for kind in ("fp_line", "fp_rect", "fp_poly", "fp_circle", "fp_arc"):
        for shape in children(tree, kind):
            layer = child(shape, "layer")
            if layer is None or str(layer[1]) != "F.CrtYd":
                continue
            for tag in ("start", "end", "mid", "center"):
                pt = child(shape, tag)
                if pt is not None:
                    xs.append(float(str(pt[1])))
                    ys.append(float(str(pt[2])))
            pts = child(shape, "pts")
            if pts is not None:
                for xy in children(pts, "xy"):
                    xs.append(float(str(xy[1])))
                    ys.append(float(str(xy[2])))
            if kind == "fp_circle":
                c, e = child(shape, "center"), child(shape, "end")
                assert c is not None and e is not None
                rad = math.dist((float(str(c[1])), float(str(c[2]))),
                                (float(str(e[1])), float(str(e[2]))))  # fmt: skip
                xs += [float(str(c[1])) - rad, float(str(c[1])) + rad]
                ys += [float(str(c[2])) - rad, float(str(c[2])) + rad]
    if not xs:
        xs = [p.x - p.w / 2 for p in pads] + [p.x + p.w / 2 for p in pads]
        ys = [p.y - p.h / 2 for p in pads] + [p.y + p.h / 2 for p in pads]
    return Outline(tuple(pads), (min(xs), min(ys), max(xs), max(ys)))


def turn(x: float, y: float, degrees: float) -> tuple[float, float]:
    """A footprint-frame offset turned by an orientation of ``degrees``."""
    a = math.radians(degrees)
    c, s = round(math.cos(a), 12), round(math.sin(a), 12)
    return x * c + y * s, -x * s + y * c


def placed_pads(footprint: str, x: float, y: float, degrees: float) -> dict[str, list[Pad]]:
    """Each pad's board position (and turned size) for the footprint placed at (x, y)."""
    found: dict[str, list[Pad]] = {}
    for pad in outline(footprint).pads:
        dx, dy = turn(pad.x, pad.y, degrees)
        w, h = (pad.h, pad.w) if round(degrees) % 180 == 90 else (pad.w, pad.h)
        found.setdefault(pad.number, []).append(
            Pad(pad.number, round(x + dx, 4), round(y + dy, 4), w, h, pad.through)
        )
    return found


def placed_box(footprint: str, x: float, y: float, degrees: float) -> tuple[float, ...]:
    x0, y0, x1, y1 = outline(footprint).courtyard
    corners = [turn(cx, cy, degrees) for cx, cy in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    return (x + min(c[0] for c in corners), y + min(c[1] for c in corners),
            x + max(c[0] for c in corners), y + max(c[1] for c in corners))  # fmt: skip
