"""Time DoubleCross's computer player deciding a move, on positions from computer games.

A *move* is one fresh decision: a new player (no plan carried over) looks at the
position and picks its action, which means searching the words its rack can build,
trying the best of them on copies of the position and valuing them. Positions come
from seeded games between computer players (2, 3 and 4 seats) with the shipped
ENABLE list, so every run times the same boards. Times are CPU time of this process
(``time.process_time``), so other work on the machine does not inflate them.
Run: ``python bench/bench_doublecross.py [--quick]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from firmware_bridge.kits.lexicon_store import load_lexicon
from games.doublecross.game import DoubleCross
from games.doublecross.player import DoubleCrossPlayer
from games.lexicon import Lexicon

MOVE_TARGET_MS = 50.0


def positions(lexicon: Lexicon, games: int, every: int) -> tuple[list[DoubleCross], list[float]]:
    """Every ``every``-th position where a computer player had to decide, from ``games``
    seeded games (2, 3, 4 seats in turn); and the CPU seconds each whole game took."""
    out: list[DoubleCross] = []
    game_times: list[float] = []
    for seed in range(games):
        players = 2 + seed % 3
        game = DoubleCross(players, random.Random(seed), lexicon=lexicon)
        seats = [DoubleCrossPlayer(random.Random(p)) for p in range(players)]
        spent = 0.0
        while game.outcome is None and len(game.history) < 2000:
            if len(game.history) % every == 0:
                out.append(game.snapshot())
            t0 = time.process_time()
            game.apply(seats[game.to_move].choose(game))
            spent += time.process_time() - t0
        game_times.append(spent)
    return out, game_times


def time_moves(games: list[DoubleCross]) -> list[float]:
    """CPU milliseconds of one fresh decision in each position."""
    times = []
    for game in games:
        player = DoubleCrossPlayer(random.Random(0))
        t0 = time.process_time()
        player.choose(game)
        times.append((time.process_time() - t0) * 1000)
    return times


def run(quick: bool) -> list[dict[str, Any]]:
    lexicon = load_lexicon()
    boards, game_times = positions(lexicon, 1 if quick else 9, 3 if quick else 1)
    return [
        {
            "figure": "DoubleCross computer move (CPU)",
            "unit": "ms",
            "target": MOVE_TARGET_MS,
            "better": "lower",
            "samples": time_moves(boards),
        },
        {
            "figure": "DoubleCross game between computer players (CPU)",
            "unit": "s",
            "target": None,
            "better": "lower",
            "samples": game_times,
        },
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games, fewer positions")
    args = parser.parse_args()
    figures = run(args.quick)
    moves = sorted(figures[0]["samples"])
    p90 = moves[min(len(moves) - 1, round(0.9 * (len(moves) - 1)))]
    print(
        f"computer move (CPU) over {len(moves)} positions: median "
        f"{statistics.median(moves):.1f} ms (target <= {MOVE_TARGET_MS:.0f} ms), "
        f"p90 {p90:.1f} ms, max {moves[-1]:.1f} ms"
    )
    games = figures[1]["samples"]
    print(
        f"whole games between computer players (CPU): {len(games)} games, median "
        f"{statistics.median(games):.2f} s, max {max(games):.2f} s"
    )


if __name__ == "__main__":
    main()
