"""One journal, one writer: a second writer is told at once which file and which process
holds it, and writes nothing; temporary files beside the journal are each its own."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_bridge.journal import Journal, JournalInUse
from firmware_bridge.sim.world import World


class _Nothing:
    def place(self, cell: str, label: str) -> None: ...

    def lift(self, cell: str) -> None: ...

    def reading(self, cell: str) -> str:
        return ""


def _sim(journal: Path, *more: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.apps.cli", "sim", "--game", "double-take",
         "--seed", "1", "--journal", str(journal), *more],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_a_second_writer_in_the_same_process_is_refused_and_the_first_writes_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.sqlite"
    with Journal(path) as first:
        game = first.new_game("double-take", 2, 1, {}, "sim")
        with pytest.raises(JournalInUse) as refused:
            Journal(path)
        message = str(refused.value)
        assert str(path) in message and f"process {os.getpid()}" in message
        assert "\n" not in message
        # A reader is never refused: the views follow a journal being written.
        with Journal(path, read_only=True) as reader:
            assert [g.id for g in reader.games()] == [game]
        first.append(game, "action", {"type": "x"})
    # Once the first has closed it, the next writer takes the journal, and no lock
    # file is left beside it.
    assert not (tmp_path / ".j.sqlite.lock").exists()
    with Journal(path) as second:
        assert len(second.entries(game)) == 1


def test_two_simulations_on_one_journal_one_refused_in_one_line(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    first = _sim(journal, "--realtime", "0.2")
    try:
        end = time.monotonic() + 60
        while not (tmp_path / ".j.sqlite.lock").exists():
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < end, "the first simulation never opened its journal"
            time.sleep(0.05)
        started = time.monotonic()
        second = _sim(journal)
        out, err = second.communicate(timeout=60)
        assert second.returncode == 2, (out, err)
        assert time.monotonic() - started < 30
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert str(journal) in lines[0] and f"process {first.pid}" in lines[0]
        assert "tabletop sim" in lines[0] and "Traceback" not in err
        assert first.poll() is None, "the first simulation plays on"
    finally:
        first.terminate()
        first.communicate(timeout=30)
    # What the first played still replays whole.
    replay = subprocess.run(
        [sys.executable, "-m", "firmware_bridge.apps.cli", "history", "--journal", str(journal)],
        check=False, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert replay.returncode == 0, replay.stderr
    assert "Traceback" not in replay.stderr


def test_two_boards_saved_beside_one_journal_use_temporary_files_of_their_own(
    tmp_path: Path,
) -> None:
    save_to = tmp_path / "j.board.json"
    one = World(("a1", "b1"), _Nothing(), save_to)
    two = World(("a1", "b1"), _Nothing(), save_to)
    seen: set[str] = set()
    real_replace = os.replace

    def watch(src: str | Path, dst: str | Path) -> None:
        seen.add(str(src))
        real_replace(src, dst)

    os.replace = watch  # type: ignore[assignment]
    try:
        one.place("a1", "x")
        two.place("b1", "y")
    finally:
        os.replace = real_replace  # type: ignore[assignment]
    assert len(seen) == 2, seen
    assert json.loads(save_to.read_text()) == {"b1": "y"}
    assert [p.name for p in tmp_path.iterdir()] == ["j.board.json"]


def test_a_full_disk_while_saving_the_simulated_board_is_logged_and_play_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    save_to = tmp_path / "j.board.json"
    world = World(("a1", "b1"), _Nothing(), save_to)
    world.place("a1", "x")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    world.place("b1", "y")  # raises nothing
    world.lift("a1")
    assert world.contents == {"b1": "y"}
    assert json.loads(save_to.read_text()) == {"a1": "x"}, "the last good save is kept"
    assert [p.name for p in tmp_path.iterdir()] == ["j.board.json"], "no temporary file left"
    warnings = [r for r in caplog.records if "could not be saved" in r.getMessage()]
    assert len(warnings) == 1 and "No space left on device" in warnings[0].getMessage()
