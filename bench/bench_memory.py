"""Memory per game over a long session, and of one simulated game.

The daemon plays game after game in one process, on one journal. This plays the
inputs of a real simulated Double Take game into one journal again and again, as
the daemon would, and measures what SQLite holds (its own count,
``sqlite3_memory_used``) and what Python holds (tracemalloc) after a warm-up: the
growth per game. Before the journal's page cache was bounded it grew with the
journal file, about 8 KB a game.

It also prints the peak Python memory of one whole simulated Double Take game
(gpiozero's mock pins used to keep every level change, 27,000 of them a game).

    python bench/bench_memory.py [--games 100]

``run(quick)`` (for ``python -m bench``) measures three sessions, one shorter one
when quick.
"""

from __future__ import annotations

import _sqlite3
import argparse
import ctypes
import gc
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

TARGET_KB_PER_GAME = 1.0
WARM_UP_GAMES = 40
"""Games after which the page cache of a bounded journal is full."""


def _sqlite_heap() -> int:
    used = ctypes.CDLL(_sqlite3.__file__).sqlite3_memory_used
    used.restype = ctypes.c_int64
    return int(used())


def _double_take_inputs(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    """The journaled inputs of one whole simulated Double Take game."""
    from firmware_bridge.journal import Journal
    from firmware_bridge.sim.runner import SimOptions, Simulation

    path = folder / "one-game.sqlite"
    sim = Simulation(SimOptions(game="double-take", seed=3, journal=path))
    try:
        sim.start()
        sim.play_computer()
        game_id = sim.session.game_id
    finally:
        sim.close()
    with Journal(path) as journal:
        return [(e.kind, e.payload) for e in journal.entries(game_id)]


def session_growth(inputs: list[tuple[str, dict[str, Any]]], games: int, folder: Path) -> float:
    """KB of memory (SQLite's and Python's) a long session grows by per game after warm-up."""
    from firmware_bridge.journal import Journal

    def play(journal: Journal, n: int) -> None:
        for _ in range(n):
            game_id = journal.new_game("double-take", 2, 3, {}, "double-take-gpio")
            for kind, payload in inputs:
                journal.append(game_id, kind, payload)
            journal.unfinished()
            journal.finish(game_id, {"winner": "red", "draw": False})

    path = folder / "session.sqlite"
    for stale in folder.glob("session.sqlite*"):
        stale.unlink()
    tracemalloc.start()
    try:
        with Journal(path) as journal:
            play(journal, WARM_UP_GAMES)
            gc.collect()
            sqlite_before, python_before = _sqlite_heap(), tracemalloc.get_traced_memory()[0]
            play(journal, games)
            gc.collect()
            sqlite_grew = _sqlite_heap() - sqlite_before
            python_grew = tracemalloc.get_traced_memory()[0] - python_before
    finally:
        tracemalloc.stop()
    return (sqlite_grew + python_grew) / games / 1000


def game_peak() -> float:
    """MB: peak Python memory of one whole simulated Double Take game (after a first one)."""
    from firmware_bridge.sim.runner import SimOptions, Simulation

    def play(seed: int) -> None:
        sim = Simulation(SimOptions(game="double-take", seed=seed))
        try:
            sim.start()
            sim.play_computer()
        finally:
            sim.close()

    play(1)  # imports, caches
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        play(2)
        return (tracemalloc.get_traced_memory()[1] - base) / 1e6
    finally:
        tracemalloc.stop()


def run(quick: bool) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        inputs = _double_take_inputs(folder)
        runs, games = (1, 30) if quick else (3, 60)
        growth = [session_growth(inputs, games, folder) for _ in range(runs)]
    return [
        {
            "figure": f"long session: memory growth per Double Take game ({games} games)",
            "unit": "KB/game",
            "target": TARGET_KB_PER_GAME,
            "better": "lower",
            "samples": growth,
        },
        {
            "figure": "one simulated Double Take game: peak Python memory",
            "unit": "MB",
            "target": None,
            "better": "lower",
            "samples": [game_peak() for _ in range(1 if quick else 3)],
        },
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games after the warm-up")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        inputs = _double_take_inputs(folder)
        print(f"one Double Take game: {len(inputs)} journaled inputs")
        for i in range(3):
            kb = session_growth(inputs, args.games, folder)
            print(
                f"session {i + 1}: {kb:.2f} KB/game over {args.games} games after "
                f"{WARM_UP_GAMES} (target {TARGET_KB_PER_GAME})"
            )
    print(f"one simulated Double Take game: peak Python memory {game_peak():.2f} MB")


if __name__ == "__main__":
    main()
