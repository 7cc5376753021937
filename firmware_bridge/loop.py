"""The one loop: it takes events off one queue and owns all state.

Device callbacks (button threads, the serial reader) only put events on the
queue; the loop polls the sensor board, hands every event to the session in
order, and is stepped by tests and the simulation with an injected clock.
"""

from __future__ import annotations

import queue

from hardware.board import SensorBoard

from .events import Event, Tick
from .session import Session


class Loop:
    def __init__(self, session: Session, board: SensorBoard) -> None:
        self.session = session
        self.board = board
        self.events: queue.SimpleQueue[Event] = queue.SimpleQueue()

    def put(self, event: Event) -> None:
        """Safe to call from any thread."""
        self.events.put(event)

    def step(self, now: float) -> int:
        """Poll the board once and handle every queued event; return how many."""
        self.session.now = now
        for board_event in self.board.poll(now):
            self.events.put(board_event)
        handled = 0
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                break
            self.session.handle(event)
            handled += 1
        if self.session.referee.wants_ticks():
            self.session.handle(Tick(now))
            handled += 1
        return handled
