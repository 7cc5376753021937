"""The event path: an accepted move to its frame handed to the display, journal included.

Plays computer games in simulation with a journal in a file (SQLite, as the
daemon keeps it) and times, for every board event that commits a move, from the
moment the loop hands the event to the session to the moment the session hands
the move's frame to the display (before the OLED sends it). Start-up is frozen
out of the collector as the command line does (``gc.freeze``).

The journal's commit waits for the disk (a file sync per move, which durability
requires), so two more figures separate the disk from the processing: the same
games with the journal on a RAM disk (``/dev/shm``, where a sync costs nothing),
and the sync of a one-byte write in the journal's folder, the floor of any
commit on this disk. The session lays out and draws the frame on a second thread
while the commit waits for the disk; each game is played again right after with
that undone (the commit, then the frame, on one thread), to show what it saves.

    python bench/bench_event.py [--quick]
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from firmware_bridge.kits import KITS
from firmware_bridge.runtime import session as sim_session
from firmware_bridge.runtime.overlap import while_waiting
from firmware_bridge.sim.runner import SimOptions, Simulation
from games.registry import game_names

MEDIAN_TARGET_MS = 1.0
P99_TARGET_MS = 3.0
RAM_DISK = Path("/dev/shm")


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98]


def _one_thread(wait: Callable[[], None], work: Callable[[], Any]) -> Any:
    """The session's overlap undone: the commit, then the frame, on one thread."""
    wait()
    return work()


def latencies_ms(
    game: str, seed: int, journal: Path, *, overlap: bool = True
) -> tuple[list[float], list[float], list[float]]:
    """For each committed move of one computer game: event handed over → frame shown,
    the part of it spent writing the journal, and the processor time the process
    spent on it, the thread that draws the frame during the commit included (what
    is left when waiting for the disk and for the processor, on a busy machine, are
    taken out), in ms."""
    sim = Simulation(SimOptions(game=game, seed=seed, journal=journal))
    if not overlap:
        sim_session.while_waiting = _one_thread  # type: ignore[assignment]
    session = sim.session
    display = session.display
    assert display is not None
    clock = time.perf_counter
    cpu_clock = time.process_time
    handed: list[float] = []
    journaled: list[float] = []
    worked: list[float] = []
    shown: list[float | None] = [None]
    shown_cpu = [0.0]
    writing = [0.0]
    journal = sim.journal

    def timed(write: Callable[..., Any]) -> Callable[..., Any]:
        def timed_write(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            try:
                return write(*args, **kwargs)
            finally:
                writing[0] += clock() - start

        return timed_write

    class Stopwatch:
        def show(self, image: Any) -> None:
            if shown[0] is None:
                shown[0] = clock()
                shown_cpu[0] = cpu_clock()
            display.show(image)

    handle = session.handle

    def timed_handle(event: Any) -> None:
        before = len(session.game.history)
        shown[0] = None
        writing[0] = 0.0
        start_cpu = cpu_clock()
        start = clock()
        handle(event)
        if len(session.game.history) > before and shown[0] is not None:
            handed.append((shown[0] - start) * 1000)
            journaled.append(writing[0] * 1000)
            worked.append((shown_cpu[0] - start_cpu) * 1000)

    session.display = Stopwatch()
    session.handle = timed_handle  # type: ignore[method-assign]
    # Writing the move, and its commit: the frame is drawn on another thread meanwhile.
    journal.stage = timed(journal.stage)  # type: ignore[method-assign]
    journal.save = timed(journal.save)  # type: ignore[method-assign]
    try:
        sim.start()
        gc.collect()
        gc.freeze()
        sim.play_computer()
    finally:
        gc.unfreeze()
        sim.close()
        sim_session.while_waiting = while_waiting
    return handed, journaled, worked


def fsync_ms(folder: Path, count: int) -> list[float]:
    """ms to write one byte to a file in ``folder`` and sync it, ``count`` times."""
    path = folder / "fsync-probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        out = []
        for _ in range(count):
            start = time.perf_counter()
            os.write(fd, b"x")
            os.fsync(fd)
            out.append((time.perf_counter() - start) * 1000)
        return out
    finally:
        os.close(fd)
        path.unlink()


def _is_ram_disk(path: Path) -> bool:
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return False
    return any(line.split()[1:3] == [str(path), "tmpfs"] for line in mounts)


def run(quick: bool) -> list[dict[str, Any]]:
    # Every game with a kit: one the simulated board can play.
    games = ["double-take"] if quick else [n for n in game_names() if n in KITS]
    seeds = (1,) if quick else (1, 2, 3)
    figures: list[dict[str, Any]] = []
    synced: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            every: list[float] = []
            tails: list[float] = []
            journal: list[float] = []
            cpu: list[float] = []
            cpu_tails: list[float] = []
            serial: list[float] = []
            serial_cpu: list[float] = []
            for seed in seeds:
                times, writes, worked = latencies_ms(
                    game, seed, Path(tmp) / f"{game}-{seed}.sqlite"
                )
                # The same game right after, with the frame drawn after the commit.
                alone, _, alone_cpu = latencies_ms(
                    game, seed, Path(tmp) / f"{game}-{seed}-one-thread.sqlite", overlap=False
                )
                serial.extend(alone)
                serial_cpu.extend(alone_cpu)
                every.extend(times)
                journal.extend(writes)
                tails.append(p99(times))
                cpu.extend(worked)
                cpu_tails.append(p99(worked))
                # The disk's floor, taken between the games, as busy as the disk is then.
                synced.extend(fsync_ms(Path(tmp), 30))
            figures.append(_fig(f"accepted move → frame, {game}", MEDIAN_TARGET_MS, every))
            figures.append(_fig(f"  its p99 per game, {game}", P99_TARGET_MS, tails))
            figures.append(_fig(f"  of which journal write and commit, {game}", None, journal))
            figures.append(_fig(f"  processor time of it, {game}", None, cpu))
            figures.append(_fig(f"  processor time, p99 per game, {game}", None, cpu_tails))
            figures.append(_fig(f"  the same, frame drawn after the commit, {game}", None, serial))
            figures.append(_fig(f"  processor time of that, {game}", None, serial_cpu))
    figures.append(_fig("fsync of a 1-byte write beside the journal", None, synced))
    if _is_ram_disk(RAM_DISK):
        with tempfile.TemporaryDirectory(dir=RAM_DISK) as tmp:
            for game in games:
                every = []
                for seed in seeds:
                    times, _, _ = latencies_ms(game, seed, Path(tmp) / f"{game}-{seed}.sqlite")
                    every.extend(times)
                figures.append(_fig(f"  the same, journal on a RAM disk, {game}", None, every))
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
