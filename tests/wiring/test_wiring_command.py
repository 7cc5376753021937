"""``tabletop wiring``: the list of profiles without one, one profile's pins with one,
and a diagram path that cannot be written is the one line said."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from wiring.loader import list_profiles, load_profile


def test_without_a_profile_it_lists_them_one_a_line() -> None:
    out = io.StringIO()
    assert main(["wiring"], out=out) == 0
    lines = out.getvalue().splitlines()
    names = list_profiles()
    assert len(lines) == len(names) + 1
    for line, name in zip(lines, names, strict=False):
        assert line.split()[0] == name and load_profile(name).description in line
    assert lines[-1].startswith("tabletop wiring PROFILE")


def test_a_diagram_that_cannot_be_written_prints_nothing_else(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = io.StringIO()
    target = tmp_path / "missing" / "x.svg"
    assert main(["wiring", "double-take-gpio", "--svg", str(target)], out=out) == 2
    assert out.getvalue() == ""
    assert capsys.readouterr().err.strip() == f"tabletop: --svg {target}: No such file or directory"
