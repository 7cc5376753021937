"""The SQLite journal: every accepted input of a game, committed before it is shown.

A game is its name, player count, seed, options and the list of inputs it
accepted. Replaying them rebuilds the game exactly; dice are inputs too, so a
resumed game never re-rolls.

Every way the file can fail (damaged, not a journal, read-only, written by a
newer tabletop, a full disk) comes out as a :class:`JournalError` whose message
names the file and says what to do; nothing is written to a file that fails its
checks.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from .game_record import GameRecord

__all__ = [
    "CACHE_KIB",
    "CHECKPOINT_EVERY",
    "COLUMNS",
    "GAME_COLUMNS",
    "KINDS",
    "LOW_SPACE_BYTES",
    "SCHEMA",
    "SCHEMA_VERSION",
    "Entry",
    "GameRecord",
    "GameSummary",
    "Journal",
    "JournalDamaged",
    "JournalError",
    "JournalFull",
    "check_writable",
    "current_options",
    "open_or_set_aside",
    "set_aside",
]

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

CHECKPOINT_EVERY = 8
"""Inputs committed between two checkpoints of the write-ahead log, which ``tidy`` runs
after the frame is shown. Copied back so often, the log stays a couple of dozen pages
long and is written over from its start after the first few moves of a session: a
commit's file sync then has the data alone to flush, not the file's growth as well
(about a third of the commit's time here). SQLite's own checkpoint, at 1,000 pages,
would run inside a commit, before the frame; it stays as the backstop and is never
reached."""

LOW_SPACE_BYTES = 1 << 20
"""Below this much free space, a write that fails is put down to a full disk."""

# SQLite's primary result codes that say something about the file's surroundings
# rather than its contents.
_PERM, _BUSY, _LOCKED, _NOMEM, _READONLY, _IOERR, _FULL, _CANTOPEN = 3, 5, 6, 7, 8, 10, 13, 14


class JournalError(RuntimeError):
    """The journal file cannot be opened, read or written; the message says what to do."""


class JournalDamaged(JournalError):
    """The file is damaged or is not a tabletop journal: moving it aside loses nothing."""


class JournalFull(JournalError):
    """The disk is full: the input was not written, and can be written again later."""


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str
    payload: dict[str, Any]
    at: str


@dataclass(frozen=True)
class GameSummary:
    """A saved game as ``tabletop history`` lists it."""

    record: GameRecord
    moves: int
    """Accepted actions (dice rolls, passes and resignations included)."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


T = TypeVar("T")
log = logging.getLogger(__name__)

_EFFECTIVE = os.access in os.supports_effective_ids


class Journal:
    """An append-only record of games in one SQLite file.

    Writes use WAL with ``synchronous=FULL`` so that a committed input survives
    the power being pulled. ``read_only`` opens an existing journal for reading
    commands: nothing is written to it, not even its WAL switch.
    """

    def __init__(
        self, path: Path | str, *, read_only: bool = False, make_folder: bool = False
    ) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self.make_folder = make_folder
        """Create the journal's folder when it is missing (else say so): the service's
        own folder, never one a user may have mistyped."""
        self._memory = str(path) == ":memory:"
        self._db: sqlite3.Connection | None = None
        self._since_checkpoint = 0
        self._staged = False
        try:
            self._db = self._connect()
            self._db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            self._check()
            if not read_only:
                self._prepare()
        except sqlite3.Error as exc:
            self.close()
            raise self._error(exc, "open") from exc
        except JournalError:
            self.close()
            raise

    # -- opening ------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        if self._memory:
            return sqlite3.connect(":memory:", isolation_level=None)
        path = self.path
        if path.is_dir():
            raise JournalError(
                f"the journal {path} is a folder; give the path of a file inside it "
                f"(for example {path / 'journal.sqlite'})"
            )
        if self.read_only:
            if not path.exists():
                raise JournalError(f"there is no journal at {path}; check the path")
            if path.stat().st_size == 0:
                raise self._damaged("it is empty (0 bytes)")
            # With no write-ahead log beside it, no writer has the file open: read it
            # as it stands, so that not even a -wal or -shm file appears beside it.
            wal = Path(f"{path}-wal")
            flags = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
            return sqlite3.connect(
                f"file:{quote(str(path.resolve()))}?{flags}", uri=True, isolation_level=None
            )
        try:
            if path.exists():
                if path.stat().st_size == 0:
                    raise self._damaged("it is empty (0 bytes)")
                check_writable(path)
            else:
                if not path.parent.is_dir():
                    if not self.make_folder:
                        raise JournalError(
                            f"the folder {path.parent} for the journal {path} does not exist: "
                            f"create it (mkdir -p {path.parent}) or give another --journal"
                        )
                    path.parent.mkdir(parents=True, exist_ok=True)
                _create(path)
        except OSError as exc:
            raise JournalError(
                f"cannot create the journal {path}: {exc.strerror}; "
                f"{_space_advice(path, 'check that the folder exists and is writable')}"
            ) from exc
        return sqlite3.connect(
            f"file:{quote(str(path.resolve()))}?mode=rw", uri=True, isolation_level=None,
            timeout=5.0,
        )  # fmt: skip

    def _check(self) -> None:
        """Refuse a damaged file, a file that is not a journal, or a newer journal."""
        db = self.db
        # The full check, for writers as for readers: quick_check leaves out whether
        # each index holds every row of its table, and a writer that played into a
        # journal whose index lacks a row would add to a file every reader refuses.
        problems = [row[0] for row in db.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            found = " ".join(str(problems[0]).split())
            raise self._damaged(f"the integrity check found: {found}")
        (version,) = db.execute("PRAGMA user_version").fetchone()
        self.version: int = version
        """The version the file was written in (``SCHEMA_VERSION`` once it is prepared)."""
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"the journal {self.path} was written by a newer tabletop (journal version "
                f"{version}; this tabletop reads up to {SCHEMA_VERSION}): upgrade tabletop, "
                "or give another --journal; the file was not changed"
            )
        tables = {
            name: tuple(c for (c,) in db.execute("SELECT name FROM pragma_table_info(?)", (name,)))
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if not tables and self._memory:
            return  # a new database: _prepare writes the schema
        for name, columns in COLUMNS.items():
            missing = [c for c in columns if c not in tables.get(name, ())]
            if missing:
                what = (
                    f"it has no {name} table" if name not in tables
                    else f"its {name} table lacks {', '.join(missing)}"
                )  # fmt: skip
                raise self._damaged(f"it is not a tabletop journal ({what})")

    def _prepare(self) -> None:
        """Bring an older journal to this version and prove the file writable."""
        db = self.db
        db.execute("PRAGMA synchronous=FULL")
        if self._memory:
            _write_schema(db)
        else:
            db.execute("PRAGMA journal_mode=WAL")
        # Written at every start, so that a read-only file or a full disk shows now,
        # not at the first accepted input. Versions 0 and 1 have the tables of 2.
        with db:
            db.execute("BEGIN IMMEDIATE")
            (version,) = db.execute("PRAGMA user_version").fetchone()
            if version < SCHEMA_VERSION:
                _upgrade_options(db, version)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        self.version = SCHEMA_VERSION

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalError(f"the journal {self.path} is closed")
        return self._db

    def close(self) -> None:
        if self._db is not None:
            # Closing loses nothing saved; the session saves before it hands on.
            if self._staged:
                log.warning("journal %s closed with inputs not saved", self.path)
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- errors -------------------------------------------------------------------
    def _damaged(self, why: str) -> JournalDamaged:
        return JournalDamaged(
            f"the journal {self.path} is damaged or is not a tabletop journal: {_clean(why)}. "
            "Nothing was written to it. Move it aside (keep it: it may be recoverable) "
            "and give a new --journal, or restore it from a backup"
        )

    def _error(self, error: sqlite3.Error, doing: str) -> JournalError:
        """One clear JournalError for a failed query, by what SQLite says went wrong."""
        code = getattr(error, "sqlite_errorcode", None)
        primary = code & 0xFF if isinstance(code, int) else None
        path = self.path
        exc = _clean(str(error))
        if primary == _FULL or (
            primary in (_IOERR, _CANTOPEN) and _free_bytes(path) < LOW_SPACE_BYTES
        ):
            then = (
                "then start again"
                if doing == "open"
                else "the game is kept and goes on once the input can be saved"
            )
            return JournalFull(
                f"the disk holding the journal {path} is full ({doing}: {exc}); free some "
                f"space on it: {then}"
            )
        if primary in (_READONLY, _PERM):
            return JournalError(
                f"the journal {path} cannot be written ({exc}): make it and its folder "
                "writable by the user tabletop runs as, or check that the disk is not "
                "mounted read-only; nothing was changed"
            )
        if primary in (_BUSY, _LOCKED):
            return JournalError(
                f"the journal {path} is locked by another program ({exc}): stop the other "
                "tabletop using it, or give another --journal"
            )
        if primary in (_CANTOPEN, _IOERR, _NOMEM):
            return JournalError(
                f"cannot {doing} the journal {path}: {exc}; check that the folder exists, "
                "that it is readable and writable by the user tabletop runs as, and that "
                "the disk is healthy"
            )
        return self._damaged(f"{doing}: {exc}")

    def _run(self, doing: str, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(db)``, with any SQLite or decoding error turned into a JournalError."""
        try:
            return work(self.db)
        except sqlite3.Error as exc:
            raise self._error(exc, doing) from exc
        except (ValueError, TypeError, KeyError) as exc:
            raise self._damaged(f"{doing}: {exc}") from exc

    # -- games ------------------------------------------------------------------
    def new_game(
        self, game: str, players: int, seed: int, options: Mapping[str, Any], profile: str
    ) -> int:
        row = (game, players, seed, json.dumps(dict(options), sort_keys=True), profile, _now())

        def insert(db: sqlite3.Connection) -> int:
            cur = db.execute(
                "INSERT INTO games (game, players, seed, options, profile, started) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                row,
            )
            assert cur.lastrowid is not None
            return cur.lastrowid

        return self._run("start a game in", insert)

    def finish(self, game_id: int, outcome: Mapping[str, Any]) -> None:
        self._run(
            "mark the end of a game in",
            lambda db: db.execute(
                "UPDATE games SET finished = ?, outcome = ? WHERE id = ?",
                (_now(), json.dumps(dict(outcome), sort_keys=True), game_id),
            ),
        )

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
                if _entry(tuple(entry)).kind == "action":
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
    def append(self, game_id: int, kind: str, payload: Mapping[str, Any]) -> int:
        """Record one accepted input; it is on disk when this returns (with any
        inputs staged before it).

        On a full disk this raises :class:`JournalFull` and nothing is recorded: the
        caller holds the input and calls again once there is space.
        """
        try:
            seq = self.stage(game_id, kind, payload)
        except JournalError:
            self.discard()  # as save does: no transaction is left open
            raise
        self.save()
        return seq

    def stage(self, game_id: int, kind: str, payload: Mapping[str, Any]) -> int:
        """Write one accepted input in the open transaction (opening it if need be);
        it is on disk once :meth:`save` returns, and gone if :meth:`discard` is called
        instead. The journal's own reads see it at once.

        A failure raises :class:`JournalError` (:class:`JournalFull` on a full disk);
        the caller then discards what is staged.
        """
        text = json.dumps(dict(payload), sort_keys=True)

        def insert(db: sqlite3.Connection) -> int:
            if not db.in_transaction:
                db.execute("BEGIN IMMEDIATE")
            self._staged = True
            (seq,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM inputs WHERE game_id = ?", (game_id,)
            ).fetchone()
            db.execute(
                "INSERT INTO inputs (game_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, kind, text, _now()),
            )
            return int(seq)

        seq = self._run(f"save an input of game {game_id} to", insert)
        self._since_checkpoint += 1
        return seq

    @property
    def staged(self) -> bool:
        """Whether inputs have been staged and not yet saved or discarded."""
        return self._staged

    def save(self) -> None:
        """Commit what is staged: on disk when this returns (a file sync, which
        SQLite waits for with Python's lock released, so another thread can work
        meanwhile).

        On a failure nothing staged is kept (the transaction is rolled back) and
        :class:`JournalError` is raised (:class:`JournalFull` on a full disk).
        """
        if not self._staged:
            return
        try:
            if not self.db.in_transaction:
                # SQLite rolls a whole transaction back on some errors (a full disk
                # among them): what was staged is gone, and must not pass for saved.
                raise JournalError(
                    f"the journal {self.path} dropped the inputs not yet saved when an "
                    "earlier write failed; nothing of them was saved"
                )
            self._run("save the inputs of this move to", lambda db: db.execute("COMMIT"))
        except JournalError:
            self.discard()
            raise
        self._staged = False

    def discard(self) -> None:
        """Drop what is staged (nothing if nothing is)."""
        self._staged = False
        if self._db is not None and self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error as exc:
                log.warning("%s", self._error(exc, "roll back the unsaved inputs of"))

    def tidy(self) -> None:
        """Checkpoint the write-ahead log once ``CHECKPOINT_EVERY`` inputs have been
        committed since the last time; for the moments nothing waits on the journal.

        A checkpoint only copies what is already safe in the log into the journal's
        file, so one that fails (a full disk) loses nothing: it is logged and tried
        again after the next ``CHECKPOINT_EVERY`` inputs.
        """
        if self._since_checkpoint < CHECKPOINT_EVERY or self.read_only or self._memory:
            return
        self._since_checkpoint = 0
        try:
            self.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error as exc:
            log.warning("%s", self._error(exc, "copy the write-ahead log into"))

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


def check_writable(path: Path) -> None:
    """Raise a JournalError naming ``path`` if this user may not write the journal."""
    if not os.access(path, os.W_OK, effective_ids=_EFFECTIVE):
        raise JournalError(
            f"the journal {path} cannot be written (it is read-only): make it "
            "and its folder writable by the user tabletop runs as, or check that "
            "the disk is not mounted read-only; nothing was changed"
        )


def _write_schema(db: sqlite3.Connection) -> None:
    with db:
        db.execute("BEGIN IMMEDIATE")
        for statement in SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _create(path: Path) -> None:
    """Create a new journal, readable by its owner only, whole or not at all.

    It is built under a temporary name and renamed into place, so that a power cut
    while it is made leaves no empty or half-made journal behind.
    """
    tmp = path.with_name(f".{path.name}.new-{os.getpid()}")
    for leftover in (tmp, Path(f"{tmp}-journal")):
        leftover.unlink(missing_ok=True)
    # SQLite gives its -wal and -shm files the mode of the database file.
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        db = sqlite3.connect(str(tmp), isolation_level=None)
        try:
            db.execute("PRAGMA synchronous=FULL")
            _write_schema(db)
            db.execute("PRAGMA journal_mode=WAL")
        finally:
            db.close()
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def _clean(text: str, limit: int = 160) -> str:
    """``text`` on one line of printable characters: damaged rows hold any bytes."""
    flat = "".join(c if c.isprintable() else "?" for c in " ".join(text.split()))
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _free_bytes(path: Path) -> int:
    """Free space on the journal's disk; as if plenty when its folder cannot be asked
    (a missing folder is not a full disk)."""
    import shutil  # here: only a failed write needs it

    try:
        return shutil.disk_usage(path.parent).free
    except OSError:
        return LOW_SPACE_BYTES


def _space_advice(path: Path, otherwise: str) -> str:
    if _free_bytes(path) < LOW_SPACE_BYTES:
        return "the disk is full: free some space on it and start again"
    return otherwise


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
    return Entry(
        seq,
        kind,
        _object(payload, f"input {seq}'s payload"),
        _str(at, f"input {seq}'s time"),
    )


def set_aside(path: Path, when: datetime | None = None) -> Path:
    """Move a damaged journal (with its -wal and -shm files) aside under a timestamped name.

    ``j.sqlite`` becomes ``j.sqlite.damaged-20261125T1412``; nothing is deleted.
    """
    stamp = (when or datetime.now(UTC)).strftime("%Y%m%dT%H%M")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    for suffix in ("-wal", "-shm", "-journal"):
        extra = Path(f"{path}{suffix}")
        if extra.exists():
            os.replace(extra, Path(f"{aside}{suffix}"))
    os.replace(path, aside)
    return aside


def open_or_set_aside(path: Path, when: datetime | None = None) -> tuple[Journal, str | None]:
    """The service's journal, and a notice for its display if it had to start a new one.

    A damaged file, or one that is not a journal, is moved aside (never deleted or
    overwritten) and a new journal started, so the board plays on; the notice says
    where the old file went. Every other problem (read-only, a full disk, a newer
    journal) is raised: starting afresh would not mend it. The service's own folder
    is made if it is missing.
    """
    try:
        return Journal(path, make_folder=True), None
    except JournalDamaged as exc:
        try:
            aside = set_aside(path, when)
        except OSError as move:
            raise JournalError(
                f"{exc}; moving it aside failed too ({move.strerror}): check that its "
                "folder is writable by the user tabletop runs as"
            ) from move
        notice = f"The journal was damaged: it was kept as {aside.name}; a new one was started."
        return Journal(path, make_folder=True), notice
