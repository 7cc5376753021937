"""A profile's wiring diagram as SVG: the Pi's 40-pin header with every used pin
labelled and wired to what it drives (buttons, OLED, buzzer, LED, the matrix's rows
and columns); for a Pico board, the Pico's pins and the chips, reader and supply
they are wired to, below it.

Every wire leaves its pin on the pin's own side of the connector: the left column's
wires go to boxes on the left, the right column's to boxes on the right, so no wire
crosses the connector. A pin's label sits just above its wire, and the wires turn
towards their boxes only beyond the labels, so no wire runs through a label.

``tabletop wiring PROFILE --svg FILE`` writes it. Built with ``xml.etree`` so the
output is well-formed whatever the names hold.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from msgspec import Struct

from wiring.header import header_pins
from wiring.pico import PINOUT, pico_pins
from wiring.profile import Profile
from wiring.table import PinRow, chain_lines, pin_rows

SVG_NS = "http://www.w3.org/2000/svg"

_PITCH = 22
"""Vertical distance between two connector rows, in SVG units."""
_WIDTH = 1320
_CENTRE = _WIDTH // 2
_COLUMN_GAP = 22
_LABEL_ZONE = 120
"""Room beside each pin column for its labels; wires turn only beyond it."""
_LANE = 5
_BOX_WIDTH = 380
_LINE = 18
_CHAR = 6.2
"""A generous average width of one character of the boxes' 11-unit text."""
_COLOURS = {
    "matrix row": "#c0392b",
    "matrix column": "#2471a3",
    "button": "#1e8449",
    "buzzer": "#b9770e",
    "status LED": "#7d3c98",
    "OLED": "#117a65",
    "power": "#555555",
}
_PICO_COLOURS = ("#c0392b", "#2471a3", "#b9770e", "#7d3c98", "#555555", "#117a65")


class _Pin(Struct, frozen=True):
    """One pin of a connector as drawn: where it sits and what it is wired to."""

    physical: int
    label: str
    left: bool
    row: int
    group: str | None
    text: str = ""
    """The line of its device box (empty for an unused pin)."""


def _group(row: PinRow) -> str:
    """Which device box a header pin is wired to."""
    use = row.use
    for key in ("matrix row", "matrix column", "button", "buzzer", "status LED", "OLED"):
        if use.startswith(key):
            return key
    return "power"


def _box_title(group: str, profile: Profile) -> str:
    if group == "matrix row" and profile.matrix is not None:
        level = "low" if profile.matrix.active_low else "high"
        return f"Matrix rows (driven {level}, one at a time)"
    if group == "matrix column":
        return "Matrix columns (read, pulled up)"
    if group == "button":
        return "Button station (each button to GND)"
    if group == "buzzer":
        return "Active buzzer via NPN transistor"
    if group == "status LED":
        return "Status LED (330 Ω, cathode to GND)"
    if group == "OLED":
        o = profile.oled
        return f"OLED {o.driver} {o.width}×{o.height} at 0x{o.i2c_address:02X}"
    return "Power"


def _text(parent: ET.Element, x: float, y: float, text: str, **attrs: str) -> ET.Element:
    halo = {"stroke": "#ffffff", "stroke-width": "3", "paint-order": "stroke"}
    element = ET.SubElement(parent, "text", {"x": f"{x:g}", "y": f"{y:g}", **halo, **attrs})
    element.text = text
    return element


def _rect(parent: ET.Element, x: float, y: float, w: float, h: float, **attrs: str) -> None:
    ET.SubElement(
        parent,
        "rect",
        {"x": f"{x:g}", "y": f"{y:g}", "width": f"{w:g}", "height": f"{h:g}", **attrs},
    )


def text_width(text: str) -> float:
    """How wide a box line is drawn, at most (the boxes are sized to fit it)."""
    return len(text) * _CHAR


def _connector(
    svg: ET.Element,
    top: float,
    title: str,
    pins: list[_Pin],
    titles: dict[str, str],
    colours: dict[str, str],
    order: list[str],
) -> float:
    """Draw one two-column connector at ``top`` with its device boxes on both sides;
    returns the y below everything drawn."""
    rows = max(p.row for p in pins) + 1
    pin_x = {True: _CENTRE - _COLUMN_GAP / 2, False: _CENTRE + _COLUMN_GAP / 2}
    first = top + 40
    _text(svg, _CENTRE, top + 10, title, **{"font-weight": "bold", "text-anchor": "middle"})
    wires = ET.SubElement(svg, "g", {"class": "wires"})
    _rect(
        svg,
        _CENTRE - _COLUMN_GAP / 2 - 14,
        first - 14,
        _COLUMN_GAP + 28,
        (rows - 1) * _PITCH + 28,
        fill="#1c2833",
        rx="4",
    )
    used = [p for p in pins if p.group is not None]
    bottom = first + rows * _PITCH
    for left in (True, False):
        side = [p for p in used if p.left == left]
        # Boxes in the order of their first pin, so the wires cross each other less.
        groups = sorted(
            (g for g in order if any(p.group == g for p in side)),
            key=lambda g: min(p.row for p in side if p.group == g),
        )
        # Lanes: the vertical runs, one per wire, beyond the labels; the wire whose
        # pin is highest turns nearest the connector.
        side.sort(key=lambda p: p.row)
        lane = {p.physical: i for i, p in enumerate(side)}
        lanes_edge = pin_x[left] + (-1 if left else 1) * (_LABEL_ZONE + _LANE * (len(side) + 1))
        box_x = lanes_edge - _BOX_WIDTH - 10 if left else lanes_edge + 10
        y = first - 20
        for group in groups:
            entries = sorted((p for p in side if p.group == group), key=lambda p: p.row)
            colour = colours[group]
            height = 26 + len(entries) * _LINE
            _rect(svg, box_x, y, _BOX_WIDTH, height, fill="none", stroke=colour, rx="6")
            svg[-1].set("stroke-width", "2")
            _text(svg, box_x + 10, y + 18, titles[group], **{"font-weight": "bold", "fill": colour})
            for i, p in enumerate(entries):
                ey = y + 36 + i * _LINE
                _text(svg, box_x + 12, ey, p.text, **{"font-size": "11"})
                px, py = pin_x[left], first + p.row * _PITCH
                step = -1 if left else 1
                bend = pin_x[left] + step * (_LABEL_ZONE + _LANE * (lane[p.physical] + 1))
                edge = box_x + _BOX_WIDTH if left else box_x
                points = ((px + step * 8, py), (bend, py), (bend, ey - 4), (edge, ey - 4))
                ET.SubElement(
                    wires,
                    "polyline",
                    {
                        "points": " ".join(f"{x:g},{yy:g}" for x, yy in points),
                        "fill": "none",
                        "stroke": colour,
                        "stroke-width": "1.2",
                        "data-pin": str(p.physical),
                    },
                )
            y += height + 14
        bottom = max(bottom, y)
    for p in pins:
        x, py = pin_x[p.left], first + p.row * _PITCH
        colour = colours[p.group] if p.group is not None else "#d5d8dc"
        ET.SubElement(
            svg,
            "circle",
            {"cx": f"{x:g}", "cy": f"{py:g}", "r": "7", "fill": colour, "stroke": "#ffffff"},
        )
        _text(
            svg,
            x,
            py + 3,
            str(p.physical),
            **{"font-size": "7", "text-anchor": "middle", "fill": "#000000", "stroke": "none"},
        )
        # A used pin's label rides just above its wire; an unused one sits level.
        ly = py - 4 if p.group is not None else py + 4
        lx = x - 12 if p.left else x + 12
        anchor = "end" if p.left else "start"
        fill = "#000000" if p.group is not None else "#999999"
        _text(svg, lx, ly, p.label, **{"text-anchor": anchor, "fill": fill, "font-size": "10"})
    return bottom + 20


def _header_pins(profile: Profile) -> tuple[list[_Pin], dict[str, str]]:
    used = {r.physical: r for r in pin_rows(profile)}
    pins = []
    for pin in header_pins():
        row = used.get(pin.physical)
        pins.append(
            _Pin(
                pin.physical,
                row.header_name if row else pin.name,
                pin.physical % 2 == 1,
                (pin.physical - 1) // 2,
                _group(row) if row else None,
                f"(pin {row.physical}): {row.use}" if row else "",
            )
        )
    groups = {p.group for p in pins if p.group is not None}
    return pins, {g: _box_title(g, profile) for g in groups}


def _pico_pins(profile: Profile) -> tuple[list[_Pin], list[str]]:
    used = {p.physical: p for p in pico_pins(profile)}
    order: list[str] = []
    for pin in sorted(used.values()):
        if pin.group not in order:
            order.append(pin.group)
    pins = []
    for physical, name in PINOUT.items():
        p = used.get(physical)
        left = physical <= 20
        pins.append(
            _Pin(
                physical,
                name,
                left,
                physical - 1 if left else 40 - physical,
                p.group if p else None,
                f"(pin {physical}): {p.use}" if p else "",
            )
        )
    return pins, order


def wiring_svg(profile: Profile) -> str:
    """The wiring diagram of ``profile`` as an SVG document."""
    ET.register_namespace("", SVG_NS)
    svg = ET.Element(
        "svg",
        {"xmlns": SVG_NS, "font-family": "sans-serif", "font-size": "12"},
    )
    title = ET.SubElement(svg, "title")
    title.text = f"Wiring of {profile.name}"
    _text(
        svg,
        20,
        28,
        f"{profile.name}: {profile.description}".rstrip(": "),
        **{"font-size": "16", "font-weight": "bold"},
    )
    pins, titles = _header_pins(profile)
    order = ["matrix row", "matrix column", "button", "buzzer", "status LED", "OLED", "power"]
    y = _connector(svg, 50, "Raspberry Pi 40-pin header (J8)", pins, titles, _COLOURS, order)
    if profile.serial is not None:
        s = profile.serial
        _text(
            svg,
            20,
            y + 10,
            f"Pico sensor board: {s.rows}×{s.columns} {s.sensor}, USB cable to the Pi "
            f"({s.baudrate} baud), port {s.port}",
            **{"font-weight": "bold", "fill": "#34495e"},
        )
        pico, groups = _pico_pins(profile)
        colours = {g: _PICO_COLOURS[i % len(_PICO_COLOURS)] for i, g in enumerate(groups)}
        y = _connector(
            svg,
            y + 30,
            "Raspberry Pi Pico (USB at the top; chips at 3.3 V)",
            pico,
            {g: g for g in groups},
            colours,
            groups,
        )
    for line in chain_lines(profile):
        _text(svg, 20, y + 10, line.strip(), fill="#34495e")
        y += _LINE
    y += 10
    svg.set("width", str(_WIDTH))
    svg.set("height", f"{y:g}")
    svg.set("viewBox", f"0 0 {_WIDTH} {y:g}")
    return ET.tostring(svg, encoding="unicode", xml_declaration=True) + "\n"
