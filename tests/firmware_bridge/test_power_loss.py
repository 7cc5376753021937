"""Pulling the power (SIGKILL) between two moves loses nothing: the game resumes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

FIRST = ["lift a3", "place b4 red", "lift b7", "place a6 green"]
SECOND = ["lift e3", "place f4 red", "lift d7", "place d5 green", "lift f4", "place f6 red"]


def start(journal: Path) -> subprocess.Popen[str]:
    """``tabletop sim --json`` in a process of its own, to be killed (its stream is read
    as it is written, up to the kill)."""
    cmd = [
        sys.executable, "-m", "firmware_bridge.apps.cli", "sim", "--game", "double-take",
        "--json", "--script", "-", "--journal", str(journal),
    ]  # fmt: skip
    return subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def read_until_moves(stdout: IO[str], count: int) -> dict[str, Any]:
    """Read the JSON stream until ``count`` moves have been accepted."""
    while True:
        line = stdout.readline()
        assert line, "the simulation ended early"
        state = json.loads(line)
        move = state.get("move")
        if move is not None and state.get("moves_played", 0) >= count:
            return state


def send(proc: subprocess.Popen[str], lines: list[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()


def test_sigkill_between_moves_resumes_with_nothing_lost(tmp_path: Path) -> None:
    journal = tmp_path / "game.sqlite"
    proc = start(journal)
    send(proc, FIRST)
    assert proc.stdout is not None
    state = read_until_moves(proc.stdout, 2)
    assert state["turn"] == "red"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)

    resumed = start(journal)
    out, err = resumed.communicate("\n".join(SECOND) + "\n", timeout=120)
    assert resumed.returncode == 0, err
    states = [json.loads(line) for line in out.splitlines()]
    final = states[-1]
    assert final["final"] is True
    # The resumed table shows the last move as it was shown before the kill.
    assert states[0]["move"]["text"] == "b7-a6" and states[0]["move"]["player"] == "green"
    assert any("Last: b7-a6" in line for line in states[0]["oled"])
    assert final["moves"] == 5, "two moves before the kill, three after"
    last = states[-2]
    assert last["layout"]["a6"]["label"] == "green"
    assert last["layout"]["b4"]["label"] == "red"
    assert "a3" not in last["layout"] and "b7" not in last["layout"]
    assert last["turn"] == "green"

    # The same moves in one uninterrupted run end in the same position.
    straight = start(tmp_path / "other.sqlite")
    out2, err2 = straight.communicate("\n".join(FIRST + SECOND) + "\n", timeout=120)
    assert straight.returncode == 0, err2
    states2 = [json.loads(line) for line in out2.splitlines()]
    assert states2[-2]["layout"] == last["layout"]
    assert states2[-1]["moves"] == final["moves"]


def test_resume_with_a_knocked_piece_guides_the_fix(tmp_path: Path) -> None:
    journal = tmp_path / "game.sqlite"
    proc = start(journal)
    send(proc, FIRST)
    assert proc.stdout is not None
    read_until_moves(proc.stdout, 2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    # While the power was off, someone knocked the piece off b4.
    board_file = journal.with_suffix(".board.json")
    board = json.loads(board_file.read_text())
    del board["b4"]
    board_file.write_text(json.dumps(board))

    resumed = start(journal)
    out, err = resumed.communicate("place b4 red\nlift e3\nplace f4 red\n", timeout=120)
    assert resumed.returncode == 0, err
    states = [json.loads(line) for line in out.splitlines()]
    setup = [s for s in states[:-1] if s["fixes"]]
    assert setup, "the resumed game must ask for the missing piece"
    assert setup[0]["fixes"][0] == {
        "action": "place",
        "cell": "b4",
        "text": "Put red on b4",
        "piece": {"kind": "man", "label": "red", "owner": 0},
    }
    assert any("Set up the board" in line for line in setup[0]["oled"])
    assert states[-1]["moves"] == 3
