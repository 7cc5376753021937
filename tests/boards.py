"""A stand-in for the sensor board: the events a test queues are what the next poll returns."""

from __future__ import annotations

from hardware.board import BoardEvent


class FakeBoard:
    """A sensor board whose events the test hands in through ``pending``."""

    def __init__(self, cells: tuple[str, ...] = ()) -> None:
        self.cells = cells
        self.pending: list[BoardEvent] = []

    def poll(self, now: float) -> list[BoardEvent]:
        out, self.pending = self.pending, []
        return out

    def close(self) -> None:
        pass
