"""The firmware's tag reader on a simulated board, each read charged the time it
takes on the real part (its switching, its tag's power-up, its SPI transfers)."""

from __future__ import annotations

from typing import Any, Protocol

from wiring.profile import Timing


class Pass(Protocol):
    """The simulated board's pass of the firmware's loop, as long as it lasts so far."""

    pass_us: float


class TimedReaders:
    """The firmware's reader, each read charged its time on the real part to
    ``board``'s pass; everything else it is asked is the reader's own."""

    def __init__(self, readers: Any, timing: Timing, board: Pass):
        self.readers = readers
        self.timing = timing
        self.board = board

    def read_uid(self, index: int) -> bytes | None:
        tag: bytes | None = self.readers.read_uid(index)
        self.board.pass_us += self.timing.read_us(tag)
        return tag

    def __getattr__(self, name: str) -> Any:
        return getattr(self.readers, name)
