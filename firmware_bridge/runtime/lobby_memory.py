"""The start menu's last choices, kept in a small JSON file next to the journal, so
that the menu opens on them after a restart."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Protocol

from ..journal import current_options
from ..storage.files import write_whole

log = logging.getLogger("tabletop")


class Chosen(Protocol):
    """What the start menu chose (:class:`.lobby.Start`), as it is remembered."""

    @property
    def game(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


MEMORY_VERSION = 2
"""The version of the start menu's file: 2 counts Crosslet's ``first`` from 1, as the
journal's version 2 does; a file without a version was written before, from 0."""


class Memory:
    """The start menu's last choices, kept in a JSON file (next to the journal)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def load(self) -> dict[str, Any]:
        """The remembered choices: ``{"last": game, "games": {game: Start.to_dict()}}``.

        A missing file is no choices yet; a damaged one is logged and forgotten.
        """
        if self.path is None or not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            log.warning(
                "the start menu's last choices in %s cannot be read (%s); "
                "the menu starts from the defaults",
                self.path,
                exc,
            )
            return {}
        if not isinstance(data, dict):
            return {}
        games = data.get("games")
        written = data.get("version", 1)
        if isinstance(games, dict) and isinstance(written, int) and written < MEMORY_VERSION:
            for game, saved in games.items():
                options = saved.get("options") if isinstance(saved, dict) else None
                if isinstance(options, dict):
                    saved["options"] = current_options(game, options, written)
        return data

    def save(self, start: Chosen) -> None:
        """Remember ``start`` (written whole, then renamed: a power cut keeps the old file)."""
        if self.path is None:
            return
        data = self.load()
        saved = data.get("games")
        games: dict[str, Any] = dict(saved) if isinstance(saved, dict) else {}
        games[start.game] = start.to_dict()
        try:
            data = {"version": MEMORY_VERSION, "last": start.game, "games": games}
            write_whole(self.path, json.dumps(data))
        except OSError as exc:
            log.warning("the start menu's choices could not be kept in %s: %s", self.path, exc)
