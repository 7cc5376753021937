"""Holding events while the disk is full: which are held, when they are tried again,
and from which board they are delivered again."""

from __future__ import annotations

from hardware.board import BoardSettled, BoardStatus

from ..referees.events import Event, Tick

RETRY_FULL_DISK_S = 1.0
"""How often a session held by a full disk tries to save its input again."""


class Held:
    """The events held by a full disk, with the board as it stood before them.

    An event the journal could not take is held with every event after it; once a
    second has passed they are delivered again, from the board as it stood before
    them, until the journal takes them."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.retry_at = 0.0
        self.board_before: dict[str, str] | None = None
        """The board as the referee last saw it with everything saved, while held."""

    def waiting(self) -> bool:
        return bool(self.events)

    def sort(self, event: Event, now: float) -> tuple[list[Event], list[Event], list[Event]]:
        """``event`` and what is held, at ``now``: the events to deliver fresh, those
        released from the hold, and those to deliver again (the board as it stood
        before them first)."""
        fresh: list[Event] = []
        if not self.events or isinstance(event, BoardStatus):
            fresh.append(event)
        elif not isinstance(event, Tick):
            # Of the board states that come after the held event, only the newest matters.
            if (
                isinstance(event, BoardSettled)
                and len(self.events) > 1
                and isinstance(self.events[-1], BoardSettled)
            ):
                self.events.pop()
            self.events.append(event)
        held: list[Event] = []
        # (A hair early counts: the clock's time is a sum of floats.)
        if self.events and now >= self.retry_at - 1e-6:
            held, self.events = self.events, []
        again: list[Event] = []
        if held and self.board_before is not None:
            again.append(BoardSettled(self.board_before))
        again.extend(Tick(now) if isinstance(e, Tick) else e for e in held)
        return fresh, held, again

    def hold(
        self, fresh: list[Event], held: list[Event], now: float, before: dict[str, str]
    ) -> None:
        """Hold ``fresh`` and ``held`` again, the disk being full at ``now``; ``before``
        is the board as the referee saw it before them."""
        if self.board_before is None:
            self.board_before = before
        # The events of this call, then any still held from before (a board
        # status delivered while events wait is never held itself).
        again_held: list[Event] = [e for e in fresh + held if not isinstance(e, BoardStatus)]
        self.events = again_held + self.events
        self.retry_at = now + RETRY_FULL_DISK_S

    def saved(self) -> None:
        """What was held is saved: the board before it is no longer needed."""
        self.board_before = None
