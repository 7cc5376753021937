"""The journal's file: its schema version, its checks at open, its permissions."""

from __future__ import annotations

import hashlib
import io
import os
import sqlite3
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PIL import Image

from firmware_bridge.apps.cli import main
from firmware_bridge.journal import (
    CHECKPOINT_EVERY,
    SCHEMA_VERSION,
    Journal,
    JournalDamaged,
    JournalError,
    open_or_set_aside,
    set_aside,
)

NOBODY = 65534


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file of ``folder`` with a hash of its bytes."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file()
    }


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stderr(err):
        code = main(argv, out)
    return code, out.getvalue(), err.getvalue()


def journal_with_a_game(path: Path) -> None:
    with Journal(path) as journal:
        game_id = journal.new_game("double-take", 2, 1, {}, "sim")
        journal.append(game_id, "action", {"type": "step", "frm": "a3", "to": "b4"})


def legacy_journal(path: Path) -> None:
    """A journal as written before the schema had a version, columns in another order."""
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE games (id INTEGER PRIMARY KEY, started TEXT NOT NULL, game TEXT NOT NULL,
            seed INTEGER NOT NULL, players INTEGER NOT NULL, profile TEXT NOT NULL,
            options TEXT NOT NULL, outcome TEXT, finished TEXT);
        CREATE TABLE inputs (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
            payload TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (game_id, seq));
        INSERT INTO games (id, started, game, seed, players, profile, options)
            VALUES (1, '2026-11-01T10:00:00.000+00:00', 'double-take', 7, 2, 'sim', '{}');
        INSERT INTO inputs VALUES (1, 1, 'action', '{"frm": "a3", "to": "b4", "type": "step"}',
            '2026-11-01T10:00:05.000+00:00');
        """
    )
    db.commit()
    db.close()


def test_a_journal_from_before_versions_is_read_by_column_name_and_migrated(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite"
    legacy_journal(path)
    with Journal(path) as journal:
        record = journal.game(1)
        assert (record.game, record.players, record.seed, record.profile) == (
            "double-take", 2, 7, "sim"
        )  # fmt: skip
        assert record.started == "2026-11-01T10:00:00.000+00:00"
        assert [e.payload["to"] for e in journal.entries(1)] == ["b4"]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    db.close()


def test_a_new_journal_records_its_version(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    Journal(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    db.close()


def test_a_journal_of_a_newer_version_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    journal_with_a_game(path)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    before = fingerprint(tmp_path)
    with pytest.raises(JournalError, match="newer tabletop") as caught:
        Journal(path)
    assert not isinstance(caught.value, JournalDamaged), "a newer journal is not damaged"
    code, _, err = run(["sim", "--game", "double-take", "--journal", str(path)])
    assert code == 2 and str(path) in err and "upgrade tabletop" in err
    assert fingerprint(tmp_path) == before


def test_a_zero_length_journal_is_damaged_not_a_new_game(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    path.touch()
    for argv in (
        ["sim", "--game", "double-take", "--journal", str(path)],
        ["export", "--journal", str(path)],
        ["history", "--journal", str(path)],
    ):
        code, out, err = run(argv)
        assert code == 2, argv
        assert f"the journal {path} is damaged" in err and "empty (0 bytes)" in err
        assert out == ""
    assert path.stat().st_size == 0
    assert fingerprint(tmp_path) == {"j.sqlite": hashlib.sha256(b"").hexdigest()}


def test_a_damaged_page_is_found_at_open(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        for n in range(40):
            journal.new_game("double-take", 2, n, {"note": "x" * 200}, "sim")
    data = bytearray(path.read_bytes())
    # Page 3 onwards hold the games table's rows: scribble over a b-tree page header.
    data[4096 * 2 : 4096 * 2 + 12] = b"\xff" * 12
    path.write_bytes(bytes(data))
    before = fingerprint(tmp_path)
    with pytest.raises(JournalDamaged, match="is damaged") as caught:
        Journal(path)
    assert str(path) in str(caught.value) and "Move it aside" in str(caught.value)
    assert fingerprint(tmp_path) == before


@contextmanager
def unable_to_write() -> Iterator[Path]:
    """A folder holding read-only files, and the rights of a user who cannot write them.

    As root (in CI) permissions do not bind, so the test takes the uid of nobody.
    """
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        folder.chmod(0o777)
        yield folder


@contextmanager
def as_nobody() -> Iterator[None]:
    if os.geteuid() != 0:
        yield
        return
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)


def test_a_read_only_journal_is_refused_before_the_game_starts() -> None:
    with unable_to_write() as folder:
        path = folder / "j.sqlite"
        journal_with_a_game(path)
        path.chmod(0o444)
        before = fingerprint(folder)
        with as_nobody():
            with pytest.raises(JournalError, match="cannot be written"):
                Journal(path)
            code, out, err = run(["sim", "--game", "double-take", "--journal", str(path)])
            # Reading it is still fine.
            listed = run(["history", "--journal", str(path)])
        assert code == 2 and out == ""
        assert f"the journal {path} cannot be written" in err and "writable" in err
        assert listed[0] == 0 and "Double Take" in listed[1]
        assert fingerprint(folder) == before


def test_journal_files_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    old = os.umask(0o022)
    try:
        with Journal(path) as journal:
            journal.new_game("double-take", 2, 1, {}, "sim")
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in path.parent.iterdir()}
    finally:
        os.umask(old)
    assert modes == {
        "j.sqlite": 0o600, "j.sqlite-wal": 0o600, "j.sqlite-shm": 0o600, ".j.sqlite.lock": 0o600
    }  # fmt: skip


def another_programs_database(path: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);")
    db.execute("INSERT INTO notes (body) VALUES ('milk')")
    db.commit()
    db.close()


def test_reading_commands_refuse_another_programs_database_and_change_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "notes.sqlite"
    another_programs_database(path)
    before = fingerprint(tmp_path)
    for argv in (["export", "--journal", str(path)], ["history", "--journal", str(path)]):
        code, out, err = run(argv)
        assert code == 2 and out == ""
        assert f"the journal {path} is damaged or is not a tabletop journal" in err
        assert "no games table" in err
    assert fingerprint(tmp_path) == before
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert db.execute("SELECT name FROM sqlite_master").fetchall() == [("notes",)]
    db.close()


def test_writing_commands_refuse_another_programs_database_too(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    another_programs_database(path)
    before = fingerprint(tmp_path)
    code, _, err = run(["sim", "--game", "double-take", "--journal", str(path)])
    assert code == 2 and "not a tabletop journal" in err
    assert fingerprint(tmp_path) == before


def test_reading_a_journal_leaves_no_file_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    journal_with_a_game(path)
    before = fingerprint(tmp_path)
    assert run(["history", "--journal", str(path)])[0] == 0
    assert run(["export", "--journal", str(path)])[0] == 0
    assert fingerprint(tmp_path) == before


def test_a_journal_still_open_by_its_writer_is_read_with_its_newest_input(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.sqlite"
    with Journal(path) as writer:
        game_id = writer.new_game("double-take", 2, 1, {}, "sim")
        writer.append(game_id, "action", {"type": "step", "frm": "a3", "to": "b4"})
        with Journal(path, read_only=True) as reader:
            assert [e.seq for e in reader.entries(game_id)] == [1]
        writer.append(game_id, "action", {"type": "step", "frm": "b7", "to": "a6"})
        with Journal(path, read_only=True) as reader:
            assert [e.seq for e in reader.entries(game_id)] == [1, 2]


def test_a_missing_journal_is_named_and_not_created(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.sqlite"
    code, _, err = run(["history", "--journal", str(path)])
    assert code == 2 and f"there is no journal at {path}" in err
    assert not path.exists()


def test_the_service_moves_a_damaged_journal_aside_and_starts_a_new_one(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"this is not a database, it is a shopping list" * 100)
    damaged = path.read_bytes()
    when = datetime(2026, 11, 25, 14, 12, tzinfo=UTC)
    journal, notice = open_or_set_aside(path, when)
    with journal:
        assert journal.games() == []
        journal.new_game("double-take", 2, 1, {}, "sim")
    aside = tmp_path / "j.sqlite.damaged-20261125T1412"
    assert aside.read_bytes() == damaged, "the damaged file is kept as it was"
    assert notice is not None and "j.sqlite.damaged-20261125T1412" in notice
    # A second damaged file in the same minute is kept beside the first.
    path.write_bytes(b"")
    journal, notice = open_or_set_aside(path, when)
    journal.close()
    assert (tmp_path / "j.sqlite.damaged-20261125T1412-2").read_bytes() == b""
    assert aside.read_bytes() == damaged


def test_the_service_does_not_set_aside_a_journal_that_is_not_damaged(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    journal_with_a_game(path)
    journal, notice = open_or_set_aside(path)
    journal.close()
    assert notice is None
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(JournalError, match="newer tabletop"):
        open_or_set_aside(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.sqlite"]


def test_set_aside_takes_the_write_ahead_log_along(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"x")
    Path(f"{path}-wal").write_bytes(b"log")
    aside = set_aside(path, datetime(2026, 1, 2, 3, 4, tzinfo=UTC))
    assert aside.name == "j.sqlite.damaged-20260102T0304"
    assert Path(f"{aside}-wal").read_bytes() == b"log"
    assert not path.exists() and not Path(f"{path}-wal").exists()


def test_the_service_shows_the_notice_on_its_display() -> None:
    from firmware_bridge.apps.daemon import show_notice

    class Display:
        def __init__(self) -> None:
            self.frames: list[Image.Image] = []

        def show(self, image: Image.Image) -> None:
            self.frames.append(image)

    display = Display()
    show_notice(display, "The journal was damaged: it was kept as j.sqlite.damaged-20261125T1412")
    (frame,) = display.frames
    assert frame.size == (128, 64) and frame.getbbox() is not None


def _wal_bytes_after(path: Path, inputs: int, tidy: bool) -> int:
    with Journal(path) as journal:
        game_id = journal.new_game("double-take", 2, 1, {}, "sim")
        for n in range(inputs):
            journal.append(game_id, "action", {"type": "step", "n": n, "pad": "x" * 200})
            if tidy:
                journal.tidy()
        wal = Path(f"{path}-wal").stat().st_size
        assert [e.payload["n"] for e in journal.entries(game_id)] == list(range(inputs))
    return wal


def test_tidying_keeps_the_write_ahead_log_short_and_loses_nothing(tmp_path: Path) -> None:
    inputs = 8 * CHECKPOINT_EVERY
    kept = _wal_bytes_after(tmp_path / "tidied.sqlite", inputs, tidy=True)
    grown = _wal_bytes_after(tmp_path / "untidied.sqlite", inputs, tidy=False)
    # Copied back every CHECKPOINT_EVERY inputs, the log is written over from its start.
    assert kept * 4 < grown
    with Journal(tmp_path / "tidied.sqlite", read_only=True) as journal:
        assert len(journal.entries(1)) == inputs


def test_a_move_is_shown_only_once_saved_and_the_journal_tidied_after(tmp_path: Path) -> None:
    from firmware_bridge.sim.runner import SimOptions, Simulation

    sim = Simulation(SimOptions(game="double-take", seed=1, journal=tmp_path / "j.sqlite"))
    order: list[str] = []
    session = sim.session
    display = session.display
    assert display is not None
    journal = sim.journal

    class Watched:
        def show(self, image: object) -> None:
            order.append("show")
            display.show(image)

    tidy, stage, save = journal.tidy, journal.stage, journal.save

    def watched_tidy() -> None:
        order.append("tidy")
        tidy()

    def watched_stage(*args: object, **kwargs: object) -> int:
        order.append("stage")
        return stage(*args, **kwargs)  # type: ignore[arg-type]

    def watched_save() -> None:
        staged = journal.staged
        save()
        if staged:
            order.append("saved")

    session.display = Watched()
    journal.tidy = watched_tidy  # type: ignore[method-assign]
    journal.stage = watched_stage  # type: ignore[method-assign]
    journal.save = watched_save  # type: ignore[method-assign]
    try:
        sim.start()
        sim.play_computer()
    finally:
        sim.close()
    moves = [i for i, what in enumerate(order) if what == "stage"]
    assert len(moves) > CHECKPOINT_EVERY
    for i in moves:
        # After each input: saved on disk, then its frame, then the housekeeping.
        after = order[i + 1 :]
        assert "saved" in after and "show" in after and "tidy" in after
        assert after.index("saved") < after.index("show") < after.index("tidy")


def test_a_staged_input_is_on_disk_only_once_saved(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal, Journal(path, read_only=True) as reader:
        game_id = journal.new_game("double-take", 2, 1, {}, "sim")
        assert journal.stage(game_id, "action", {"n": 1}) == 1
        assert journal.stage(game_id, "action", {"n": 2}) == 2
        assert journal.staged
        # The journal's own reads see what is staged; nobody else does yet.
        assert [e.payload["n"] for e in journal.entries(game_id)] == [1, 2]
        assert reader.entries(game_id) == []
        journal.save()
        assert not journal.staged
        assert [e.payload["n"] for e in reader.entries(game_id)] == [1, 2]
        journal.stage(game_id, "action", {"n": 3})
        journal.discard()
        assert not journal.staged
        assert [e.payload["n"] for e in journal.entries(game_id)] == [1, 2]
        assert journal.append(game_id, "action", {"n": 3}) == 3
        assert [e.payload["n"] for e in reader.entries(game_id)] == [1, 2, 3]


def test_staged_inputs_lost_to_a_failed_write_do_not_pass_for_saved(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite") as journal:
        game_id = journal.new_game("double-take", 2, 1, {}, "sim")
        journal.stage(game_id, "action", {"n": 1})
        journal.db.execute("ROLLBACK")  # as SQLite does itself after some failed writes
        with pytest.raises(JournalError, match="dropped the inputs not yet saved"):
            journal.save()
        assert not journal.staged
        assert journal.entries(game_id) == []
