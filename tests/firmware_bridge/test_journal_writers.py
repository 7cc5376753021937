"""The writers of the journal hold it to the readers' standard, and every message about a
journal, a setup file or a script names the file the user gave and what to do."""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.journal import Journal, JournalDamaged
from tests.firmware_bridge.test_journal import (
    as_nobody,
    fingerprint,
    journal_with_a_game,
    run,
    unable_to_write,
)
from tests.firmware_bridge.test_journal_service import run_daemon_once


def index_missing_a_row(path: Path) -> None:
    """A journal whose table holds an input its index lacks ("row 10 missing from index"):
    the index's page as it was before the tenth input, put back after it."""
    with Journal(path) as journal:
        game = journal.new_game("double-take", 2, 1, {}, "double-take-gpio")
        for _ in range(9):
            journal.append(game, "action", {"type": "pass"})
        journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (root,) = journal.db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_inputs_1'"
        ).fetchone()
        (size,) = journal.db.execute("PRAGMA page_size").fetchone()
    before = path.read_bytes()[(root - 1) * size : root * size]
    with Journal(path) as journal:
        journal.append(game, "action", {"type": "pass"})
        journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[(root - 1) * size : root * size] = before
    path.write_bytes(bytes(data))


def test_sim_refuses_a_journal_the_readers_call_damaged(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    index_missing_a_row(path)
    code, _, err = run(["history", "--journal", str(path)])
    assert code == 2 and "row 10 missing from index sqlite_autoindex_inputs_1" in err
    before = fingerprint(tmp_path)
    for script in (["--script", "-"], []):
        code, _, err = run(["sim", "--game", "double-take", "--journal", str(path), *script])
        assert code == 2
        assert f"the journal {path} is damaged" in err and "row 10 missing" in err
    assert fingerprint(tmp_path) == before
    with pytest.raises(JournalDamaged):
        Journal(path)


def test_the_service_sets_aside_a_journal_whose_index_lacks_a_row(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    index_missing_a_row(journal)
    damaged = journal.read_bytes()
    config = tmp_path / "tabletop.toml"
    config.write_text(
        f'profile = "double-take-gpio"\njournal = "{journal}"\n'
        'game = "double-take"\nplayers = 2\nseed = 5\nlog_level = "WARNING"\n',
        encoding="utf-8",
    )
    run_daemon_once(config, tmp_path / "frames")
    (aside,) = tmp_path.glob("journal.sqlite.damaged-*")
    assert aside.read_bytes() == damaged
    with Journal(journal, read_only=True) as fresh:
        assert [g.id for g in fresh.games()] == [1]


def _sim_with_script(path: Path, script: str, tmp_path: Path) -> tuple[int, str]:
    """``sim --script FILE --journal PATH`` and the same with ``--script -``: both
    exit codes must agree, and so must their messages; the FILE one is returned."""
    file = tmp_path / "script.txt"
    file.write_text(script, encoding="utf-8")
    code, _, err = run(["sim", "--game", "double-take", "--journal", str(path), "--script",
                        str(file)])  # fmt: skip
    code_stdin, _, err_stdin = run(
        ["sim", "--game", "double-take", "--journal", str(path), "--script", "-"]
    )
    assert (code, err) == (code_stdin, err_stdin)
    return code, err


@pytest.mark.parametrize(
    "damage",
    [
        index_missing_a_row,
        lambda p: p.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 20),
        lambda p: p.write_bytes(b"not a database at all"),
    ],
)
def test_sim_with_a_script_file_names_a_damaged_journal_in_one_line(
    damage: object, tmp_path: Path
) -> None:
    path = tmp_path / "j.sqlite"
    damage(path)  # type: ignore[operator]
    code, err = _sim_with_script(path, "", tmp_path)
    assert code == 2
    assert err.startswith(f"tabletop: the journal {path} is damaged")
    assert err.count("\n") == 1 and "Traceback" not in err and "tabletop-dry" not in err


def test_sim_with_a_script_file_names_a_read_only_journal(tmp_path: Path) -> None:
    with unable_to_write() as folder:
        path = folder / "j.sqlite"
        journal_with_a_game(path)
        path.chmod(0o444)
        script = folder / "script.txt"
        script.write_text("", encoding="utf-8")
        script.chmod(0o444)
        with as_nobody():
            code, _, err = run(["sim", "--game", "double-take", "--journal", str(path),
                                "--script", str(script)])  # fmt: skip
            code_stdin, _, err_stdin = run(
                ["sim", "--game", "double-take", "--journal", str(path), "--script", "-"]
            )
        assert code == code_stdin == 2 and err == err_stdin
        assert f"the journal {path} cannot be written" in err and "tabletop-dry" not in err


def _small_files() -> None:
    """In the child: no file may grow past 8 KB, as on a disk that is full."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))


def test_sim_with_a_script_file_names_the_journal_when_its_copy_finds_no_room(
    tmp_path: Path,
) -> None:
    """The dry run copies the journal to a temporary folder first: a disk too full for
    the copy is a one-line message naming the user's journal, not a traceback."""
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        game = journal.new_game("double-take", 2, 1, {}, "double-take-gpio")
        for _ in range(200):
            journal.append(game, "action", {"type": "pass", "pad": "x" * 100})
        journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert path.stat().st_size > 8192
    script = tmp_path / "script.txt"
    script.write_text("", encoding="utf-8")
    before = fingerprint(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "firmware_bridge.apps.cli", "sim", "--game", "double-take",
         "--journal", str(path), "--script", str(script)],
        capture_output=True, text=True, timeout=120, check=False, preexec_fn=_small_files,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"tabletop: cannot copy the journal {path} to try the script")
    assert done.stderr.count("\n") == 1 and "free some space" in done.stderr, done.stderr
    assert fingerprint(tmp_path) == before


def test_a_journal_in_a_missing_folder_is_named_missing_and_no_folder_is_made(
    tmp_path: Path,
) -> None:
    path = tmp_path / "no" / "such" / "j.sqlite"
    for script in (["--script", "-"], []):
        code, _, err = run(["sim", "--game", "double-take", "--journal", str(path), *script])
        assert code == 2
        assert f"the folder {path.parent} for the journal {path} does not exist" in err
        assert "full" not in err and "mkdir -p" in err
    assert not (tmp_path / "no").exists()


def test_a_script_that_is_not_utf8_is_named_with_its_line(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_bytes(b"wait 1\nplace a1 r\xe9d\n")
    code, _, err = run(["sim", "--game", "double-take", "--script", str(script)])
    assert code == 2
    assert f"the script {script} is not UTF-8 text (line 2" in err and "save it as UTF-8" in err


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (b"racks = " + b"9" * 5000 + b"\n", "a whole number too long to read"),
        (b"racks = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested too deeply"),
        (b'racks = "\xff"\n', "not UTF-8 text"),
    ],
)
def test_a_setup_file_that_cannot_be_read_is_named(text: bytes, says: str, tmp_path: Path) -> None:
    setup = tmp_path / "setup.toml"
    setup.write_bytes(text)
    code, _, err = run(["sim", "--game", "crosslet", "--setup", str(setup), "--script", "-"])
    assert code == 2 and "Traceback" not in err
    assert f"cannot read the setup file {setup}" in err and says in err
