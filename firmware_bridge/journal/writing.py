"""Writing a journal: games begun and ended, inputs staged, saved or discarded, and the
write-ahead log tidied."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from .errors import JournalError
from .reading import JournalReader

CHECKPOINT_EVERY = 8
"""Inputs committed between two checkpoints of the write-ahead log, which ``tidy`` runs
after the frame is shown. Copied back so often, the log stays a couple of dozen pages
long and is written over from its start after the first few moves of a session: a
commit's file sync then has the data alone to flush, not the file's growth as well
(about a third of the commit's time here). SQLite's own checkpoint, at 1,000 pages,
would run inside a commit, before the frame; it stays as the backstop and is never
reached."""


log = logging.getLogger(__package__)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Journal(JournalReader):
    """An append-only record of games in one SQLite file.

    Writes use WAL with ``synchronous=FULL`` so that a committed input survives
    the power being pulled. ``read_only`` opens an existing journal for reading
    commands: nothing is written to it, not even its WAL switch.

    A writer reads every row as the readers do before it writes one (``verify``), so
    it refuses exactly what they refuse: a writer that played on into a journal with
    a row the readers cannot read (text that is not UTF-8 passes SQLite's integrity
    check) would add to a record no command can show.
    """

    def _verify(self) -> None:
        """Read every game and every input as the readers do, before anything is
        written: :class:`JournalDamaged` names the first row they would refuse."""
        if not self._memory:
            self.summaries()

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

    def reseed(self, game_id: int, seed: int, options: Mapping[str, Any]) -> None:
        """Give a game the seed and options that dealt it, told once it is over (a
        guest board of a game of hidden pieces plays it dealt from its own view)."""
        text = json.dumps(dict(options), sort_keys=True)
        self._run(
            "set the seed of a game in",
            lambda db: db.execute(
                "UPDATE games SET seed = ?, options = ? WHERE id = ?", (seed, text, game_id)
            ),
        )

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
