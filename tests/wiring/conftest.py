"""Helpers for writing profile files into a temporary folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

VALID = """\
[board]
name = "test-board"
description = "A 2 × 3 test matrix"
games = ["double-take"]
sensor = "gpio-matrix"
cells = "files-ranks"

[matrix]
row_pins = [4, 17]
column_pins = [23, 24, 25]

[buttons]
roll = 10
left = 9
right = 11
ok = 8
back = 7

[buzzer]
pin = 18

[led]
pin = 14

[oled]
driver = "ssd1306"
i2c_port = 1
i2c_address = 0x3C
rotate = 0
"""

WriteProfile = Callable[..., Path]


@pytest.fixture
def write_profile(tmp_path: Path) -> WriteProfile:
    """Write ``text`` (default: a valid profile) after replacing ``old`` with ``new`` pairs."""

    def write(text: str = VALID, name: str = "board.toml", **_: object) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


def edit(old: str, new: str, text: str = VALID) -> str:
    """The valid profile with one piece of text replaced (which must be there)."""
    assert old in text, old
    return text.replace(old, new, 1)
