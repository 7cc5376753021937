"""The events the one loop takes off its queue, and the ones a referee decides on."""

from __future__ import annotations

from dataclasses import dataclass

from games.core import Action, Verdict
from hardware.board import BoardSettled, BoardStatus, ButtonEvent

__all__ = [
    "BoardChanged",
    "BoardSettled",
    "BoardStatus",
    "BoardWait",
    "ButtonEvent",
    "Committed",
    "Event",
    "RefereeEvent",
    "Refused",
    "Tick",
]


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


@dataclass(frozen=True)
class BoardChanged:
    """The settled board changed: the facts' ``observation`` holds it now."""


@dataclass(frozen=True)
class Committed:
    """An action the referee decided was judged, journaled and played."""

    action: Action
    verdict: Verdict


@dataclass(frozen=True)
class Refused:
    """The rules (or the computer's seat) refused an action the referee decided."""

    action: Action
    verdict: Verdict


RefereeEvent = BoardChanged | ButtonEvent | Tick | Committed | Refused
"""What a referee decides on (:meth:`..referee.Referee.decide`)."""
