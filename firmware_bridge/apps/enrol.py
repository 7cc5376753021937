"""Enrolment: lay each tagged piece on the board, name it, and the tag table learns it."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping

from firmware_bridge.runtime.tags import TagTable
from hardware.board import OCCUPIED, BoardSettled, BoardStatus, SensorBoard
from hardware.clock import Clock

from ..runtime.errors import TagConflictError, TagError
from .errors import BoardSilent

log = logging.getLogger(__name__)

NameSource = Callable[[str], str | None] | Iterable[str]
"""Where names come from: a callable given the tag (None to finish), or names in order."""

POLL_INTERVAL_S = 0.02
CONNECT_TIMEOUT_S = 15.0
"""How long ``tabletop enrol`` waits for the board's first report before giving up."""


class _Names:
    """The name source, able to say when an iterable has run out before the next tag."""

    def __init__(self, names: NameSource) -> None:
        self._call = names if callable(names) else None
        self._iter: Iterator[str] | None = None if callable(names) else iter(names)
        self._next = None if self._iter is None else next(self._iter, None)

    @property
    def exhausted(self) -> bool:
        return self._iter is not None and self._next is None

    def name(self, tag: str) -> str | None:
        if self._call is not None:
            return self._call(tag)
        name, self._next = self._next, None if self._iter is None else next(self._iter, None)
        return name


def new_tags(before: Mapping[str, str], after: Mapping[str, str]) -> list[tuple[str, str]]:
    """(cell, tag) for each tag lying on a cell in ``after`` that was not there before."""
    return [
        (cell, value)
        for cell, value in sorted(after.items())
        if value != OCCUPIED and before.get(cell) != value
    ]


def run_enrol(
    board: SensorBoard,
    names: NameSource,
    table_path: str | os.PathLike[str],
    clock: Clock,
    display_text: Callable[[str], None],
    *,
    overwrite: bool = False,
    idle: Callable[[float], object] = time.sleep,
    connect_timeout_s: float | None = None,
    where: str = "the board",
) -> TagTable:
    """Enrol pieces until the name source runs out (an iterable is exhausted or the
    callable returns None); return the table, saved after each piece.

    Each time a tag appears on a cell, the name source names it. A tag already
    enrolled under another name is refused (and shown) unless ``overwrite``.
    ``idle(seconds)`` waits between polls; tests pass a FakeClock's ``advance``.
    With ``connect_timeout_s``, a board that has not reported what lies on it by
    then raises ``BoardSilent`` naming ``where`` (its port), instead of waiting on.
    """
    table = TagTable.load(table_path)
    source = _Names(names)
    seen: Mapping[str, str] = {}
    display_text("Lay a piece on any cell")
    started = clock.now()
    heard = False
    while not source.exhausted:
        now = clock.now()
        if not heard and connect_timeout_s is not None and now - started > connect_timeout_s:
            raise BoardSilent(
                f"{where} has not answered in {connect_timeout_s:g} s: check the USB cable, "
                "and that the profile's [serial] port names the board "
                "(`ls /dev/serial/by-id/`)"
            )
        for event in board.poll(now):
            if isinstance(event, BoardStatus):
                display_text(event.message)
                continue
            if not isinstance(event, BoardSettled):
                continue
            heard = True
            untagged = sorted(
                cell
                for cell, value in event.observation.items()
                if value == OCCUPIED and seen.get(cell) != OCCUPIED
            )
            if untagged:
                display_text(f"No tag read on {untagged[0]}: turn the piece or try another cell")
            for cell, tag in new_tags(seen, event.observation):
                name = None if source.exhausted else source.name(tag)
                if name is None:
                    display_text(f"Enrolled {len(table)} tags")
                    return table
                known = table.lookup(tag)
                try:
                    table.enrol(tag, name, overwrite=overwrite)
                except TagConflictError as exc:
                    log.warning("enrolment refused: %s", exc)
                    display_text(f"{cell}: tag already {known}; lift it")
                    continue
                except TagError as exc:
                    log.warning("enrolment refused: %s", exc)
                    display_text(f"{cell}: {exc}")
                    continue
                table.save(table_path)
                if known == name:
                    display_text(f"{cell}: already {name}. Next piece")
                else:
                    display_text(f"{cell}: {name} enrolled. Next piece")
            seen = event.observation
        idle(POLL_INTERVAL_S)
    display_text(f"Enrolled {len(table)} tags")
    return table
