"""The project's own parts, those KiCad 9's libraries lack, each from its data sheet's
pin table kept here as data (a test checks each table against the data sheet's)."""

from __future__ import annotations

import tomllib
from importlib import resources

PinRow = tuple[int, str, str]
"""A pin: its number, its data sheet name and its KiCad electrical type."""


def _table(name: str) -> dict[str, object]:
    text = resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
    return tomllib.loads(text)


def adg1606_pins() -> list[PinRow]:
    """The ADG1606's TSSOP-28 pins, from its data sheet's pin table."""
    rows = _table("ADG1606_TSSOP28.toml")["pins"]
    assert isinstance(rows, list)
    return [(int(n), str(name), str(kind)) for n, name, kind in rows]
