"""How long a whole simulated game takes, end to end, against the 10 s target.

Runs ``tabletop sim --game GAME`` (computer against computer, every layer real but
the electrons) in a fresh process per seed and prints wall and CPU seconds.

    python bench/bench_sim.py [--game double-take] [--seeds 5] [--profile NAME]

``run(quick)`` (for ``python -m bench``) times every game over three seeds, or
Double Take over three seeds when quick.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

TARGET_S = 10.0


def run(quick: bool) -> list[dict[str, Any]]:
    from firmware_bridge.kits import KITS
    from games.registry import GAMES

    games = ["double-take"] if quick else [g.name for g in GAMES if g.name in KITS]
    figures = []
    for game in games:
        walls = [play(game, seed, None)[0] for seed in ((1, 2) if quick else (1, 2, 3))]
        figures.append(
            {
                "figure": f"whole simulated game, {game}",
                "unit": "s",
                "target": TARGET_S,
                "better": "lower",
                "samples": walls,
            }
        )
    return figures


def play(game: str, seed: int, profile: str | None) -> tuple[float, float, str]:
    cmd = [sys.executable, "-m", "firmware_bridge.apps.cli", "sim", "--game", game]
    cmd += ["--seed", str(seed)]
    if profile:
        cmd += ["--profile", profile]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="double-take")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--profile")
    args = parser.parse_args()
    walls: list[float] = []
    for seed in range(1, args.seeds + 1):
        wall, cpu, result = play(args.game, seed, args.profile)
        walls.append(wall)
        print(f"seed {seed}: {wall:5.2f} s wall, {cpu:5.2f} s CPU  {result}")
    worst = max(walls)
    verdict = "PASS" if worst <= TARGET_S else "FAIL"
    print(
        f"{args.game} on {args.profile or 'its default board'}: median "
        f"{statistics.median(walls):.2f} s, worst {worst:.2f} s "
        f"(target ≤ {TARGET_S:.0f} s): {verdict}"
    )


if __name__ == "__main__":
    main()
