"""Server-sent events: what changed reaches every open page as it happens.

Each open page holds one of the server's worker threads for as long as it stays
open, waiting on a :class:`Changes` for the next version. Only so many pages may
stream at once (:class:`StreamSlots`), so that some threads are always left for
the pages themselves and the JSON: a page beyond that gets the state now and is
told to come back in a few seconds (the browser's ``EventSource`` reconnects by
itself), so it still follows the game, a few seconds late, instead of waiting.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator

KEEPALIVE_S = 15.0
"""A comment line after this long without news, so that proxies keep the stream open."""
CHECK_S = 1.0
"""How often a waiting stream looks whether its page went away or the server is stopping."""
EVERY_S = 0.25
"""The shortest gap between two events of one stream: changes coming faster are sent
together in the next one, so a page gets at most four events a second however fast
the boards change (each carrying every part changed since the last)."""
RETRY_MS = 5000
"""How long a page that found no free stream waits before it asks again."""

EVENT_HEADERS = (
    ("Cache-Control", "no-cache"),
    ("X-Accel-Buffering", "no"),
)


class Changes:
    """A version number that goes up at every change, and a way to wait until it does.

    Safe to use from any thread: one thread bumps it, every open page waits on it.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self.version = 0
        self.closed = False

    def bump(self) -> None:
        with self._cond:
            self.version += 1
            self._cond.notify_all()

    def close(self) -> None:
        """Wake every waiting page for good: the server is stopping."""
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def wait(self, seen: int, timeout: float) -> None:
        """Return when the version is no longer ``seen``, on close, or after ``timeout``."""
        with self._cond:
            self._cond.wait_for(lambda: self.version != seen or self.closed, timeout)


class StreamSlots:
    """How many pages may hold a worker thread with an open stream at once."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.open >= self.limit:
                return False
            self.open += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.open -= 1


def message(version: int, parts: dict[str, str]) -> bytes:
    """One event: the version it shows and the page's parts that it replaces."""
    data = json.dumps({"version": version, "parts": parts}, separators=(",", ":"))
    return f"data: {data}\n\n".encode()


def stream(
    changes: Changes,
    snapshot: Callable[[], dict[str, str]],
    slots: StreamSlots,
    gone: Callable[[], bool],
) -> Iterator[bytes]:
    """The events of one page: the snapshot now, then again after every change.

    ``gone`` says whether the page has gone away (or the server is stopping); it
    is asked at least every ``CHECK_S`` seconds. A page that finds every slot taken
    gets the snapshot now with a ``retry`` delay, and the stream ends.
    """
    if not slots.take():
        yield f"retry: {RETRY_MS}\n".encode() + message(changes.version, snapshot())
        return
    try:
        seen = -1
        sent = time.monotonic()
        while not changes.closed and not gone():
            if changes.version != seen:
                wait = sent + EVERY_S - time.monotonic()
                if seen >= 0 and wait > 0:
                    time.sleep(wait)  # let changes coming fast gather into one event
                seen = changes.version
                sent = time.monotonic()
                yield message(seen, snapshot())
            elif time.monotonic() - sent >= KEEPALIVE_S:
                sent = time.monotonic()
                yield b": still here\n\n"
            changes.wait(seen, CHECK_S)
    finally:
        slots.give_back()


def stream_headers() -> list[tuple[str, str]]:
    return [("Content-Type", "text/event-stream; charset=utf-8"), *EVENT_HEADERS]
