"""One line of a bill of materials."""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

Section = Literal["pcb", "buy"]
"""Where a part goes: soldered to the sensor PCB (a part of its schematic, so KiCad's
BOM lists it too) or bought to go with it (supplies, cables, the top, the pieces)."""


class BomLine(Struct, frozen=True):
    """One kind of part: how many, which, what for, and what one costs (USD).

    ``reference`` is the manufacturer's part number (or "generic" and what to ask
    for), ``maker`` the manufacturer and ``distributor`` one distributor's order
    number (Mouser's, "" for a generic part)."""

    part: str
    qty: int
    reference: str
    purpose: str
    low: float
    high: float
    maker: str = ""
    distributor: str = ""
    section: Section = "buy"

    @property
    def total_low(self) -> float:
        return self.qty * self.low

    @property
    def total_high(self) -> float:
        return self.qty * self.high
