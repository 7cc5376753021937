"""The project's own parts, those KiCad 9's libraries lack, each from its data sheet's
pin table kept here as data (a test checks each table against the data sheet's)."""

from __future__ import annotations

import tomllib
from importlib import resources

PinRow = tuple[int, str, str]
"""A pin: its number, its data sheet name and its KiCad electrical type."""

OWN = {"TPIC6B595": "TPIC6B595_SOIC20.toml"}
"""The own parts the KiCad project uses (symbol ``tabletop:<name>``) and their tables."""


def _table(name: str) -> dict[str, object]:
    text = resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
    return tomllib.loads(text)


def _pins(name: str) -> list[PinRow]:
    rows = _table(name)["pins"]
    assert isinstance(rows, list)
    return [(int(n), str(pin), str(kind)) for n, pin, kind in rows]


def adg1606_pins() -> list[PinRow]:
    """The ADG1606's TSSOP-28 pins, from its data sheet's pin table."""
    return _pins("ADG1606_TSSOP28.toml")


def tpic6b595_pins() -> list[PinRow]:
    """The TPIC6B595's SOIC-20 (DW) pins, from its data sheet's pin figure and table."""
    return _pins("TPIC6B595_SOIC20.toml")


def own_part(name: str) -> tuple[list[PinRow], str, str]:
    """An own part's pins, its footprint and the data sheet they come from."""
    table = _table(OWN[name])
    return _pins(OWN[name]), str(table["footprint"]), str(table["datasheet"])
