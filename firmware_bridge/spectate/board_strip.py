"""The strip under the board's picture: the title, the seats in their colours with their
scores, the result, the lights' colours, and a legend of every mark the picture uses
(the special spaces' marks, a stable tile's heavy edge, a blank's grey letter, a ring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw, ImageFont

from ..screen.palette import COLOURS
from .geometry import Geometry
from .style import hex_colour, piece_look, seat_colour

LINE = 18
"""Pixels a line of the strip below the board."""
SWATCH = 15
GAP = 12
PLAIN = {"■": "", "↕": "NS", "↔": "EW", "✥": "NSEW", "●": "B", "★": "", "◆": ""}
"""The marks of special spaces as the picture writes them (the star and diamond, and
the block's fill, are drawn, not written)."""

StripLine = list[tuple[str | None, str]]
"""Runs of text on one line of the strip, each after a colour swatch or none."""
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def strip_lines(
    font: Font,
    width: int,
    title: str,
    seats: Sequence[str],
    scores: Sequence[int] | None,
    result: str | None,
) -> list[StripLine]:
    """The strip's lines: the title, the seats flowed to the width, the result wrapped."""
    lines: list[StripLine] = [[(None, title)]] if title else []
    lines += flow(
        font,
        width,
        [
            (seat_colour(seats, i), seat if scores is None else f"{seat} {scores[i]}")
            for i, seat in enumerate(seats)
        ],
    )
    if result:
        lines += [[(None, text)] for text in wrap(font, result, width)]
    return lines


def flow(font: Font, width: int, runs: Sequence[tuple[str | None, str]]) -> list[StripLine]:
    """Runs of the strip, each after its swatch, flowed onto lines of ``width``."""
    lines: list[StripLine] = []
    line: StripLine = []
    used = 0
    for colour, text in runs:
        need = (SWATCH if colour else 0) + int(font.getlength(text)) + GAP
        if line and used + need > width:
            lines.append(line)
            line, used = [], 0
        line.append((colour, text))
        used += need
    if line:
        lines.append(line)
    return lines


def light_lines(font: Font, width: int, leds: Mapping[str, str]) -> list[StripLine]:
    """The colours lit, in the palette's order, each by its name after a swatch."""
    names = set(leds.values())
    runs = [(hex_colour(c.rgb), c.name) for c in COLOURS.values() if c.name in names]
    return flow(font, width, [(None, "Lights:"), *runs]) if runs else []


def legend_lines(
    font: Font,
    width: int,
    geo: Geometry,
    layout: Mapping[str, Mapping[str, Any]],
    seats: Sequence[str],
) -> list[StripLine]:
    """What each mark on the picture means, for the marks it uses: the special spaces
    (each after a swatch of its fill), then the pieces' marks."""
    spaces: dict[tuple[str, str], str] = {}
    for sp in geo.get("special", {}).values():
        name = str(sp.get("name", ""))
        if name:
            mark = "".join(PLAIN.get(ch, ch) for ch in str(sp.get("text", "")))
            spaces.setdefault((str(sp["fill"]), name), f"{mark} {name}".strip())
    marks: list[str] = []
    looks = [piece_look(piece, seats) for piece in layout.values()]
    if any(look.kind == "tile" and look.stable for look in looks):
        marks.append("heavy edge: a stable tile")
    if any(look.kind == "tile" and look.owned for look in looks):
        marks.append("bar: whose tile")
    if any(look.kind == "tile" and look.faint for look in looks):
        marks.append("grey letter: a blank")
    for state in sorted({look.state for look in looks if look.kind == "disc" and look.state}):
        marks.append(f"white ring: {state.replace('-', ' ')}")
    lines: list[StripLine] = []
    if spaces:
        runs = [(fill, text) for (fill, _), text in spaces.items()]
        lines += flow(font, width, [(None, "Spaces:"), *runs])
    if marks:
        lines += flow(font, width, [(None, "Marks:"), *((None, m) for m in marks)])
    return lines


def draw_strip(
    draw: ImageDraw.ImageDraw, font: Font, lines: Sequence[StripLine], left: int, top: int
) -> None:
    """The strip's lines from ``top``, each run after its swatch."""
    y = top
    for line in lines:
        x = left
        for colour, text in line:
            if colour is not None:
                draw.rectangle((x, y + 2, x + 11, y + 13), fill=colour, outline="#333333")
                x += SWATCH
            draw.text((x, y), text, fill="#000000", font=font)
            x += int(font.getlength(text)) + GAP
        y += LINE


def wrap(font: Font, text: str, width: int) -> list[str]:
    out: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and font.getlength(candidate) > width:
            out.append(current)
            current = word
        else:
            current = candidate
    if current:
        out.append(current)
    return out
