"""The live file: what the table shows now, beside the journal, for spectator processes.

The journal holds every accepted input; it does not hold what only the running
session knows — the fixes the board waits for, the OLED's words, the text of the
last move. A ``LiveFile`` listener writes the session's state dict to
``<journal>.live.json`` after every change, atomically (a temporary file renamed
over the old one), so a reader never sees half a file. It is not synced to disk:
after a power cut the journal is the record and the next change rewrites it.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from ..storage.files import write_whole

log = logging.getLogger("tabletop")

SUFFIX = ".live.json"


def live_path(journal: Path) -> Path:
    """Where the live file of ``journal`` is: ``journal.sqlite.live.json``."""
    return journal.with_name(journal.name + SUFFIX)


class LiveFile:
    """A session listener that keeps ``<journal>.live.json`` up to date.

    A file that cannot be written is logged once and play goes on: spectators are
    never a reason to hold up the game.
    """

    def __init__(self, journal: Path, game_id: int) -> None:
        self.path = live_path(journal)
        self.game_id = game_id
        self._failed = False

    def __call__(self, state: dict[str, Any]) -> None:
        data = json.dumps({"game_id": self.game_id, "state": state}, separators=(",", ":"))
        try:
            write_whole(self.path, data, mode=0o644, durable=False)
        except OSError as exc:
            if not self._failed:
                log.warning(
                    "cannot write the live file %s (%s); spectators see less", self.path, exc
                )
                self._failed = True
            return
        self._failed = False


def _not_a_number(name: str) -> float:
    raise ValueError(f"{name} is not a number")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text} is too large")
    return value


def read_live(journal: Path) -> tuple[int, dict[str, Any]] | None:
    """The game id and state in ``journal``'s live file; None if it is missing or unreadable."""
    try:
        data = json.loads(
            live_path(journal).read_text(encoding="utf-8"),
            parse_constant=_not_a_number,
            parse_float=_finite,
        )
    except (OSError, ValueError, RecursionError):
        # RecursionError: a file nested thousands deep, which no referee writes.
        return None
    if not isinstance(data, dict):
        return None
    game_id, state = data.get("game_id"), data.get("state")
    if not isinstance(game_id, int) or not isinstance(state, dict):
        return None
    return game_id, state
