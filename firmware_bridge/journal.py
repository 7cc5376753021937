"""The SQLite journal: every accepted input of a game, committed before it is shown.

A game is its name, player count, seed, options and the list of inputs it
accepted. Replaying them rebuilds the game exactly; dice are inputs too, so a
resumed game never re-rolls.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
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
CREATE TABLE IF NOT EXISTS inputs (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class JournalError(RuntimeError):
    """The journal file cannot be opened or does not replay."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    profile: str
    started: str
    finished: str | None
    outcome: dict[str, Any] | None


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str
    payload: dict[str, Any]
    at: str


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Journal:
    """An append-only record of games in one SQLite file.

    Writes use WAL with ``synchronous=FULL`` so that a committed input survives
    the power being pulled.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError):
                raise JournalError(
                    f"cannot open the journal {self.path}: {exc}; check that the folder "
                    "exists and is writable by the tabletop user"
                ) from exc
            raise JournalError(
                f"{self.path} is not a tabletop journal or is damaged ({exc}); move it "
                "aside (nothing will be written to it) and start again with a new file"
            ) from exc
        except OSError as exc:
            raise JournalError(
                f"cannot open the journal {self.path}: {exc.strerror}; check that the "
                "folder exists and is writable by the tabletop user"
            ) from exc

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games ------------------------------------------------------------------
    def new_game(
        self, game: str, players: int, seed: int, options: Mapping[str, Any], profile: str
    ) -> int:
        cur = self._db.execute(
            "INSERT INTO games (game, players, seed, options, profile, started) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game, players, seed, json.dumps(dict(options), sort_keys=True), profile, _now()),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def finish(self, game_id: int, outcome: Mapping[str, Any]) -> None:
        self._db.execute(
            "UPDATE games SET finished = ?, outcome = ? WHERE id = ?",
            (_now(), json.dumps(dict(outcome), sort_keys=True), game_id),
        )

    def _record(self, row: tuple[Any, ...]) -> GameRecord:
        return GameRecord(
            id=row[0],
            game=row[1],
            players=row[2],
            seed=row[3],
            options=json.loads(row[4]),
            profile=row[5],
            started=row[6],
            finished=row[7],
            outcome=json.loads(row[8]) if row[8] else None,
        )

    def game(self, game_id: int) -> GameRecord:
        row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"the journal {self.path} has no game {game_id}")
        return self._record(row)

    def games(self) -> list[GameRecord]:
        rows = self._db.execute("SELECT * FROM games ORDER BY id").fetchall()
        return [self._record(r) for r in rows]

    def unfinished(self) -> GameRecord | None:
        """The newest game that has not ended, if any."""
        row = self._db.execute(
            "SELECT * FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return self._record(row) if row else None

    # -- inputs -----------------------------------------------------------------
    def append(self, game_id: int, kind: str, payload: Mapping[str, Any]) -> int:
        """Record one accepted input; it is on disk when this returns."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            (seq,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM inputs WHERE game_id = ?", (game_id,)
            ).fetchone()
            self._db.execute(
                "INSERT INTO inputs (game_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, kind, json.dumps(dict(payload), sort_keys=True), _now()),
            )
        return int(seq)

    def entries(self, game_id: int) -> Iterator[Entry]:
        rows = self._db.execute(
            "SELECT seq, kind, payload, at FROM inputs WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        for seq, kind, payload, at in rows:
            yield Entry(seq, kind, json.loads(payload), at)
