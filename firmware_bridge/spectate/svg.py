"""The board as SVG: cells, special spaces, and every piece as the game describes it.

Drawn from a geometry (``geometry.py``) and the layout of the ``--json`` state
(cell → ``{"kind", "label", "owner", "state"}``), each piece by its look
(``style.py``, which the PNG of ``tabletop show`` shares), so a game it has never
heard of is still drawn: letters as tiles, domino halves with pips, anything else
as a disc in its owner's colour. The lights under the squares (the state's ``leds``,
cell → a colour's name of ``palette.py``) are drawn under the pieces, each square
in its colour with a little glow round it; a name not in the palette, or a cell
not on the board, is not drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ..screen.palette import COLOURS, Colour
from .geometry import Geometry, axis_labels, domino_pairs
from .style import (
    BOARD,
    CELL_FILL,
    CELL_LINE,
    DOMINO_FILL,
    FIX,
    NAMED_COLOURS,
    PIPS,
    TILE_EDGE,
    TILE_FILL,
    hex_colour,
    piece_look,
)

CELL = 28
PAD = 4
LABEL = 12
"""Room for the column letters above the board and the row numbers left of it."""


def _pips(x: float, y: float, size: float, n: int, colour: str = "#222") -> list[str]:
    r = size * 0.08
    return [
        f'<circle cx="{x + px * size:.1f}" cy="{y + py * size:.1f}" r="{r:.1f}" fill="{colour}"/>'
        for px, py in PIPS.get(n, ())
    ]


def _domino(
    ox: float,
    oy: float,
    cells: Mapping[str, Sequence[int]],
    halves: tuple[str, str],
    layout: Mapping[str, Mapping[str, Any]],
    seats: Sequence[str],
) -> list[str]:
    """One domino over two side-by-side cells: a body in its owner's colour, a line
    between the halves, each half's pips."""
    (ax, ay), (bx, by) = cells[halves[0]], cells[halves[1]]
    looks = [piece_look(layout[cell], seats) for cell in halves]
    x0, y0 = ox + ax * CELL + 2, oy + ay * CELL + 2
    w, h = (bx - ax + 1) * CELL - 4, (by - ay + 1) * CELL - 4
    label = escape(str(layout[halves[0]].get("label", "")).partition(":")[0])
    out = [
        f'<g class="piece domino" data-label="{label}">'
        f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" rx="4" fill="{DOMINO_FILL}" '
        f'stroke="{looks[0].colour}" stroke-width="2"/>'
    ]
    if bx > ax:
        mid = ox + bx * CELL
        out.append(f'<line x1="{mid}" y1="{y0 + 4}" x2="{mid}" y2="{y0 + h - 4}" stroke="#999"/>')
    else:
        mid = oy + by * CELL
        out.append(f'<line x1="{x0 + 4}" y1="{mid}" x2="{x0 + w - 4}" y2="{mid}" stroke="#999"/>')
    for cell, look in zip(halves, looks, strict=True):
        cx, cy = cells[cell]
        out += _pips(ox + cx * CELL + 2, oy + cy * CELL + 2, CELL - 4, look.pips)
    out.append("</g>")
    return out


def _piece(
    x: float,
    y: float,
    piece: Mapping[str, Any],
    seats: Sequence[str],
    values: Mapping[str, int] | None = None,
) -> list[str]:
    look = piece_look(piece, seats)
    kind = str(piece.get("kind", ""))
    label = look.label
    colour = look.colour
    s = CELL - 4
    x0, y0 = x + 2, y + 2
    cls = f"piece {escape(kind)}"
    if look.kind == "domino":
        out = [
            f'<g class="{cls}" data-label="{escape(label)}">'
            f'<rect x="{x0}" y="{y0}" width="{s}" height="{s}" rx="3" fill="{DOMINO_FILL}" '
            f'stroke="{colour}" stroke-width="2"/>'
        ]
        out += _pips(x0, y0, s, look.pips)
        if look.pips < 0:
            out.append(_text(x + CELL / 2, y + CELL / 2, escape(label), 9))
        out.append("</g>")
        return out
    if look.kind == "tile":
        text_colour = "#888" if look.faint else "#222"
        width = 3 if look.stable else 1
        stroke = colour if look.owned else TILE_EDGE
        return [
            f'<g class="{cls}" data-label="{escape(label)}">'
            f'<rect x="{x0}" y="{y0}" width="{s}" height="{s}" rx="3" fill="{TILE_FILL}" '
            f'stroke="{stroke}" stroke-width="{width}"/>',
            _text(x + CELL / 2, y + CELL / 2 + 1, escape(look.text), 15, text_colour, "bold"),
            f'<rect x="{x0 + 3}" y="{y0 + s - 4}" width="{s - 6}" height="2" fill="{colour}"/>'
            if look.owned
            else "",
            _value(x0 + s - 4, y0 + s - 6, look.text, look.faint, values),
            "</g>",
        ]
    ring = ""
    if look.state:
        ring = (
            f'<circle cx="{x + CELL / 2}" cy="{y + CELL / 2}" r="{CELL * 0.22:.1f}" fill="none" '
            'stroke="#fff" stroke-width="2"/>'
        )
    title = escape(f"{label} {look.state}".strip())
    return [
        f'<g class="{cls}" data-label="{escape(label)}"><title>{title}</title>'
        f'<circle cx="{x + CELL / 2}" cy="{y + CELL / 2}" r="{CELL * 0.4:.1f}" fill="{colour}" '
        f'stroke="#333" stroke-width="{2 if look.stable else 1}"/>{ring}</g>'
    ]


def _value(x: float, y: float, letter: str, blank: bool, values: Mapping[str, int] | None) -> str:
    """A tile's letter value in its corner (a blank is worth nothing)."""
    if not values or letter not in values:
        return ""
    worth = values[letter]
    if isinstance(worth, bool) or not isinstance(worth, int):
        return ""  # the plan's check refuses this; never drawn as markup
    return _text(x, y, "0" if blank else str(worth), 7, "#333")


def _text(
    x: float, y: float, text: str, size: float, fill: str = "#444", weight: str = "normal"
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" font-weight="{weight}" '
        f'text-anchor="middle" dominant-baseline="middle" font-family="sans-serif">{text}</text>'
    )


def lit(cells: Mapping[str, Any], leds: Any) -> dict[str, Colour]:
    """The lights of a state's ``leds`` that can be drawn: on a cell of the board, in a
    colour of the palette. Anything else a board sends is left out."""
    if not isinstance(leds, Mapping):
        return {}
    return {
        cell: COLOURS[name]
        for cell, name in leds.items()
        if isinstance(cell, str) and cell in cells and isinstance(name, str) and name in COLOURS
    }


def _lights(
    lights: Mapping[str, Colour], cells: Mapping[str, Sequence[int]], ox: float, oy: float
) -> list[str]:
    """Each light as its LED looks under the wood: the square in its colour, and a glow a
    little beyond it, so that under a piece it shows round the piece."""
    halos, squares = [], []
    for cell, colour in lights.items():
        cx, cy = cells[cell]
        x, y = ox + cx * CELL, oy + cy * CELL
        halos.append(
            f'<rect x="{x - 3}" y="{y - 3}" width="{CELL + 6}" height="{CELL + 6}" rx="6" '
            f'fill="{hex_colour(colour.rgb)}" opacity="0.45"/>'
        )
        title = escape(f"{cell}: {colour.name}, {colour.meaning}")
        squares.append(
            f'<g class="led" data-cell="{escape(cell)}" data-led="{escape(colour.name)}">'
            f"<title>{title}</title>"
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{hex_colour(colour.rgb)}" '
            f'stroke="{CELL_LINE}" stroke-width="0.5"/></g>'
        )
    return halos + squares


def _dice(x: float, y: float, dice: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    for name, values in dice.items():
        colour = NAMED_COLOURS.get(str(name).lower(), "#555")
        if not isinstance(values, list):
            continue
        for v in values:
            if not isinstance(v, int):
                continue
            out.append(
                f'<g class="die" data-value="{v}"><rect x="{x}" y="{y}" width="{CELL}" '
                f'height="{CELL}" rx="5" fill="{colour}"/>'
            )
            out += _pips(x, y, CELL, v, "#fff")
            out.append("</g>")
            x += CELL + 4
        x += CELL / 2
    return out


def board_svg(
    geo: Geometry,
    layout: Mapping[str, Mapping[str, Any]],
    seats: Sequence[str],
    extra: Mapping[str, Any] | None = None,
    fixes: Sequence[Mapping[str, Any]] = (),
    last: Sequence[str] = (),
    leds: Any = None,
    computer: Mapping[str, str] | None = None,
) -> str:
    """The whole board as one ``<svg>`` element; ``leds`` the state's lights; ``computer``
    the level of each seat the computer plays, named in the picture's title."""
    extra = extra or {}
    cols, rows = int(geo["cols"]), int(geo["rows"])
    dice = extra.get("dice")
    dice_h = CELL + PAD * 2 if isinstance(dice, dict) else 0
    cols_named, rows_named = axis_labels(geo["cells"])
    ox, oy = PAD + (LABEL if rows_named else 0), PAD + (LABEL if cols_named else 0)
    width, height = ox + cols * CELL + PAD, oy + rows * CELL + PAD + dice_h
    special = geo.get("special", {})
    left = extra.get("specials")
    if isinstance(left, Mapping):
        # A game whose special spaces are used up (DoubleCross) says which are left.
        special = {c: sp for c, sp in special.items() if c in left}
    targets = set(extra.get("target") or ())
    values: Mapping[str, int] = geo.get("values", {})
    fix_cells = {str(f.get("cell")) for f in fixes}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="board" data-game="{escape(str(geo.get("game", "")))}" role="img">',
        f'<rect width="{width}" height="{height}" fill="{BOARD}" rx="6"/>',
    ]
    if computer:
        named = [f"{seat}: computer ({computer[seat]})" if seat in computer else seat
                 for seat in seats]  # fmt: skip
        out.insert(1, f"<title>{escape(', '.join(named))}</title>")
    cells: Mapping[str, Sequence[int]] = geo["cells"]
    lights = lit(cells, leds)
    # The coordinates every move is written in: columns above, rows on the left.
    for x, name in cols_named.items():
        out.append(_text(ox + x * CELL + CELL / 2, PAD + LABEL / 2, escape(name), 9, "#5a4626"))
    for y, name in rows_named.items():
        out.append(_text(PAD + LABEL / 2, oy + y * CELL + CELL / 2, escape(name), 9, "#5a4626"))
    for cell, (cx, cy) in cells.items():
        x, y = ox + cx * CELL, oy + cy * CELL
        sp = special.get(cell)
        fill = escape(str(sp["fill"])) if sp else CELL_FILL
        out.append(
            f'<rect class="cell" data-cell="{escape(cell)}" x="{x}" y="{y}" width="{CELL}" '
            f'height="{CELL}" fill="{fill}" stroke="{CELL_LINE}" stroke-width="0.5"/>'
        )
        if sp and sp.get("text") and cell not in layout and cell not in lights:
            out.append(_text(x + CELL / 2, y + CELL / 2, escape(str(sp["text"])), 8))
    out += _lights(lights, cells, ox, oy)
    for cell in lights:
        sp = special.get(cell)
        if sp and sp.get("text") and cell not in layout:
            cx, cy = cells[cell]
            x, y = ox + cx * CELL, oy + cy * CELL
            out.append(_text(x + CELL / 2, y + CELL / 2, escape(str(sp["text"])), 8))
    joined: set[str] = set()
    for first, second in domino_pairs(geo, layout):
        # One domino, one body across its two cells: its halves are not drawn apart.
        out += _domino(ox, oy, cells, (first, second), layout, seats)
        joined.update((first, second))
    for cell, piece in layout.items():
        if cell not in cells or cell in joined:
            continue
        cx, cy = cells[cell]
        out += _piece(ox + cx * CELL, oy + cy * CELL, piece, seats, values)
    for group, colour, dash in ((targets, "#00a0ff", ""), (set(last), "#ffffff", "")):
        for cell in group:
            if cell in cells:
                cx, cy = cells[cell]
                out.append(
                    f'<rect class="mark" x="{ox + cx * CELL + 1}" y="{oy + cy * CELL + 1}" '
                    f'width="{CELL - 2}" height="{CELL - 2}" fill="none" stroke="{colour}" '
                    f'stroke-width="2"{dash}/>'
                )
    for cell in fix_cells:
        if cell in cells:
            cx, cy = cells[cell]
            out.append(
                f'<rect class="fix" data-cell="{escape(cell)}" x="{ox + cx * CELL + 1}" '
                f'y="{oy + cy * CELL + 1}" width="{CELL - 2}" height="{CELL - 2}" fill="none" '
                f'stroke="{FIX}" stroke-width="3" stroke-dasharray="4 2"/>'
            )
    if isinstance(dice, dict):
        out += _dice(ox, oy + rows * CELL + 2 * PAD, dice)
    out.append("</svg>")
    return "".join(out)
