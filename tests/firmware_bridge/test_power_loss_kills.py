"""A hundred SIGKILLs at random points of each game: every game ends as the unbroken one.

For each game a reference game is played through once by the computer. Then the
same game is played again, by a hand that follows the reference, in processes
that are killed with SIGKILL at random points: while the simulation starts and
replays its journal, while a move is half made on the board, between a move
being journaled and being shown, between two moves. Each new process resumes
from the journal (as ``tabletop sim --journal`` does), first putting back what the
kill left half-moved. When a game is over before the hundred kills are done, the
next seed is played. Every game must end with exactly the reference's actions in
its journal, the same scores and the same outcome: no move lost or duplicated.

The processes are forked from a multiprocessing fork server that has imported
the simulator once, so that a kill costs a fork, not a Python start.
"""

from __future__ import annotations

import multiprocessing
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.apps.export import export_game
from firmware_bridge.journal import Journal
from firmware_bridge.kits import KITS
from firmware_bridge.sim.runner import SimOptions, Simulation
from tests.firmware_bridge import kill_hand

KILLS = 100
GAMES = sorted(KITS)
STARTUP_KILLS = 0.2
"""The share of kills aimed at the start-up (opening the journal, replaying, set-up)."""
TIMEOUT_S = 120.0


def server() -> Any:
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([kill_hand.__name__])
    return ctx


def reference(name: str, seed: int, path: Path) -> tuple[list[dict[str, Any]], float]:
    """The computer's game for ``seed``: its actions, and the time one move takes."""
    begun = time.perf_counter()
    sim = Simulation(SimOptions(name, seed=seed, journal=path))
    try:
        sim.start()
        sim.play_computer()
    finally:
        sim.close()
    with Journal(path, read_only=True) as journal:
        actions = [e.payload for e in journal.entries(1)]
    return actions, (time.perf_counter() - begun) / max(1, len(actions))


def finished(path: Path) -> bool:
    if not path.exists():
        return False
    with Journal(path, read_only=True) as journal:
        record = journal.newest()
        return record is not None and record.finished is not None


class Life:
    """One process of the game, and what it has reported."""

    def __init__(self, ctx: Any, path: Path, name: str, seed: int, actions: list[Any]) -> None:
        self.reports, send = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=kill_hand.life, args=(path, name, seed, actions, send))
        self.proc.start()
        send.close()
        self.started = False
        self.fixes = 0
        self.moves = 0
        self.ended = False

    def read_until(self, moves: int) -> None:
        """Read reports until it has started and made ``moves`` moves, or has ended."""
        deadline = time.monotonic() + TIMEOUT_S
        while not self.ended and not (self.started and self.moves >= moves):
            if not self.reports.poll(max(0.0, deadline - time.monotonic())):
                raise AssertionError(f"the simulation made no progress in {TIMEOUT_S} s")
            try:
                message = self.reports.recv_bytes()
            except EOFError:
                self.ended = True
                break
            if message.startswith(kill_hand.FAILED):
                self.proc.join(TIMEOUT_S)
                raise AssertionError(message[1:].decode())
            if message.startswith(kill_hand.STARTED):
                self.started = True
                self.fixes = int(message[1:])
            self.moves += message == kill_hand.MOVED
            self.ended |= message == kill_hand.FINISHED

    def join(self) -> None:
        self.proc.join(TIMEOUT_S)
        self.reports.close()

    def kill(self) -> bool:
        """SIGKILL it if it still runs; whether it did."""
        alive: bool = self.proc.is_alive()
        if alive:
            self.proc.kill()
        self.join()
        return alive


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_a_hundred_kills_lose_and_repeat_nothing(name: str, tmp_path: Path) -> None:
    ctx = server()
    rng = random.Random(f"kills {name}")
    kills = 0
    seed = 0
    half_made = 0  # lives that found a move half made on the board by the kill before
    while kills < KILLS:
        seed += 1
        ref_path = tmp_path / f"reference-{seed}.sqlite"
        actions, per_move_s = reference(name, seed, ref_path)
        path = tmp_path / f"killed-{seed}.sqlite"
        lives = 0
        while not finished(path):
            lives += 1
            assert lives <= 3 * len(actions) + KILLS, "the game does not get on"
            life = Life(ctx, path, name, seed, actions)
            final = kills == KILLS
            if final:
                life.read_until(len(actions) + 1)  # the last life plays to the end
            elif rng.random() < STARTUP_KILLS:
                time.sleep(rng.uniform(0.0, 0.3))
            else:
                life.read_until(rng.choice((0, 0, 1, 1, 2)))
                time.sleep(rng.uniform(0.0, per_move_s))
            half_made += life.fixes > 0
            if final:
                life.join()
            else:
                kills += life.kill()
            if life.proc.exitcode not in (0, -signal.SIGKILL):
                raise AssertionError(
                    f"life {lives} of {name} seed {seed} ended with {life.proc.exitcode}"
                )
        done = export_game(path, 1)
        expected = export_game(ref_path, 1)
        assert [m["action"] for m in done["moves"]] == [m["action"] for m in expected["moves"]]
        assert done["scores"] == expected["scores"]
        assert done["outcome"] == expected["outcome"] is not None
        assert done["layout"] == expected["layout"]
    assert kills == KILLS
    print(f"{name}: {kills} kills over {seed} games; {half_made} left a move half made")
    assert half_made > 0, "no kill fell inside a move"
