"""The one loop: it takes events off one queue and owns all state.

Device callbacks (button threads, the serial reader) only put events on the
queue; the loop polls the sensor board, hands every event in order to what is
on the table now (a game's session, or the lobby choosing the next game), and is
stepped by tests and the simulation with an injected clock.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Protocol

from hardware.board import BoardSettled, BoardStatus, SensorBoard

from .events import Event, Tick


class Handler(Protocol):
    """What the loop feeds: a session or the lobby."""

    now: float

    def handle(self, event: Event) -> None: ...

    def wants_ticks(self) -> bool: ...


ErrorHandler = Callable[[Event, Exception], None]
"""Told of an event whose handling raised; it may raise again to stop the loop."""


class Loop:
    def __init__(
        self, handler: Handler, board: SensorBoard, on_error: ErrorHandler | None = None
    ) -> None:
        self.handler = handler
        self.board = board
        self.on_error = on_error
        """Where a failed event goes; None lets the exception out (tests, simulation)."""
        self.events: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self._board_state: BoardSettled | None = None
        self._link_state: BoardStatus | None = None

    def put(self, event: Event) -> None:
        """Safe to call from any thread."""
        self.events.put(event)

    def switch(self, handler: Handler) -> None:
        """Hand the table to ``handler``, telling it how the board and its link are now.

        The board only reports changes, so a new game would otherwise not know
        what stands on the board until something moved.
        """
        self.handler = handler
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
            if isinstance(event, BoardSettled):
                self._board_state = event
            elif isinstance(event, BoardStatus):
                self._link_state = event
            self._deliver(event)
            handled += 1
        if self.handler.wants_ticks():
            self._deliver(Tick(now))
            handled += 1
        return handled

    def _deliver(self, event: Event) -> None:
        try:
            self.handler.handle(event)
        except Exception as exc:
            if self.on_error is None:
                raise
            self.on_error(event, exc)
