"""The firmware's own heap in MicroPython, in whole games of every game on every Pico
profile it plays on, against 60 % of the Pico's heap.

Runs ``tabletop sim --game GAME --profile PROFILE --firmware micropython`` (the
firmware in the MicroPython unix port, the stand-in board's heap counted apart:
firmware_bridge/sim/pico/pico_standin/simpico.py) in a fresh process per game and
profile, and prints its peak heap, the share of the Pico's 192 KiB, and the least
largest free block seen (the fragmentation). A game the profile does not suit is
left out (its refusal is printed when the game or profile was asked for); a game
that stops (a MemoryError, say) fails the run.

    python bench/bench_firmware_heap.py [--seed 1] [--game NAME] [--profile NAME]

``run(quick)`` (for ``python -m bench``): every pair, or Double Take on its Pico
profile when quick.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROFILES = sorted(p.stem for p in (ROOT / "wiring" / "profiles").glob("*-pico.toml"))
LIMIT = 60.0
REFUSED = "refused"
FAILED = "FAILED"
_FIGURES = re.compile(
    r"peak heap (\d+) bytes \((\d+) %\), largest free block at least (-?\d+) bytes, (\d+) loop"
)


def games() -> list[str]:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from firmware_bridge.kits import KITS
    from games.registry import GAMES

    return [g.name for g in GAMES if g.name in KITS]


def play(game: str, profile: str, seed: int) -> tuple[int, int, int] | str:
    """(peak heap bytes, % of the Pico's, least largest free block), or why not."""
    cmd = [sys.executable, "-m", "firmware_bridge.apps.cli", "sim", "--game", game]
    cmd += ["--profile", profile, "--firmware", "micropython", "--seed", str(seed)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=ROOT)
    found = _FIGURES.search(done.stderr)
    if done.returncode != 0 or found is None:
        lines = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()
        # Exit status 2: the command refused the pair (the profile does not suit it).
        kind = REFUSED if done.returncode == 2 else FAILED
        return f"{kind}: {lines[-1]}"
    return int(found[1]), int(found[2]), int(found[3])


def run(quick: bool) -> list[dict[str, Any]]:
    pairs = (
        [("double-take", "double-take-pico")]
        if quick
        else [(g, p) for g in games() for p in PROFILES]
    )
    figures = []
    for game, profile in pairs:
        result = play(game, profile, 1)
        if isinstance(result, str) and result.startswith(REFUSED):
            continue
        share = 100.0 if isinstance(result, str) else 100 * result[0] / (192 * 1024)
        figures.append(
            {
                "figure": f"firmware's peak heap, {game} on {profile}",
                "unit": "% of 192 KiB",
                "target": LIMIT,
                "better": "lower",
                "samples": [share],
            }
        )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append")
    parser.add_argument("--profile", action="append")
    args = parser.parse_args()
    print(f"{'game':<13} {'profile':<26} {'peak heap':>10} {'share':>6} {'largest free':>13}")
    worst = 0.0
    for game in args.game or games():
        for profile in args.profile or PROFILES:
            result = play(game, profile, args.seed)
            if isinstance(result, str):
                if result.startswith(FAILED):
                    worst = 100.0
                elif not args.game and not args.profile:
                    continue  # a pair the profile refuses: told only when asked for
                print(f"{game:<13} {profile:<26} {result}")
                continue
            peak, _share, largest = result
            share = 100 * peak / (192 * 1024)
            worst = max(worst, share)
            print(f"{game:<13} {profile:<26} {peak:>10,} {share:>5.1f}% {largest:>13,}")
    verdict = "PASS" if worst <= LIMIT else "FAIL"
    print(f"worst share {worst:.1f} % of the Pico's heap (target ≤ {LIMIT:.0f} %): {verdict}")


if __name__ == "__main__":
    main()
