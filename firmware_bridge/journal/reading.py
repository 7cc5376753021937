"""Reading a journal back: its games, their summaries and their inputs, each row checked."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from msgspec import Struct

from ..referees.game_record import GameRecord
from .entries import ActionEntry, Entry, entry_of
from .errors import JournalError
from .file import JournalFile
from .schema import COLUMNS, GAME_COLUMNS, KINDS, current_options


class GameSummary(Struct, frozen=True):
    """A saved game as ``tabletop history`` lists it."""

    record: GameRecord
    moves: int
    """Accepted actions (dice rolls, passes and resignations included)."""


class JournalReader(JournalFile):
    """The reading half of :class:`Journal`: games and inputs, as records."""

    # -- games ------------------------------------------------------------------
    def game(self, game_id: int) -> GameRecord:
        row = self._run(
            f"read game {game_id} of",
            lambda db: db.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
            ).fetchone(),
        )
        if row is None:
            raise JournalError(
                f"the journal {self.path} has no game {game_id}; "
                f"`tabletop history --journal {self.path}` lists its games"
            )
        return self._run(f"read game {game_id} of", lambda _: _record(row, self.version))

    def games(self) -> list[GameRecord]:
        rows = self._run(
            "list the games of",
            lambda db: db.execute(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id").fetchall(),
        )
        return self._run("read the games of", lambda _: [_record(r, self.version) for r in rows])

    def newest(self) -> GameRecord | None:
        """The last game begun, if any."""
        row = self._run(
            "read the newest game of",
            lambda db: db.execute(
                f"SELECT {GAME_COLUMNS} FROM games ORDER BY id DESC LIMIT 1"
            ).fetchone(),
        )
        if row is None:
            return None
        return self._run("read the newest game of", lambda _: _record(row, self.version))

    def summaries(self) -> list[GameSummary]:
        """Every game with its count of accepted actions, oldest first.

        Every input is read and checked, so that a list that reads is a list that is true.
        """
        records = self.games()

        def count(db: sqlite3.Connection) -> dict[int, int]:
            moves = dict.fromkeys((r.id for r in records), 0)
            # Streamed, not fetched whole: a journal of years of games is large.
            for game_id, *entry in db.execute(
                "SELECT game_id, seq, kind, payload, at FROM inputs ORDER BY game_id, seq"
            ):
                if isinstance(_entry(tuple(entry)), ActionEntry):
                    if game_id not in moves:
                        raise ValueError(f"inputs of a game {game_id!r} that is not listed")
                    moves[game_id] += 1
            return moves

        moves = self._run("read the inputs of", count)
        return [GameSummary(r, moves[r.id]) for r in records]

    def unfinished(self) -> GameRecord | None:
        """The newest game that has not ended, if any."""
        row = self._run(
            "look for an unfinished game in",
            lambda db: db.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1"
            ).fetchone(),
        )
        if row is None:
            return None
        return self._run("read the unfinished game of", lambda _: _record(row, self.version))

    # -- inputs -----------------------------------------------------------------
    def entries(self, game_id: int) -> list[Entry]:
        rows = self._run(
            f"read the inputs of game {game_id} from",
            lambda db: db.execute(
                "SELECT seq, kind, payload, at FROM inputs WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall(),
        )
        return self._run(
            f"read the inputs of game {game_id} from", lambda _: [_entry(r) for r in rows]
        )


def _int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} is {value!r}, not a whole number")
    return value


def _str(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{name} is {value!r}, not text")
    return value


def _object(text: object, name: str) -> dict[str, Any]:
    try:
        value = json.loads(_str(text, name))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{name} is not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise ValueError(f"{name} is {value!r}, not a JSON object")
    return value


def _record(row: tuple[Any, ...], version: int) -> GameRecord:
    values = dict(zip(COLUMNS["games"], row, strict=True))
    game_id = _int(values["id"], "a game's id")
    where = f"game {game_id}'s"
    finished = values["finished"]
    outcome = values["outcome"]
    game = _str(values["game"], f"{where} game")
    return GameRecord(
        id=game_id,
        game=game,
        players=_int(values["players"], f"{where} players"),
        seed=_int(values["seed"], f"{where} seed"),
        options=current_options(game, _object(values["options"], f"{where} options"), version),
        profile=_str(values["profile"], f"{where} profile"),
        started=_str(values["started"], f"{where} start time"),
        finished=None if finished is None else _str(finished, f"{where} end time"),
        outcome=None if not outcome else _object(outcome, f"{where} outcome"),
    )


def _entry(row: tuple[Any, ...]) -> Entry:
    seq, kind, payload, at = row
    seq = _int(seq, "an input's number")
    if kind not in KINDS:
        raise ValueError(f"input {seq}'s kind is {kind!r}, not one of {', '.join(KINDS)}")
    return entry_of(
        seq, kind, _object(payload, f"input {seq}'s payload"), _str(at, f"input {seq}'s time")
    )
