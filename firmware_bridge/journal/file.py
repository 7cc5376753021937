"""Opening a journal file: creating it whole, checking it, bringing it up to date, and
turning what SQLite says went wrong into a :class:`JournalError`."""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Self, TypeVar
from urllib.parse import quote

from .errors import (
    _BUSY,
    _CANTOPEN,
    _FULL,
    _IOERR,
    _LOCKED,
    _NOMEM,
    _PERM,
    _READONLY,
    LOW_SPACE_BYTES,
    JournalDamaged,
    JournalError,
    JournalFull,
    JournalInUse,
    _clean,
    _free_bytes,
    _space_advice,
    check_writable,
)
from .schema import CACHE_KIB, COLUMNS, SCHEMA_VERSION, _upgrade_options, _write_schema

T = TypeVar("T")
log = logging.getLogger(__package__)


class JournalFile:
    """One open journal file, checked: what :class:`Journal` reads and writes through."""

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
        self._lock: int | None = None
        """The writer's lock file, held for the journal's whole life (``_take_lock``)."""
        try:
            if not read_only and not self._memory:
                self._take_lock()
            self._db = self._connect()
            self._db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            self._check()
            if not read_only:
                self._verify()
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

    def lock_path(self) -> Path:
        """The lock file a writer holds beside the journal: ``.journal.sqlite.lock``."""
        return self.path.with_name(f".{self.path.name}.lock")

    def _take_lock(self) -> None:
        """Hold the journal's writer lock, or say at once which process holds it.

        Two writers on one journal would both play into its games (the record would
        not replay), so a writer takes an exclusive ``flock`` on a lock file beside
        the journal before it opens it, for as long as it has it open; the kernel
        lets go of it when the process ends, however it ends. The holder writes its
        process number in the file for the next one to be told.
        """
        path = self.lock_path()
        if self.path.is_dir() or (not path.parent.is_dir() and not self.make_folder):
            return  # _connect explains both
        while True:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            except OSError as exc:
                raise JournalError(
                    f"cannot lock the journal {self.path} for writing ({path}: "
                    f"{exc.strerror}); check that its folder is writable by the user "
                    "tabletop runs as"
                ) from exc
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "unknown"
                os.close(fd)
                raise JournalInUse(
                    f"the journal {self.path} is being written by another tabletop (process "
                    f"{holder}{_command(holder)}): stop it, or give this one another --journal"
                ) from None
            # The holder before removed the file as it let go: lock the one at the path.
            try:
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._lock = fd

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

    def _verify(self) -> None:
        """Every row read as the readers read it, before a writer writes (``Journal``)."""

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
        if self._lock is not None:
            # Removed while still held, so that nothing is left beside the journal and
            # a writer waiting on this file finds it gone and locks a new one.
            with contextlib.suppress(OSError):
                self.lock_path().unlink()
            os.close(self._lock)  # lets go of the writer's lock
            self._lock = None

    def __enter__(self) -> Self:
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


def _command(pid: str) -> str:
    """``, tabletop sim ...``: the command of process ``pid``, when it can be read."""
    try:
        raw = Path(f"/proc/{int(pid)}/cmdline").read_bytes()
    except (OSError, ValueError):
        return ""
    words = [w for w in raw.decode("utf-8", "replace").split("\0") if w]
    if "firmware_bridge.apps.cli" in words:
        words = ["tabletop", *words[words.index("firmware_bridge.apps.cli") + 1 :]]
    text = _clean(" ".join(words), 80)
    return f", {text}" if text else ""


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
