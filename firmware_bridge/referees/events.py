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
    "TakenUp",
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
    """An action the referee decided was judged, journaled and played, credited to
    ``mover`` (the seat :func:`..decisions.mover_of` named before it was played)."""

    action: Action
    verdict: Verdict
    mover: int


class Refused(Struct, frozen=True):
    """The rules (or the computer's seat) refused an action the referee decided."""

    action: Action
    verdict: Verdict


class TakenUp(Struct, frozen=True):
    """The session took the game up with this referee (a new game, a resumed one, one
    replayed after a take-back) or gave the computer its seats: nothing happened at the
    table, and the referee says what the table shows. ``last`` is the last accepted
    action (its mover, itself, its verdict) of a game replayed, to be recorded."""

    last: tuple[int, Action, Verdict] | None = None


RefereeEvent = BoardChanged | ButtonEvent | Tick | Committed | Refused | TakenUp
"""What a referee decides on (:meth:`..referee.Referee.decide`)."""
