"""The journal's layout (its tables and version) and bringing an older journal up to it."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

SCHEMA_VERSION = 2
"""The journal's layout, kept in ``PRAGMA user_version``.

0: journals written before the version was recorded (the same tables as 1).
1: the ``games`` and ``inputs`` tables below.
2: the same tables; Crosslet's ``first`` option counts seats from 1, as every
   other seat number does (before, from 0). An older journal is read as if it
   were written today (``current_options``), and rewritten so when opened for play.
"""

CACHE_KIB = 256
"""SQLite's page cache for the journal, in KiB. The default (2 MiB) fills with every
page of a growing journal, about 8 KB a game over a long session, for nothing: the
journal only appends, and reads one game back when resuming."""

SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    profile TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    outcome TEXT
);
CREATE TABLE inputs (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""

COLUMNS = {
    "games": ("id", "game", "players", "seed", "options", "profile", "started", "finished",
              "outcome"),
    "inputs": ("game_id", "seq", "kind", "payload", "at"),
}  # fmt: skip
GAME_COLUMNS = ", ".join(COLUMNS["games"])

KINDS = ("action", "takeback", "seats")
"""What an input can be: an accepted action (dice rolls are actions); a take-back
(``{"undo": [seq, ...]}``: the action entries it withdraws, which stay in the journal);
the seats the computer plays (``{"computer": [seat, ...]}``)."""


def _write_schema(db: sqlite3.Connection) -> None:
    with db:
        db.execute("BEGIN IMMEDIATE")
        for statement in SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def current_options(game: str, options: dict[str, Any], version: int) -> dict[str, Any]:
    """A game's options from a journal of ``version``, as this tabletop reads them."""
    first = options.get("first")
    if version < 2 and game == "crosslet" and type(first) is int:
        return {**options, "first": first + 1}  # counted from 0 before version 2
    return options


def _upgrade_options(db: sqlite3.Connection, version: int) -> None:
    """Rewrite the options of a journal of ``version`` as this version writes them."""
    for game_id, game, text in db.execute("SELECT id, game, options FROM games").fetchall():
        try:
            options = json.loads(text)
        except (TypeError, ValueError):
            continue  # reading the game says what is wrong with it
        if isinstance(options, dict) and isinstance(game, str):
            current = current_options(game, options, version)
            if current is not options:
                new = json.dumps(current, sort_keys=True)
                db.execute("UPDATE games SET options = ? WHERE id = ?", (new, game_id))
