"""The events the one loop takes off its queue."""

from __future__ import annotations

from dataclasses import dataclass

from hardware.board import BoardSettled, BoardStatus


@dataclass(frozen=True)
class ButtonEvent:
    """A button of the station was pressed (``long`` for a long press)."""

    name: str
    long: bool = False


@dataclass(frozen=True)
class Tick:
    """Time passed; referees with timers look at ``now``."""

    now: float


Event = BoardSettled | BoardStatus | ButtonEvent | Tick
