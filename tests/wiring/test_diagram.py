"""The wiring diagram: valid SVG for every shipped profile, naming every pin it uses."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware_bridge.cli import main
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
