"""Work done on a second thread while this one waits for the disk.

A move's journal commit ends in a file sync, which SQLite waits for with Python's
lock released; the move's frame can be drawn in that time instead of after it.
The frame is still handed to the display only once the commit has returned.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

T = TypeVar("T")


@functools.cache
def _worker() -> ThreadPoolExecutor:
    """One long-lived thread for the whole process, made at the first move (its
    module is imported then too, not at start-up, where the first frame waits)."""
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="tabletop-frame")


def while_waiting(wait: Callable[[], None], work: Callable[[], T]) -> T:
    """Run ``work`` on the worker thread while ``wait`` runs on this one; return
    what ``work`` returned once both have finished.

    ``wait`` must leave alone what ``work`` reads: this thread is blocked in it
    (in SQLite's commit) while the worker runs. If ``wait`` raises, ``work`` is
    still waited for before the error goes on, so it never runs into what the
    caller does next.
    """
    drawing: Future[T] = _worker().submit(work)
    try:
        wait()
    except BaseException:
        from concurrent.futures import wait as finished

        finished([drawing])
        raise
    return drawing.result()
