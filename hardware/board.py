"""What every sensor board gives the daemon: settled observations and link status.

An observation maps each non-empty cell to what its sensor says: ``OCCUPIED`` for
an occupancy switch, or the tag id (upper-case hex) an RFID reader read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

OCCUPIED = "occupied"

Observation = Mapping[str, str]


@dataclass(frozen=True)
class BoardSettled:
    """Every cell has held still for the settle window; this is the board now."""

    observation: Mapping[str, str]


@dataclass(frozen=True)
class BoardStatus:
    """The link to the sensors came or went; ``message`` says what to do about it."""

    connected: bool
    message: str


BoardEvent = BoardSettled | BoardStatus


class SensorBoard(Protocol):
    """A sensor board the daemon polls from its one loop."""

    cells: tuple[str, ...]

    def poll(self, now: float) -> list[BoardEvent]:
        """Read the sensors; return what changed since the last poll (often nothing)."""
        ...

    def close(self) -> None:
        """Release pins or ports."""
        ...
