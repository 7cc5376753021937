"""One line of a bill of materials."""

from __future__ import annotations

from msgspec import Struct


class BomLine(Struct, frozen=True):
    """One kind of part: how many, which, what for, and what one costs (USD)."""

    part: str
    qty: int
    reference: str
    purpose: str
    low: float
    high: float

    @property
    def total_low(self) -> float:
        return self.qty * self.low

    @property
    def total_high(self) -> float:
        return self.qty * self.high
