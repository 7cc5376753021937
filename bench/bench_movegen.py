"""Crosslet's move generator: time on mid-game positions, and the simulation's peak memory.

Positions come from computer games played with the shipped ENABLE list, seeded, so
every run times the same boards (the 240 positions of the targets; ``--quick`` takes
fewer). A search is timed in CPU time of this process (``time.process_time``), so
other work on the machine inflates it less; each run gives a median and a p99 over
the positions. Beside them, for information, each position's first search, timed
as the seeded game meets it (its cross-checks not all cached yet). The peak
resident size is ``ru_maxrss`` of ``tabletop sim --game crosslet`` run in a fresh
process, with the word index and the generator cached.

Every figure is taken twice: with the generator compiled, as ``TABLETOP_COMPILE=1
pip install .`` builds it (``bench/compiled.py`` builds it in a throwaway folder
and a child process times it), and in pure Python, as a plain install has it. The
search's median target is the compiled one's; the pure one is shown beside it. The
p99 and memory targets hold for both.

Run: ``python bench/bench_movegen.py [--quick] [--positions N] [--runs N]`` (the
generator as this interpreter imports it; ``--json`` prints its figures as JSON).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from firmware_bridge.kits.lexicon_store import load_generator, load_lexicon
from games.crosslet import movegen
from games.crosslet.game import Crosslet
from games.crosslet.movegen import MoveGenerator
from games.crosslet.player import CrossletPlayer
from games.lexicon import Lexicon

MEDIAN_TARGET_MS = 2.0
P99_TARGET_MS = 30.0
RSS_TARGET_MB = 45.0
POSITIONS = 240
QUICK_POSITIONS = 24

Position = tuple[dict[str, str], list[str]]
"""A board (cell to letter) and the rack of the player to move."""

# The child is the only process this one waits for, so its ru_maxrss is the child's.
_RSS_PROBE = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def mid_game_positions(
    generator: MoveGenerator, lexicon: Lexicon, count: int, first: list[float] | None = None
) -> list[Position]:
    """Four positions from each seeded game, between its 4th and its 20th turn.

    ``first`` gets the CPU milliseconds of the search for each position's best move
    as the game meets it: the first search of that board, with the cross-checks the
    earlier turns and games left in the generator's cache, as a game pays it. The
    timed runs search the same boards again, with their cross-checks known.
    """
    positions: list[Position] = []
    seed = 0
    while len(positions) < count:
        rng = random.Random(seed)
        game = Crosslet(2, random.Random(seed), lexicon=lexicon, generator=generator)
        player = CrossletPlayer(generator, random.Random(seed))
        pick = set(rng.sample(range(4, 20), 4))
        turn = 0
        while game.outcome is None and turn < 20:
            if turn in pick:
                board, rack = game.board_letters(), game.rack(game.to_move)
                if first is not None:
                    start = time.process_time()
                    generator.best(board, rack)
                    first.append((time.process_time() - start) * 1000)
                positions.append((board, rack))
            game.apply(player.choose(game))
            turn += 1
        seed += 1
    return positions[:count]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def time_searches(generator: MoveGenerator, positions: list[Position]) -> list[float]:
    """Milliseconds of CPU time to find the best move, one figure a position."""
    times: list[float] = []
    for board, rack in positions:
        start = time.process_time()
        generator.best(board, rack)
        times.append((time.process_time() - start) * 1000)
    return times


def sim_peak_rss_mb() -> float:
    """Peak resident size of ``tabletop sim --game crosslet`` in a fresh process."""
    command = [sys.executable, "-m", "firmware_bridge.apps.cli", "sim", "--game", "crosslet"]
    done = subprocess.run(
        [sys.executable, "-c", _RSS_PROBE, *command],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout.split()[-1]) / 1024


def _figure(name: str, unit: str, target: float | None, samples: list[float]) -> dict[str, Any]:
    return {"figure": name, "unit": unit, "target": target, "better": "lower", "samples": samples}


def measure(
    positions: int, runs: int, rss_runs: int, median_target: float | None = MEDIAN_TARGET_MS
) -> tuple[list[dict[str, Any]], MoveGenerator, list[Position], list[float]]:
    """The figures of the generator this process imports, each named for its kind
    (compiled or pure Python), with the positions timed and the last run's times."""
    lexicon = load_lexicon()
    generator = load_generator(lexicon)  # also warms the cache the simulation loads
    first: list[float] = []
    chosen = mid_game_positions(generator, lexicon, positions, first)
    medians: list[float] = []
    p99s: list[float] = []
    last: list[float] = []
    for _ in range(runs):
        last = time_searches(generator, chosen)
        medians.append(statistics.median(last))
        p99s.append(percentile(last, 0.99))
    rss = [sim_peak_rss_mb() for _ in range(rss_runs)]
    n = len(chosen)  # the last game may have timed more positions than were asked for
    kind = "compiled" if is_compiled() else "pure Python"
    figures = [
        _figure(f"Crosslet move generation, median, {kind}", "ms", median_target, medians),
        _figure(f"Crosslet move generation, p99, {kind}", "ms", P99_TARGET_MS, p99s),
        _figure(
            f"Crosslet move generation, a position's first search, {kind}", "ms", None, first[:n]
        ),
        _figure(f"tabletop sim --game crosslet, peak RSS, {kind}", "MB", RSS_TARGET_MB, rss),
    ]
    return figures, generator, chosen, last


def is_compiled() -> bool:
    """Whether ``games.crosslet.movegen`` is the compiled extension, not the Python module."""
    return not str(movegen.__file__).endswith(".py")


def compiled_figures(positions: int, runs: int, rss_runs: int) -> list[dict[str, Any]]:
    """``measure``'s figures for the compiled generator, built in a throwaway folder
    and timed in a child process."""
    # Imported here: run as a script (python bench/bench_movegen.py), this file is
    # not part of the bench package, and the script alone never builds.
    from bench import compiled

    with tempfile.TemporaryDirectory() as folder:
        tree = compiled.build(Path(folder))
        command = [sys.executable, "-m", "bench.bench_movegen", "--json"]
        command += ["--positions", str(positions), "--runs", str(runs)]
        command += ["--rss-runs", str(rss_runs)]
        done = subprocess.run(
            command,
            cwd=tree,
            env=compiled.environment(tree),
            capture_output=True,
            text=True,
            check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"timing the compiled generator failed:\n{done.stderr}")
    child = json.loads(done.stdout)
    if not child["compiled"]:
        raise RuntimeError("the child imported the Python move generator, not the compiled one")
    figures: list[dict[str, Any]] = child["figures"]
    return figures


def run(quick: bool) -> list[dict[str, Any]]:
    """The figures of the bench convention; quick mode times 24 positions, not 240, once
    each, and runs the simulation once, not three times."""
    positions = QUICK_POSITIONS if quick else POSITIONS
    runs = rss_runs = 1 if quick else 3
    fast = compiled_figures(positions, runs, rss_runs)
    # The compiled generator carries the median target; the pure one is shown beside it.
    pure, _, _, _ = measure(positions, runs, rss_runs, median_target=None)
    return fast + pure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_POSITIONS} positions")
    parser.add_argument("--positions", type=int, help=f"default {POSITIONS}")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rss-runs", type=int, help="default: --runs, or 1 with --quick")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    count = args.positions or (QUICK_POSITIONS if args.quick else POSITIONS)
    runs = max(args.runs, 1)
    rss_runs = args.rss_runs if args.rss_runs is not None else 1 if args.quick else runs
    figures, generator, positions, times = measure(count, runs, rss_runs)
    if args.json:
        print(json.dumps({"compiled": is_compiled(), "figures": figures}))
        return
    blob = generator.to_bytes()
    start = time.perf_counter()
    MoveGenerator.from_bytes(blob)
    load = time.perf_counter() - start
    counts = [len(generator._search(board, rack)) for board, rack in positions]
    blanks = [t for t, (_, rack) in zip(times, positions, strict=True) if "?" in rack]
    print(
        f"word graph: {len(generator.dawg)} nodes, {generator.dawg.edge_count} edges, "
        f"{len(blob) / 1e6:.2f} MB saved, loaded in {load * 1000:.0f} ms"
    )
    print(
        f"positions: {len(positions)} (racks with a blank: {len(blanks)}), moves per "
        f"position: median {statistics.median(counts):.0f}, max {max(counts)}"
    )
    plain = [t for t, (_, rack) in zip(times, positions, strict=True) if "?" not in rack]
    print(f"CPU time over all positions (last run): {sum(times):.0f} ms")
    if plain:
        print(
            f"without a blank (last run): median {statistics.median(plain):.2f} ms, "
            f"max {max(plain):.1f} ms"
        )
    if blanks:
        print(
            f"with a blank (last run): median {statistics.median(blanks):.1f} ms, "
            f"max {max(blanks):.1f} ms"
        )
    for f in figures:
        samples = f["samples"]
        if f["target"] is None:
            print(
                f"{f['figure']}: median {statistics.median(samples):.2f} ms, "
                f"p99 {percentile(samples, 0.99):.1f} ms over {len(samples)} positions"
            )
            continue
        verdict = "PASS" if statistics.median(samples) <= f["target"] else "FAIL"
        shown = ", ".join(f"{s:.1f}" for s in samples)
        print(
            f"{f['figure']}: median {statistics.median(samples):.1f} {f['unit']} "
            f"(runs: {shown}; target <= {f['target']:g}) {verdict}"
        )


if __name__ == "__main__":
    main()
