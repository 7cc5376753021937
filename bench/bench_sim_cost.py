"""What a whole simulated game costs in CPU, paired against the code of an earlier commit.

Each game is played (``tabletop sim --game GAME --seed S``, computer against
computer, the in-process firmware behind the pty) by this tree and by the tree of
commit ``--against`` (taken read-only with ``git archive`` into a temporary folder,
run with this venv), one after the other for each seed, the order swapped from seed
to seed; the CPU of each run (user + system, of the child process) is measured and
the ratio this / earlier taken per seed. The figure is the median ratio over the
seeds; a tile game (dominoes, crosslet, doublecross) must cost at most what it did
(≤ 1.0×). The games' moves differ between far-apart commits; a seed plays a whole
game in both.

    python bench/bench_sim_cost.py [--against 9d676ae] [--seeds 5] [--game NAME ...]

``run(quick)`` (for ``python -m bench``): the tile games against 9d676ae, the code
before the simulated board skipped its quiet scans, over 5 seeds (3 when quick).
``--against 6405f86`` pairs them with the code before the RFID boards had switches;
the games without a Pico (double-take, doubles-wild) show what the rest of the
program has grown since.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TILE_GAMES = ("dominoes", "crosslet", "doublecross")
OTHER_GAMES = ("double-take", "doubles-wild")
BEFORE = "9d676ae"
"""The last commit before the simulated board skipped the scans no switch changed."""
BEFORE_SWITCHES = "6405f86"
"""The last commit before the RFID boards were built with a switch under every square."""
TARGET = 1.0


def entry_point(tree: Path) -> tuple[str, str]:
    """The module and function of the tree's ``tabletop`` command."""
    text = (tree / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'^tabletop\s*=\s*"([\w.]+):(\w+)"', text, re.MULTILINE)
    if found is None:
        raise SystemExit(f"{tree}/pyproject.toml names no tabletop command")
    return found[1], found[2]


def checkout(rev: str, into: Path) -> Path:
    """The files of commit ``rev``, read from git without touching the work tree."""
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", rev], cwd=ROOT, stdout=out, check=True)
    tree = into / rev
    with tarfile.open(archive) as tar:
        # Links (a developer's venv link, say) are no part of the code.
        files = [m for m in tar.getmembers() if not (m.issym() or m.islnk())]
        tar.extractall(tree, members=files, filter="data")
    archive.unlink()
    return tree


def cpu(tree: Path, game: str, seed: int) -> float:
    """The CPU seconds of one whole game played by the code in ``tree``."""
    module, function = entry_point(tree)
    code = f"import sys; from {module} import {function}; sys.exit({function}(sys.argv[1:]))"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-c", code, "sim", "--game", game, "--seed", str(seed)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip() or "no output").splitlines()[-1]
        raise SystemExit(f"{game} (seed {seed}) did not run in {tree}: {last}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def paired(old: Path, game: str, seeds: int) -> list[tuple[float, float]]:
    """(this tree's CPU, the old tree's CPU) for each seed."""
    pairs = []
    for seed in range(1, seeds + 1):
        if seed % 2:
            new_s, old_s = cpu(ROOT, game, seed), cpu(old, game, seed)
        else:
            old_s, new_s = cpu(old, game, seed), cpu(ROOT, game, seed)
        pairs.append((new_s, old_s))
    return pairs


def run(quick: bool) -> list[dict[str, Any]]:
    seeds = 3 if quick else 5
    figures = []
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-") as folder:
        old = checkout(BEFORE, Path(folder))
        for game in TILE_GAMES:
            pairs = paired(old, game, seeds)
            figures.append(
                {
                    "figure": f"CPU of a whole {game} game, this / {BEFORE}",
                    "unit": "x",
                    "target": TARGET,
                    "better": "lower",
                    "samples": [new / old for new, old in pairs],
                }
            )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default=BEFORE)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--game", action="append")
    args = parser.parse_args()
    games = args.game or [*TILE_GAMES, *OTHER_GAMES]
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-") as folder:
        old = checkout(args.against, Path(folder))
        verdicts = []
        for game in games:
            pairs = paired(old, game, args.seeds)
            ratios = [new / old_s for new, old_s in pairs]
            ratio = statistics.median(ratios)
            new_median = statistics.median(new for new, _ in pairs)
            old_median = statistics.median(old_s for _, old_s in pairs)
            tile = game in TILE_GAMES
            verdict = ("PASS" if ratio <= TARGET else "FAIL") if tile else "info"
            verdicts.append(verdict)
            print(
                f"{game:<13} this {new_median:5.2f} s, {args.against} {old_median:5.2f} s CPU "
                f"(median of {args.seeds} seeds); paired ratio median {ratio:.2f}x "
                f"[{min(ratios):.2f}-{max(ratios):.2f}]  {verdict}"
            )
    print("tile games at most 1.0x:", "PASS" if "FAIL" not in verdicts else "FAIL")


if __name__ == "__main__":
    main()
