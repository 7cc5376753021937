"""A profile's wiring diagram as SVG: the Pi's 40-pin header with every used pin
labelled, and what each is wired to (buttons, OLED, buzzer, LED, the matrix's rows
and columns, or the Pico on USB).

``tabletop wiring PROFILE --svg FILE`` writes it. Built with ``xml.etree`` so the
output is well-formed whatever the names hold.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from wiring.header import header_pins
from wiring.profile import Profile
from wiring.table import PinRow, pin_rows

SVG_NS = "http://www.w3.org/2000/svg"

_PITCH = 22
"""Vertical distance between two header rows, in SVG units."""
_TOP = 80
_HEADER_X = 330
_DEVICE_X = 720
_COLOURS = {
    "matrix row": "#c0392b",
    "matrix column": "#2471a3",
    "button": "#1e8449",
    "buzzer": "#b9770e",
    "status LED": "#7d3c98",
    "OLED": "#117a65",
    "power": "#555555",
}


@dataclass(frozen=True)
class _Entry:
    """One line of a device box, wired to one header pin."""

    group: str
    text: str
    physical: int


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
        return "Buzzer (- to GND)"
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


def _pin_xy(physical: int) -> tuple[float, float]:
    row = (physical - 1) // 2
    x = _HEADER_X if physical % 2 else _HEADER_X + _PITCH
    return x, _TOP + row * _PITCH


def wiring_svg(profile: Profile) -> str:
    """The wiring diagram of ``profile`` as an SVG document."""
    rows = pin_rows(profile)
    used = {r.physical: r for r in rows}
    groups: dict[str, list[_Entry]] = {}
    for r in rows:
        group = _group(r)
        groups.setdefault(group, []).append(
            _Entry(group, f"{r.header_name} (pin {r.physical}): {r.use}", r.physical)
        )

    # Device boxes, one under the other, their lines as tall as their entries.
    boxes: list[tuple[str, list[_Entry], float]] = []
    y = _TOP - 30
    order = ["matrix row", "matrix column", "button", "buzzer", "status LED", "OLED"]
    for group in order:
        entries = groups.get(group)
        if not entries:
            continue
        boxes.append((group, entries, y))
        y += 30 + len(entries) * 18 + 16
    serial_y = y
    if profile.serial is not None:
        y += 90
    height = max(y, _TOP + 20 * _PITCH + 60) + 20
    width = 1300

    ET.register_namespace("", SVG_NS)
    svg = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "width": str(width),
            "height": f"{height:g}",
            "viewBox": f"0 0 {width} {height:g}",
            "font-family": "sans-serif",
            "font-size": "12",
        },
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
    _text(
        svg, _HEADER_X - 40, _TOP - 30, "Raspberry Pi 40-pin header (J8)", **{"font-weight": "bold"}
    )

    # Wires first, so the header's labels are drawn over them (with a white halo).
    wires = ET.SubElement(svg, "g", {"id": "wires"})
    # The header: two columns of 20 pins, odd on the left, even on the right.
    ET.SubElement(
        svg,
        "rect",
        {
            "x": str(_HEADER_X - 14),
            "y": str(_TOP - 14),
            "width": str(_PITCH + 28),
            "height": str(20 * _PITCH + 6),
            "fill": "#1c2833",
            "rx": "4",
        },
    )
    for pin in header_pins():
        x, py = _pin_xy(pin.physical)
        row = used.get(pin.physical)
        fill = _COLOURS[_group(row)] if row else "#d5d8dc"
        ET.SubElement(
            svg,
            "circle",
            {
                "cx": f"{x:g}",
                "cy": f"{py:g}",
                "r": "7",
                "fill": fill,
                "stroke": "#ffffff",
                "stroke-width": "1",
            },
        )
        _text(
            svg,
            x,
            py + 3,
            str(pin.physical),
            **{"font-size": "7", "text-anchor": "middle", "fill": "#000000", "stroke": "none"},
        )
        label = pin.name if row is None else row.header_name
        colour = "#999999" if row is None else "#000000"
        if pin.physical % 2:
            _text(svg, x - 14, py + 4, label, **{"text-anchor": "end", "fill": colour})
        else:
            _text(svg, x + 14, py + 4, label, fill=colour)

    # Device boxes and the wires to them.
    for group, entries, top in boxes:
        colour = _COLOURS[group]
        box_h = 26 + len(entries) * 18
        ET.SubElement(
            svg,
            "rect",
            {
                "x": str(_DEVICE_X),
                "y": f"{top:g}",
                "width": "560",
                "height": f"{box_h:g}",
                "fill": "none",
                "stroke": colour,
                "stroke-width": "2",
                "rx": "6",
            },
        )
        _text(
            svg,
            _DEVICE_X + 10,
            top + 18,
            _box_title(group, profile),
            **{"font-weight": "bold", "fill": colour},
        )
        for i, entry in enumerate(entries):
            ey = top + 36 + i * 18
            _text(svg, _DEVICE_X + 14, ey, entry.text)
            px, py = _pin_xy(entry.physical)
            start = px + 8 if entry.physical % 2 == 0 else px - 8
            bend = 560 + order.index(group) * 8
            ET.SubElement(
                wires,
                "polyline",
                {
                    "points": " ".join(
                        f"{x:g},{y:g}"
                        for x, y in (
                            (start, py),
                            (bend, py),
                            (bend, ey - 4),
                            (_DEVICE_X + 10, ey - 4),
                        )
                    ),
                    "fill": "none",
                    "stroke": colour,
                    "stroke-width": "1.2",
                    "opacity": "0.8",
                },
            )

    if profile.serial is not None:
        s = profile.serial
        ET.SubElement(
            svg,
            "rect",
            {
                "x": str(_DEVICE_X),
                "y": f"{serial_y:g}",
                "width": "560",
                "height": "70",
                "fill": "none",
                "stroke": "#34495e",
                "stroke-width": "2",
                "rx": "6",
            },
        )
        _text(
            svg,
            _DEVICE_X + 10,
            serial_y + 18,
            "Pico sensor board (USB, no header pins)",
            **{"font-weight": "bold", "fill": "#34495e"},
        )
        _text(
            svg,
            _DEVICE_X + 14,
            serial_y + 38,
            f"{s.rows}×{s.columns} {s.sensor} sensors, {s.baudrate} baud",
        )
        _text(svg, _DEVICE_X + 14, serial_y + 56, f"port {s.port}")
    return ET.tostring(svg, encoding="unicode", xml_declaration=True) + "\n"
