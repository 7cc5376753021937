"""The one loop: it takes events off one queue and owns all state.

Device callbacks (button threads, the serial reader) only put events on the
queue; the loop polls the sensor board, hands every event in order to what is
on the table now (a game's session, or the lobby choosing the next game), and is
stepped by tests and the simulation with an injected clock.

A press whose meaning depends on the board (the handler says which) is judged
against the board as it stands after the press: the loop asks the board for a
barrier (:meth:`hardware.board.SyncBoard.sync`) and holds the press, and every
press after it, in order, until the board has been read since and has settled;
every board event before the barrier is handed on first. After
:data:`READING_AFTER_S` of waiting the handler is told (the OLED says "Reading the
board…"); if the board fails to answer, the presses held are dropped, nothing is
judged, and the handler is told what to check.

The computer thinks on a worker thread (:mod:`.thinking`); what it chose comes back
on the same queue, as a :class:`.thinking.Thought`, to the handler that thinks
(:class:`Thinks`), given the loop's ``put`` to send it by.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Protocol, TypeVar, runtime_checkable

from msgspec import Struct

from hardware.board import (
    BoardSettled,
    BoardStatus,
    BoardSynced,
    BoardSyncFailed,
    SensorBoard,
    SyncBoard,
)

from ..referees.events import BoardWait, ButtonEvent, Event, Tick
from .thinking import Deliver, Thought

T = TypeVar("T", Event, Thought)

READING_AFTER_S = 0.15
"""How long a press waits for the board before the OLED says it is reading it."""


class Handler(Protocol):
    """What the loop feeds: a session or the lobby."""

    now: float

    def handle(self, event: Event) -> None: ...

    def wants_ticks(self) -> bool: ...

    def waits_for_board(self, event: ButtonEvent) -> bool:
        """Whether ``event``'s meaning depends on what stands on the board."""
        ...


@runtime_checkable
class Thinks(Protocol):
    """A handler whose computer thinks off the loop's thread (a session)."""

    def thinks_to(self, deliver: Deliver) -> None:
        """Send the computer's thoughts by ``deliver`` (the loop's ``put``)."""
        ...

    def thought(self, thought: Thought) -> None:
        """A move the computer chose came back."""
        ...


Posted = Event | Thought
"""What goes on the loop's queue from outside: devices' events and the computer's thoughts."""


class _Barrier(Struct):
    token: int
    since: float
    told: bool = False


ErrorHandler = Callable[[Posted, Exception], None]
"""Told of an event whose handling raised; it may raise again to stop the loop."""


class Loop:
    def __init__(
        self, handler: Handler, board: SensorBoard, on_error: ErrorHandler | None = None
    ) -> None:
        self.handler = handler
        self.board = board
        self.on_error = on_error
        """Where a failed event goes; None lets the exception out (tests, simulation)."""
        self.events: queue.SimpleQueue[Posted | BoardSynced | BoardSyncFailed] = queue.SimpleQueue()
        self._board_state: BoardSettled | None = None
        self._link_state: BoardStatus | None = None
        self._barrier: _Barrier | None = None
        self._held: list[ButtonEvent] = []
        """Presses waiting for the barrier, in the order they came."""
        if isinstance(handler, Thinks):
            handler.thinks_to(self.put)

    @property
    def board_read(self) -> bool:
        """Whether the board has reported a settled reading since the loop began."""
        return self._board_state is not None

    @property
    def waiting(self) -> bool:
        """Whether presses wait for the board to be read."""
        return self._barrier is not None

    def put(self, event: Posted) -> None:
        """Safe to call from any thread."""
        self.events.put(event)

    def switch(self, handler: Handler) -> None:
        """Hand the table to ``handler``, telling it how the board and its link are now.

        The board only reports changes, so a new game would otherwise not know
        what stands on the board until something moved.
        """
        self.handler = handler
        if isinstance(handler, Thinks):
            handler.thinks_to(self.put)
        if self._link_state is not None:
            handler.handle(self._link_state)
        if self._board_state is not None:
            handler.handle(self._board_state)

    def step(self, now: float) -> int:
        """Poll the board once and handle every queued event; return how many."""
        self.handler.now = now
        for board_event in self.board.poll(now):
            self.events.put(board_event)
        handled = 0
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                break
            handled += self._take(event, now)
        barrier = self._barrier
        # (A hair under the figure counts: times are sums of floats.)
        if (
            barrier is not None
            and not barrier.told
            and now - barrier.since > READING_AFTER_S - 1e-9
        ):
            barrier.told = True
            self._deliver(BoardWait(reading=True))
            handled += 1
        if self.handler.wants_ticks():
            self._deliver(Tick(now))
            handled += 1
        return handled

    def _take(self, event: Posted | BoardSynced | BoardSyncFailed, now: float) -> int:
        """Hand ``event`` on, or hold it behind the barrier; return how many were handed on."""
        if isinstance(event, Thought):
            # Not held behind a barrier: a thought for a position since changed is
            # dropped by the handler; the lobby has none to take.
            handler = self.handler
            if isinstance(handler, Thinks):
                self._guarded(handler.thought, event)
            return 1
        if isinstance(event, BoardSynced | BoardSyncFailed):
            barrier = self._barrier
            if barrier is None or barrier.token != event.token:
                return 0  # a barrier given up on
            self._barrier = None
            held, self._held = self._held, []
            if isinstance(event, BoardSyncFailed):
                self._deliver(BoardWait(reading=False, failure=event.message))
                return 1
            self._deliver(BoardWait(reading=False))
            self._deliver(held[0])
            return 2 + sum(self._take(press, now) for press in held[1:])
        if isinstance(event, ButtonEvent):
            if self._barrier is not None:
                self._held.append(event)
                return 0
            if isinstance(self.board, SyncBoard) and self.handler.waits_for_board(event):
                self._barrier = _Barrier(self.board.sync(now), now)
                self._held.append(event)
                return 0
        elif isinstance(event, BoardSettled):
            self._board_state = event
        elif isinstance(event, BoardStatus):
            self._link_state = event
        self._deliver(event)
        return 1

    def _deliver(self, event: Event) -> None:
        self._guarded(self.handler.handle, event)

    def _guarded(self, handle: Callable[[T], None], event: T) -> None:
        try:
            handle(event)
        except Exception as exc:
            if self.on_error is None:
                raise
            self.on_error(event, exc)
