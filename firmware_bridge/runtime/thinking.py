"""The computer thinks off the loop's thread: a move asked for is chosen on one worker
thread, and what it chose comes back to the loop as a :class:`Thought` event.

The loop goes on meanwhile: a piece moved or a button pressed while the computer
thinks is handled at once. A thought is for one position, the game object and the
number of actions played; one that comes back for a position no longer on the table
(a take-back, a move made, the game over) is dropped. A hint (a long press of ok) is
thought the same way, and shown when it comes back.

A thought is known to the table only once the loop's clock has passed the time it
took: on a real table that is so when it arrives; in ``tabletop sim``, whose clock is
simulated, the clock is moved on by the time measured, so the think is not hidden.
"""

from __future__ import annotations

import logging
import queue
import sys
import threading
import time
from collections.abc import Callable

from msgspec import Struct

from games.core import Action, Game

log = logging.getLogger("tabletop")

THINKING_AFTER_S = 0.3
"""How long the computer thinks before the OLED says so ("Thinking…", the seat)."""
SWITCH_S = 0.001
"""The interpreter's switch interval once the worker runs (``sys.setswitchinterval``):
how long the loop's thread may wait for the worker to let it run. Measured
(``docs/performance.md``): at the default 5 ms a loop woken while the computer thought
ran up to 24 ms late, at 1 ms up to 7 ms."""


class Thought(Struct, frozen=True):
    """What the worker chose for ``game`` with ``played`` actions played."""

    game: Game
    played: int
    action: Action | None
    seconds: float
    """How long the choice took, measured on the worker's clock."""
    hint: bool = False
    """Whether it is a hint asked for (a long press of ok), not the computer's move."""
    failure: str = ""
    """Why no move was chosen, when choosing failed (a hint says it)."""


class Asked(Struct):
    """A move asked of the worker, and since when (the loop's clock)."""

    game: Game
    played: int
    seat: int
    since: float
    thought: Thought | None = None
    """The answer, once it came back."""
    told: bool = False
    """Whether the OLED has said the computer is thinking."""
    given: bool = False
    """Whether the answer was given to the table (the ruling shows it)."""

    def of(self, game: Game) -> bool:
        """Whether this is the question for ``game`` as it stands now."""
        return self.game is game and self.played == len(game.history)

    def known(self, now: float) -> bool:
        """Whether the answer is in and the loop's clock has passed the time it took."""
        thought = self.thought
        return thought is not None and now >= self.since + thought.seconds - 1e-9

    def due(self) -> float | None:
        """When the answer is known at the table (None: not back yet)."""
        return None if self.thought is None else self.since + self.thought.seconds


Work = Callable[[], Action | None]


Deliver = Callable[[Thought], None]
"""Takes a :class:`Thought`: the loop's ``put``, safe from any thread."""


class Thinker:
    """One worker thread choosing the computer's moves, one at a time, in order.

    The thread is a daemon's: a table switched off while the computer thinks stops.
    One serves the process (:func:`thinker`): the tables of one process take turns.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Game, int, Work, Deliver, bool]] = queue.SimpleQueue()
        self._idle = threading.Event()
        self._idle.set()
        self._pending = 0
        self._lock = threading.Lock()
        sys.setswitchinterval(SWITCH_S)
        self._thread = threading.Thread(target=self._run, name="tabletop-think", daemon=True)
        self._thread.start()

    def ask(self, game: Game, work: Work, deliver: Deliver, hint: bool = False) -> None:
        """Choose ``work``'s move for ``game`` as it stands, and ``deliver`` it (``hint``:
        the move is a hint's)."""
        with self._lock:
            self._pending += 1
            self._idle.clear()
        self._jobs.put((game, len(game.history), work, deliver, hint))

    def wait(self, timeout: float) -> bool:
        """Wait (in real time, at most ``timeout`` seconds) until every move asked is
        delivered; whether it was. For the simulation and tests."""
        return self._idle.wait(timeout)

    def _run(self) -> None:
        while True:
            game, played, work, deliver, hint = self._jobs.get()
            start = time.perf_counter()
            failure = ""
            try:
                action = work()
            except Exception as exc:  # a player's fault: people play the turn
                if not (hint and isinstance(exc, ValueError)):  # a hint says why there is none
                    log.exception("the computer failed to choose a move")
                action, failure = None, str(exc) or type(exc).__name__
            seconds = time.perf_counter() - start
            try:
                deliver(Thought(game, played, action, seconds, hint, failure))
            finally:
                with self._lock:
                    self._pending -= 1
                    if self._pending == 0:
                        self._idle.set()


_THINKER: list[Thinker] = []
_MADE = threading.Lock()


def thinker() -> Thinker:
    """The process's worker, started the first time a table asks."""
    with _MADE:
        if not _THINKER:
            _THINKER.append(Thinker())
        return _THINKER[0]
