"""The events the one loop takes off its queue."""

from __future__ import annotations

from dataclasses import dataclass

from hardware.board import BoardSettled, BoardStatus, ButtonEvent

__all__ = ["BoardSettled", "BoardStatus", "BoardWait", "ButtonEvent", "Event", "Tick"]


@dataclass(frozen=True)
class Tick:
    """Time passed; referees with timers look at ``now``."""

    now: float


@dataclass(frozen=True)
class BoardWait:
    """A press waits for the board to be read before it is judged.

    ``reading`` once it has waited long enough for the OLED to say so; then False
    when the wait is over: the press follows, or, with a ``failure`` saying what to
    check, the board did not answer and nothing was judged.
    """

    reading: bool
    failure: str = ""


Event = BoardSettled | BoardStatus | BoardWait | ButtonEvent | Tick
