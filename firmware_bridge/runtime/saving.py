"""Saving before telling: what the journal has staged is saved while the frame is
drawn on another thread, and only then is what waited for the save told."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from ..journal import Journal
from .overlap import while_waiting

T = TypeVar("T")


class Outbox:
    """What is told (sounds, listeners, hooks) once the journal has saved."""

    def __init__(self) -> None:
        self.told: list[Callable[[], None]] = []

    def append(self, tell: Callable[[], None]) -> None:
        self.told.append(tell)

    def extend(self, tells: Iterable[Callable[[], None]]) -> None:
        self.told.extend(tells)

    def clear(self) -> None:
        """Forget what was to be told: it was not saved."""
        self.told.clear()

    def save(self, journal: Journal, meanwhile: Callable[[], T]) -> T:
        """Save what ``journal`` has staged, doing ``meanwhile`` on another thread while
        the disk syncs, then tell what waited for the save; return what it returned.

        ``meanwhile`` may read the session but not change the journal: the session's
        thread is in the journal's commit while it runs.
        """
        done = while_waiting(journal.save, meanwhile) if journal.staged else meanwhile()
        told, self.told = self.told, []
        for tell in told:
            tell()
        return done
