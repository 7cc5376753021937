"""Time Crosslet's move generator on mid-game positions and print the figures.

Positions come from computer games played with the ENABLE list, seeded, so every
run times the same boards. Times are CPU time of this process (``time.process_time``),
so other work on the machine does not inflate them; wall-clock figures follow.
Run: ``python bench/bench_movegen.py [--positions N]``.
"""

from __future__ import annotations

import argparse
import gzip
import random
import statistics
import time
from collections.abc import Iterable
from pathlib import Path

from games.crosslet import Crosslet
from games.movegen import CrossletPlayer, MoveGenerator

WORD_LISTS = (
    Path(__file__).resolve().parent.parent / "games" / "data" / "enable1.txt.gz",
    Path("/work/shared/data/enable1.txt.gz"),
)


class WordSet:
    """A plain set of words standing in for the lexicon."""

    def __init__(self, words: list[str]) -> None:
        self._words = words
        self._set = frozenset(words)

    def is_word(self, s: str) -> bool:
        return s in self._set

    def words(self) -> Iterable[str]:
        return self._words


def load_words() -> list[str]:
    for path in WORD_LISTS:
        if path.exists():
            with gzip.open(path, "rt", encoding="ascii") as f:
                return f.read().split()
    raise SystemExit("no enable1.txt.gz found; looked in " + ", ".join(map(str, WORD_LISTS)))


def mid_game_positions(gen: MoveGenerator, words: WordSet, count: int) -> list[Crosslet]:
    """Snapshots (as replayed games) taken between the 4th and the 20th turn."""
    positions: list[Crosslet] = []
    seed = 0
    while len(positions) < count:
        rng = random.Random(seed)
        game = Crosslet(2, random.Random(seed), lexicon=words)
        player = CrossletPlayer(gen, random.Random(seed))
        pick = set(rng.sample(range(4, 20), 4))
        turn = 0
        while game.outcome is None and turn < 20:
            if turn in pick:
                positions.append(_replay(game, words, seed))
            game.play(player.choose(game))
            turn += 1
        seed += 1
    return positions[:count]


def _replay(game: Crosslet, words: WordSet, seed: int) -> Crosslet:
    copy = Crosslet(2, random.Random(seed), lexicon=words)
    for action in game.history:
        copy.play(action)
    return copy


def percentile(sorted_values: list[float], q: float) -> float:
    k = min(len(sorted_values) - 1, round(q * (len(sorted_values) - 1)))
    return sorted_values[k]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=240)
    args = parser.parse_args()
    words = load_words()
    t0 = time.perf_counter()
    gen = MoveGenerator(words)
    build = time.perf_counter() - t0
    blob = gen.to_bytes()
    t0 = time.perf_counter()
    MoveGenerator.from_bytes(blob)
    load = time.perf_counter() - t0
    word_set = WordSet(words)
    positions = mid_game_positions(gen, word_set, args.positions)
    times: list[float] = []
    walls: list[float] = []
    counts: list[int] = []
    blank_times: list[float] = []
    for game in positions:
        seat = game.to_move
        w0 = time.perf_counter()
        t0 = time.process_time()
        gen.best(game, seat)
        dt = (time.process_time() - t0) * 1000
        walls.append((time.perf_counter() - w0) * 1000)
        times.append(dt)
        if "?" in game.rack(seat):
            blank_times.append(dt)
        counts.append(sum(1 for _ in gen.moves(game.board_letters(), game.rack(seat))))
    times.sort()
    print(
        f"word graph: {len(gen.dawg)} nodes, built in {build:.2f} s, "
        f"{len(blob) / 1e6:.2f} MB saved, loaded in {load:.2f} s"
    )
    print(
        f"positions: {len(times)} (racks with a blank: {len(blank_times)}), "
        f"moves per position: median {statistics.median(counts):.0f}, max {max(counts)}"
    )
    print(
        f"best move (CPU): median {statistics.median(times):.1f} ms, "
        f"p90 {percentile(times, 0.90):.1f} ms, p99 {percentile(times, 0.99):.1f} ms, "
        f"max {times[-1]:.1f} ms (targets: median <= 10 ms, p99 <= 150 ms)"
    )
    walls.sort()
    print(
        f"wall clock: median {statistics.median(walls):.1f} ms, "
        f"p99 {percentile(walls, 0.99):.1f} ms, max {walls[-1]:.1f} ms"
    )
    if blank_times:
        print(
            f"with a blank: median {statistics.median(blank_times):.1f} ms, "
            f"max {max(blank_times):.1f} ms"
        )


if __name__ == "__main__":
    main()
