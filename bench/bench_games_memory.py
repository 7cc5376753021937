"""Game after game in one process: a finished game leaves nothing behind.

Two paths, each playing whole Double Take games (the computer's moves) one after the
other and starting the next from the start menu, as a board does for months:

- the daemon's own: its ``DaemonTable`` (``daemon.py``) with the real session, journal and
  start menu, the moves committed as the session commits a recognised move;
- the simulator's: one ``Simulation`` whose hands carry every move out on the simulated
  board (pins, settle filter, OLED frames), then ok and the menu's six oks.

Prints the memory (Python's, traced, and SQLite's own heap) each path grows by per
game after warm-up; target at most 5 KB a game.

    python bench/bench_games_memory.py [--quick]

``run(quick)``: 200 games on each path, after 40 (the daemon's) and 60 (the simulator's)
games of warm-up (the bounded caches of laid-out and drawn texts fill over the first
games: over 30 games after only 10 the simulator still grew 17 KB a game);
quick (the convention only, the figures mean little): 2 and 1 games after 1 and none.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_memory import _sqlite_heap

TARGET_KB_PER_GAME = 5.0


def _growth(play_one: Callable[[], None], warm_up: int, games: int) -> float:
    """KB per game the process grows by over ``games`` games after ``warm_up`` games."""
    for _ in range(warm_up):
        play_one()
    gc.collect()
    tracemalloc.start()
    try:
        sqlite_before, python_before = _sqlite_heap(), tracemalloc.get_traced_memory()[0]
        for _ in range(games):
            play_one()
        gc.collect()
        grew = _sqlite_heap() - sqlite_before + tracemalloc.get_traced_memory()[0] - python_before
    finally:
        tracemalloc.stop()
    return grew / games / 1000


class _Board:
    """No sensors: the session is given its moves as recognised."""

    cells: tuple[str, ...] = ()

    def poll(self, now: float) -> list[Any]:
        return []

    def close(self) -> None:
        pass


def daemon_path(folder: Path, warm_up: int, games: int) -> float:
    from firmware_bridge.apps.daemon import DaemonTable, choices
    from firmware_bridge.journal import Journal
    from firmware_bridge.kits import find_kit
    from firmware_bridge.referees.events import ButtonEvent
    from firmware_bridge.runtime.lobby import Lobby
    from firmware_bridge.runtime.loop import Loop
    from hardware.board import OCCUPIED, BoardSettled
    from wiring.config import RunConfig
    from wiring.loader import load_profile

    config = RunConfig(
        profile=load_profile("double-take-gpio"),
        journal=folder / "daemon.sqlite",
        tags=folder / "tags.json",
        game="double-take",
        players=2,
        seed=7,
    )
    kit = find_kit("double-take")
    rng = random.Random(1)
    now = [0.0]
    with Journal(config.journal) as journal:
        board = _Board()
        loop = Loop(Lobby(choices(config.profile)), board)
        table = DaemonTable(config, journal, loop, None, None)
        table.start()

        def step() -> None:
            now[0] += 0.1
            loop.step(now[0])
            table.after_step()

        def play_one() -> None:
            session = table.session
            assert session is not None
            if session.restoring:
                loop.put(BoardSettled(dict.fromkeys(session.game.layout(), OCCUPIED)))
                step()
            game = session.game
            player = kit.make_player(game, random.Random(rng.random()))
            while game.outcome is None:
                session.commit(player.choose(game))
            for _ in range(7):  # ok after the game: the menu; its six oks: the next game
                loop.put(ButtonEvent("ok", False))
                step()
            assert table.session is not None and table.session is not session

        return _growth(play_one, warm_up, games)


def simulator_path(folder: Path, warm_up: int, games: int) -> float:
    from firmware_bridge.sim.runner import SimOptions, Simulation
    from firmware_bridge.sim.script import parse_all

    sim = Simulation(SimOptions(game="double-take", seed=1, journal=folder / "sim.sqlite"))
    menu = parse_all("press ok\n" * 7)
    try:
        sim.start()

        def play_one() -> None:
            sim.play_computer()
            for line in menu:
                sim.run_line(line)

        return _growth(play_one, warm_up, games)
    finally:
        sim.close()


def run(quick: bool) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        daemon = daemon_path(folder, *((1, 2) if quick else (40, 200)))
        simulator = simulator_path(folder, *((0, 1) if quick else (60, 200)))
    return [
        _fig("daemon's table: growth per Double Take game", daemon),
        _fig("simulator: growth per Double Take game", simulator),
    ]


def _fig(figure: str, kb: float) -> dict[str, Any]:
    return {
        "figure": figure,
        "unit": "KB/game",
        "target": TARGET_KB_PER_GAME,
        "better": "lower",
        "samples": [kb],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    args = parser.parse_args(argv)
    for fig in run(args.quick):
        print(
            f"{fig['figure']:<48} {statistics.median(fig['samples']):7.2f} {fig['unit']}"
            f"  (target ≤ {fig['target']:g})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
