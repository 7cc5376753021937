"""Enrolment: lay each tagged piece on the board, name it, and the tag table learns it."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping

from firmware_bridge.tags import TagError, TagTable
from hardware.board import OCCUPIED, BoardSettled, BoardStatus, SensorBoard
from hardware.clock import Clock

log = logging.getLogger(__name__)

NameSource = Callable[[str], str | None] | Iterable[str]
"""Where names come from: a callable given the tag (None to finish), or names in order."""

POLL_INTERVAL_S = 0.02


def _name_getter(names: NameSource) -> Callable[[str], str | None]:
    if callable(names):
        return names
    iterator: Iterator[str] = iter(names)
    return lambda _tag: next(iterator, None)


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
) -> TagTable:
    """Enrol pieces until the name source runs out; return the table, saved after each.

    Each time a tag appears on a cell, the name source names it. A tag already
    enrolled under another name is refused (and shown) unless ``overwrite``.
    ``idle(seconds)`` waits between polls; tests pass a FakeClock's ``advance``.
    """
    table = TagTable.load(table_path)
    get_name = _name_getter(names)
    seen: Mapping[str, str] = {}
    display_text("Lay a piece on any cell")
    while True:
        for event in board.poll(clock.now()):
            if isinstance(event, BoardStatus):
                display_text(event.message)
                continue
            if not isinstance(event, BoardSettled):
                continue
            untagged = sorted(
                cell
                for cell, value in event.observation.items()
                if value == OCCUPIED and seen.get(cell) != OCCUPIED
            )
            if untagged:
                display_text(f"No tag read on {untagged[0]}: turn the piece or try another cell")
            for cell, tag in new_tags(seen, event.observation):
                name = get_name(tag)
                if name is None:
                    display_text(f"Enrolled {len(table)} tags")
                    return table
                known = table.lookup(tag)
                try:
                    table.enrol(tag, name, overwrite=overwrite)
                except TagError as exc:
                    log.warning("enrolment refused: %s", exc)
                    display_text(f"{cell}: tag already {known}; lift it")
                    continue
                table.save(table_path)
                if known == name:
                    display_text(f"{cell}: already {name}. Next piece")
                else:
                    display_text(f"{cell}: {name} enrolled. Next piece")
            seen = event.observation
        idle(POLL_INTERVAL_S)
