"""The firmware's matrix scan as the simulated board runs it: simulated pin by pin only
when a switch moved, copied otherwise (the pass keeps its modelled time)."""

from __future__ import annotations

from typing import Any

from .fake_machine import ShiftRegisterMatrix


class SkippedScans:
    """The firmware's matrix scan, simulated pin by pin only when a switch moved.

    Between two scans nothing but the switches changes what a scan reads: while the
    fake matrix's closed switches are those of the last scan simulated, the scan's
    bits are that scan's, copied, and its 595 and 165 pins are left as they stand
    (as the last scan left them). The pass keeps its modelled time (``scan_ms``):
    only the host's CPU is spared. ``simulated`` and ``skipped`` count the scans."""

    def __init__(self, shift: Any, fake: ShiftRegisterMatrix) -> None:
        self._scan = shift.scan
        self._fake = fake
        self._closed: set[int] | None = None
        self._bits = b""
        self.simulated = 0
        self.skipped = 0
        shift.scan = self.scan

    def scan(self, out: bytearray) -> bytearray:
        closed = self._fake.closed
        if self._closed is not None and closed == self._closed:
            out[:] = self._bits
            self.skipped += 1
            return out
        self._scan(out)
        self._closed = set(closed)
        self._bits = bytes(out)
        self.simulated += 1
        return out
