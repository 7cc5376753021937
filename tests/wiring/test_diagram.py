"""The wiring diagram: valid SVG for every shipped profile, naming every pin it uses."""

from __future__ import annotations

import io
import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from wiring.diagram import SVG_NS, wiring_svg
from wiring.loader import list_profiles, load_profile
from wiring.table import pin_rows


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    assert root.tag == f"{{{SVG_NS}}}svg"
    return ["".join(t.itertext()) for t in root.iter(f"{{{SVG_NS}}}text")]


@pytest.mark.parametrize("name", list_profiles())
def test_diagram_is_valid_svg_naming_every_pin_used(name: str, tmp_path: Path) -> None:
    profile = load_profile(name)
    out = tmp_path / f"{name}.svg"
    assert main(["wiring", name, "--svg", str(out)], out=io.StringIO()) == 0
    svg = out.read_text(encoding="utf-8")
    labels = texts(svg)
    joined = "\n".join(labels)
    for row in pin_rows(profile):
        assert f"(pin {row.physical}): {row.use}" in joined, row
        assert row.header_name in labels, row
    for bcm in profile.used_pins():
        assert f"GPIO{bcm}" in joined
    if profile.serial is not None:
        assert any(profile.serial.port in t for t in labels)
        assert any("Pico" in t for t in labels)
    else:
        assert any(t.startswith("Matrix rows") for t in labels)
        assert any(t.startswith("Matrix columns") for t in labels)
    for part in ("Button station", "OLED", "Raspberry Pi 40-pin header"):
        assert any(part in t for t in labels), part


def test_every_header_pin_is_drawn_and_unused_ones_keep_their_names() -> None:
    labels = texts(wiring_svg(load_profile("double-take-pico")))
    numbers = {t for t in labels if t.isdigit()}
    assert numbers == {str(n) for n in range(1, 41)}
    assert "GPIO26" in labels  # free on the Pico board: shown by its plain name


def test_the_diagram_is_the_same_every_time() -> None:
    profile = load_profile("doubles-wild-gpio")
    assert wiring_svg(profile) == wiring_svg(profile)


def test_svg_needs_one_profile(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["wiring", "--svg", str(tmp_path / "x.svg")], out=io.StringIO()) == 2
    assert "name it" in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()


def test_svg_into_a_missing_folder_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "no" / "x.svg"
    assert main(["wiring", "sim", "--svg", str(target)], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "--svg" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


Box = tuple[float, float, float, float]
Point = tuple[float, float]


def _boxes(svg: str) -> tuple[list[Box], list[list[Point]]]:
    """The text boxes (x0, y0, x1, y1, estimated generously) and the wires' points."""
    root = ET.fromstring(svg)
    boxes = []
    for t in root.iter(f"{{{SVG_NS}}}text"):
        size = float(t.get("font-size", "12"))
        if size < 8:
            continue  # the pin numbers inside the pin circles
        text = "".join(t.itertext())
        x, y = float(t.get("x", "0")), float(t.get("y", "0"))
        width = len(text) * size * 0.6
        if t.get("text-anchor") == "end":
            x -= width
        elif t.get("text-anchor") == "middle":
            x -= width / 2
        boxes.append((x, y - size * 0.75, x + width, y + size * 0.2))
    wires = [
        [tuple(float(v) for v in point.split(",")) for point in line.get("points", "").split()]
        for line in root.iter(f"{{{SVG_NS}}}polyline")
    ]
    return boxes, wires  # type: ignore[return-value]


def _crosses(a: tuple[float, float], b: tuple[float, float], box: tuple[float, ...]) -> bool:
    x0, y0, x1, y1 = box
    if a[1] == b[1]:  # horizontal
        return y0 < a[1] < y1 and min(a[0], b[0]) < x1 and max(a[0], b[0]) > x0
    return x0 < a[0] < x1 and min(a[1], b[1]) < y1 and max(a[1], b[1]) > y0


@pytest.mark.parametrize("name", list_profiles())
def test_every_wire_leaves_on_its_own_side_and_crosses_no_label(name: str) -> None:
    svg = wiring_svg(load_profile(name))
    root = ET.fromstring(svg)
    centre = float(root.get("width", "0")) / 2
    lines = list(root.iter(f"{{{SVG_NS}}}polyline"))
    assert lines
    for line in lines:
        points = [tuple(float(v) for v in p.split(",")) for p in line.get("points", "").split()]
        # All of a wire lies on the side of the connector its pin is on.
        sides = {x < centre for x, _ in points}
        assert len(sides) == 1, line.get("data-pin")
        # It starts at its own pin's circle, level with it.
        pin = int(line.get("data-pin", "0"))
        circles = [
            c
            for c in root.iter(f"{{{SVG_NS}}}circle")
            if abs(float(c.get("cy", "0")) - points[0][1]) < 0.01
            and abs(float(c.get("cx", "0")) - points[0][0]) <= 8
        ]
        assert len(circles) == 1, pin
    boxes, wires = _boxes(svg)
    for wire in wires:
        for a, b in itertools.pairwise(wire):
            for box in boxes:
                assert not _crosses(a, b, box), (name, a, b, box)


@pytest.mark.parametrize("name", list_profiles())
def test_every_box_line_fits_its_box(name: str) -> None:
    from wiring.diagram import text_width

    profile = load_profile(name)
    for row in pin_rows(profile):
        assert text_width(f"(pin {row.physical}): {row.use}") + 24 <= 380
