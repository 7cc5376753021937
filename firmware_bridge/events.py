"""The events the one loop takes off its queue."""

from __future__ import annotations

from dataclasses import dataclass

from hardware.board import BoardSettled, BoardStatus
from hardware.buttons import ButtonEvent

__all__ = ["BoardSettled", "BoardStatus", "ButtonEvent", "Event", "Tick"]


@dataclass(frozen=True)
class Tick:
    """Time passed; referees with timers look at ``now``."""

    now: float


Event = BoardSettled | BoardStatus | ButtonEvent | Tick
