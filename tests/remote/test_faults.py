"""Whole games board to board through a real Mosquitto with faults at random (seeded)
moments: the host board or the guest board loses its power (SIGKILL) and is started
again on its journal, or the broker restarts and forgets every session and retained
message. Every game ends, both journals hold it once and whole: the two exports are
the same, each journal holds the one game with every move once, and the moves are as
many as each board's referee counted."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.remote.test_two_boards import _export
from tests.spectate.tools import Broker, mosquitto, stop, tabletop

GAMES = {"double-take": 8, "crosslet": 8, "doubles-wild": 8, "dominoes": 10, "doublecross": 10}
"""The games played board to board, and the faults in each: 24 in the three games of
open pieces, 20 in the two of hidden pieces (whose guest takes its game up from its
journal and the views kept beside it)."""
KINDS = ("host", "guest", "broker")
SEED = int(os.environ.get("TABLETOP_FAULTS_SEED", "20261202"))
"""The faults' moments and kinds (another seed: ``TABLETOP_FAULTS_SEED=N``); a failing
run says the faults it had made."""
GAME_TIMEOUT_S = 240.0
"""How long one game may take, its faults and restarts included."""


@dataclass
class Board:
    """One board's process, started again on the same journal after each power loss."""

    name: str
    command: Callable[[], subprocess.Popen[str]]
    proc: subprocess.Popen[str] | None = None
    runs: list[tuple[list[str], list[str]]] = field(default_factory=list)
    """Each run's output: its transcript lines and its log lines."""
    readers: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        self.proc = self.command()
        out: list[str] = []
        err: list[str] = []
        self.runs.append((out, err))
        for stream, lines in ((self.proc.stdout, out), (self.proc.stderr, err)):
            reader = threading.Thread(target=_read, args=(stream, lines), daemon=True)
            reader.start()
            self.readers.append(reader)

    def power_loss(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.start()

    def numbers(self) -> list[int]:
        """The move numbers every run printed, in order."""
        return [n for out, _ in self.runs for n in _numbers(out)]

    def ended(self) -> bool:
        return self.proc is not None and self.proc.poll() is not None

    def report(self) -> str:
        out, err = self.runs[-1]
        return f"{self.name}'s last run: {''.join(out[-5:])}{''.join(err[-10:])}"


def _read(stream: Any, lines: list[str]) -> None:
    lines.extend(stream)


def _numbers(lines: list[str]) -> list[int]:
    head = [line.strip().split(".", 1)[0] for line in lines]
    return [int(h) for h in head if h.isdigit()]


def _plan(game: str, moves: int) -> list[tuple[int, str, float]]:
    """The faults: after how many moves, which, and a fraction of a second more."""
    rng = random.Random(f"{SEED}-{game}")
    kinds = [KINDS[i % len(KINDS)] for i in range(GAMES[game])]
    rng.shuffle(kinds)  # each kind at least twice, in a random order
    last = max(2, moves * 4 // 5)  # never so near the end that the game is over first
    moments = sorted(rng.randint(1, last) for _ in kinds)
    return [(at, kind, rng.uniform(0.0, 0.3)) for at, kind in zip(moments, kinds, strict=True)]


def _journal(path: Path) -> tuple[int, list[str]]:
    """The journal's games, and its one game's actions (their payloads, in order)."""
    with sqlite3.connect(path) as db:
        games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        rows = db.execute("SELECT kind, payload FROM inputs ORDER BY seq").fetchall()
    assert {kind for kind, _ in rows} <= {"action", "seats"}, rows  # nothing taken back
    return int(games), [payload for kind, payload in rows if kind == "action"]


def _boards(broker: Broker, game: str, folder: Path) -> tuple[Board, Board]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # each move line as it is played
    host = Board(
        "bob",
        lambda: tabletop(
            "sim", "--game", game, "--host-remote", "2=ann", "--broker", broker.url,
            "--board-name", "bob", "--journal", str(folder / "bob.sqlite"), env=env,
        ),
    )  # fmt: skip
    guest = Board(
        "ann",
        lambda: tabletop(
            "sim", "--join", "bob", "--broker", broker.url, "--board-name", "ann",
            "--journal", str(folder / "ann.sqlite"), env=env,
        ),
    )  # fmt: skip
    return host, guest


def _whole_game(broker: Broker, game: str, folder: Path) -> tuple[Board, Board]:
    """A game with no fault: how many moves it takes, to plan the faults by."""
    folder.mkdir()
    host, guest = _boards(broker, game, folder)
    host.start()
    guest.start()
    for board in (host, guest):
        assert board.proc is not None
        assert board.proc.wait(GAME_TIMEOUT_S) == 0, board.report()
    return host, guest


@pytest.mark.slow
@pytest.mark.parametrize("game", list(GAMES))
def test_a_game_survives_power_losses_and_broker_restarts(tmp_path: Path, game: str) -> None:
    with mosquitto() as broker:
        calm_host, _ = _whole_game(broker, game, tmp_path / "calm")
        for reader in calm_host.readers:
            reader.join(10)
        calm_moves = len(_export(tmp_path / "calm" / "bob.sqlite")["moves"])
        plan = _plan(game, calm_moves)
        # The same broker: it keeps the host's calm game, over, which the new guest
        # must not take for the game to join.
        folder = tmp_path / "faults"
        folder.mkdir()
        host, guest = _boards(broker, game, folder)
        host.start()
        guest.start()
        done: list[str] = []
        try:
            end = time.monotonic() + GAME_TIMEOUT_S
            for at, kind, extra_s in plan:
                while max([0, *host.numbers(), *guest.numbers()]) < at:
                    assert not (host.ended() and guest.ended()), f"the game ended before {at}"
                    assert time.monotonic() < end, f"{game}: stuck before move {at}, {done}"
                    time.sleep(0.02)
                time.sleep(extra_s)
                if kind == "broker":
                    broker.stop()  # every session and retained message with it
                    time.sleep(extra_s)
                    broker.start()
                else:
                    board = host if kind == "host" else guest
                    assert not board.ended(), f"{board.report()}\n(faults so far: {done})"
                    board.power_loss()
                done.append(f"{kind} after {at}")
            for board in (host, guest):
                assert board.proc is not None
                left = max(1.0, end - time.monotonic())
                code = board.proc.wait(left)
                assert code == 0, f"{board.report()}\n(faults: {done})"
            for reader in host.readers + guest.readers:
                reader.join(10)
        finally:
            for board in (host, guest):
                if board.proc is not None:
                    stop(board.proc)
    assert len(done) == GAMES[game]
    bob, ann = _export(folder / "bob.sqlite"), _export(folder / "ann.sqlite")
    assert bob["outcome"] is not None
    assert bob == ann, f"the two boards' games differ after {done}"
    moves = [json.dumps(m, sort_keys=True) for m in bob["moves"]]
    for path in (folder / "bob.sqlite", folder / "ann.sqlite"):
        games, actions = _journal(path)
        assert games == 1, f"{path.name}: a restart began a new game ({done})"
        assert len(actions) == len(moves), f"{path.name}: moves lost or doubled ({done})"
    for board in (host, guest):
        printed = board.numbers()
        assert len(printed) == len(set(printed)), f"{board.name} played a move twice"
        assert max(printed) == len(moves)
        closing = board.runs[-1][1]
        assert any("refused 0 messages" in line for line in closing), board.report()
