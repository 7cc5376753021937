"""The event path: an accepted move to its frame handed to the display, journal included.

Plays computer games in simulation with a journal in a file (SQLite, as the
daemon keeps it) and times, for every board event that commits a move, from the
moment the loop hands the event to the session to the moment the session hands
the move's frame to the display (before the OLED sends it). Start-up is frozen
out of the collector as the command line does (``gc.freeze``).

    python bench/bench_event.py [--quick]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from firmware_bridge.kits import KITS
from firmware_bridge.sim.runner import SimOptions, Simulation
from games.registry import game_names

MEDIAN_TARGET_MS = 1.0
P99_TARGET_MS = 3.0


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98]


def latencies_ms(game: str, seed: int, journal: Path) -> tuple[list[float], list[float]]:
    """For each committed move of one computer game: event handed over → frame shown,
    and the part of it spent writing the journal, in ms."""
    sim = Simulation(SimOptions(game=game, seed=seed, journal=journal))
    session = sim.session
    display = session.display
    assert display is not None
    clock = time.perf_counter
    handed: list[float] = []
    journaled: list[float] = []
    shown: list[float | None] = [None]
    writing = [0.0]
    append = sim.journal.append

    def timed_append(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return append(*args, **kwargs)
        finally:
            writing[0] += clock() - start

    class Stopwatch:
        def show(self, image: Any) -> None:
            if shown[0] is None:
                shown[0] = clock()
            display.show(image)

    handle = session.handle

    def timed(event: Any) -> None:
        before = len(session.game.history)
        shown[0] = None
        writing[0] = 0.0
        start = clock()
        handle(event)
        if len(session.game.history) > before and shown[0] is not None:
            handed.append((shown[0] - start) * 1000)
            journaled.append(writing[0] * 1000)

    session.display = Stopwatch()
    session.handle = timed  # type: ignore[method-assign]
    sim.journal.append = timed_append  # type: ignore[method-assign]
    try:
        sim.start()
        gc.collect()
        gc.freeze()
        sim.play_computer()
    finally:
        gc.unfreeze()
        sim.close()
    return handed, journaled


def run(quick: bool) -> list[dict[str, Any]]:
    # Every game with a kit: one the simulated board can play.
    games = ["double-take"] if quick else [n for n in game_names() if n in KITS]
    seeds = (1,) if quick else (1, 2, 3)
    figures: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            every: list[float] = []
            tails: list[float] = []
            journal: list[float] = []
            for seed in seeds:
                times, writes = latencies_ms(game, seed, Path(tmp) / f"{game}-{seed}.sqlite")
                every.extend(times)
                journal.extend(writes)
                tails.append(p99(times))
            figures.append(_fig(f"accepted move → frame, {game}", MEDIAN_TARGET_MS, every))
            figures.append(_fig(f"  its p99 per game, {game}", P99_TARGET_MS, tails))
            figures.append(_fig(f"  of which journal append, {game}", None, journal))
    return figures


def _fig(figure: str, target: float | None, samples: list[float]) -> dict[str, Any]:
    return {"figure": figure, "unit": "ms", "target": target, "better": "lower", "samples": samples}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one game of Double Take")
    args = parser.parse_args(argv)
    for fig in run(args.quick):
        samples = fig["samples"]
        target = "" if fig["target"] is None else f"  (target ≤ {fig['target']:g})"
        print(
            f"{fig['figure']:<44} median {statistics.median(samples):7.3f} ms  "
            f"min {min(samples):7.3f}  max {max(samples):7.3f}  n={len(samples)}{target}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
