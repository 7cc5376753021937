"""The events the one loop takes off its queue, and the ones a referee decides on."""

from __future__ import annotations

from msgspec import Struct

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


class Tick(Struct, frozen=True):
    """Time passed; referees with timers look at ``now``."""

    now: float


class BoardWait(Struct, frozen=True):
    """A press waits for the board to be read before it is judged.

    ``reading`` once it has waited long enough for the OLED to say so; then False
    when the wait is over: the press follows, or, with a ``failure`` saying what to
    check, the board did not answer and nothing was judged.
    """

    reading: bool
    failure: str = ""


Event = BoardSettled | BoardStatus | BoardWait | ButtonEvent | Tick


class BoardChanged(Struct, frozen=True):
    """The settled board changed: the facts' ``observation`` holds it now."""


class Committed(Struct, frozen=True):
    """An action the referee decided was judged, journaled and played."""

    action: Action
    verdict: Verdict


class Refused(Struct, frozen=True):
    """The rules (or the computer's seat) refused an action the referee decided."""

    action: Action
    verdict: Verdict


RefereeEvent = BoardChanged | ButtonEvent | Tick | Committed | Refused
"""What a referee decides on (:meth:`..referee.Referee.decide`)."""
