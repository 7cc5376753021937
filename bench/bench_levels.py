"""How strong each level of each game's computer is, and how long it thinks.

For every game, each level plays the level below over seeded two-player games, the
seats swapped every other game, and the expert plays the standard player
(``games.levels``). A game is played as the computer plays it at the table: the
player of the seat to move chooses, a seat the rules let act out of turn is asked
first, and Doubles Wild's dice come from the game's own seeded source, the same for
both sides. The figures: the stronger side's share of the decisive games, with a
95 % Wilson interval, and each level's think time per move (CPU time of this
process, median and p95). Targets (docs/performance.md): each level wins at least
60 % of the decisive games against the level below, the expert at least 75 % against
the standard player, and the beginner loses at least 70 % to it.

Run: ``python bench/bench_levels.py [--quick] [--games N] [--only GAME]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.kits import find_kit
from games.core import Action, Game, Player
from games.levels import BEGINNER, EXPERT, STANDARD, level_name

GAMES = ("double-take", "dominoes", "doubles-wild", "crosslet", "doublecross")
PAIRS = ((STANDARD, BEGINNER), (EXPERT, STANDARD))
"""(stronger, weaker) pairings; the expert against the standard player doubles as the
level above it."""
TARGET = {(STANDARD, BEGINNER): 70.0, (EXPERT, STANDARD): 75.0}
"""The stronger side's share of decisive games to reach, in per cent."""
GAMES_FULL = {
    "double-take": 40,
    "dominoes": 100,
    "doubles-wild": 100,
    "crosslet": 100,
    "doublecross": 40,
}
GAMES_QUICK = {
    "double-take": 2,
    "dominoes": 4,
    "doubles-wild": 4,
    "crosslet": 4,
    "doublecross": 2,
}
MAX_ACTIONS = 5000


@dataclass
class Match:
    """The stronger level's games against the weaker one."""

    game: str
    strong: int
    weak: int
    wins: int = 0
    losses: int = 0
    draws: int = 0
    think: dict[int, list[float]] = field(default_factory=dict)
    margins: list[int] = field(default_factory=list)
    """The stronger side's score less the weaker's, game by game."""

    def margin(self) -> float:
        return statistics.fmean(self.margins) if self.margins else 0.0

    @property
    def decisive(self) -> int:
        return self.wins + self.losses

    def share(self) -> float:
        return 100.0 * self.wins / self.decisive if self.decisive else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson score interval of the win share, in per cent."""
        n = self.decisive
        if n == 0:
            return (0.0, 100.0)
        z = 1.96
        p = self.wins / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (100.0 * max(0.0, centre - half), 100.0 * min(1.0, centre + half))


def _play(name: str, seed: int, levels: tuple[int, int], think: dict[int, list[float]]) -> Game:
    """One seeded two-player game, seat ``i`` played at ``levels[i]``."""
    kit = find_kit(name)
    game = kit.new_game(2, random.Random(seed), {})
    players: list[Player] = [
        _make(kit.make_player, game, random.Random(f"{seed}:{seat}"), levels[seat])
        for seat in range(2)
    ]
    dice = random.Random(f"dice:{seed}")
    for _ in range(MAX_ACTIONS):
        if game.outcome is not None:
            return game
        action: Action | None = None
        for seat in game.out_of_turn_seats():
            action = players[seat].out_of_turn(game, seat)
            if action is not None:
                break
        if action is None:
            seat = game.to_move
            player = players[seat]
            start = time.process_time()
            action = _decide(player, game, dice)
            think.setdefault(levels[seat], []).append(time.process_time() - start)
        game.apply(action)
    raise RuntimeError(f"{name} seed {seed} did not end within {MAX_ACTIONS} actions")


def _make(make: Callable[..., Player], game: Game, rng: random.Random, level: int) -> Player:
    return make(game, rng, level)


def _decide(player: Player, game: Game, dice: random.Random) -> Action:
    """The player's choice; for a player whose dice the table rolls (Doubles Wild), its
    decision or else the dice it asks for, rolled from the shared source."""
    decide = getattr(player, "decide", None)
    if decide is None:
        return player.choose(game)
    action: Action | None = decide(game)
    if action is not None:
        return action
    from games.doubles_wild.game import dice_action

    kind, count = player.roll_needed(game)  # type: ignore[attr-defined]
    return dice_action(kind, tuple(dice.randint(1, 6) for _ in range(count)))


def match(name: str, strong: int, weak: int, games: int) -> Match:
    out = Match(name, strong, weak)
    for seed in range(games):
        levels = (strong, weak) if seed % 2 == 0 else (weak, strong)
        game = _play(name, seed, levels, out.think)
        outcome = game.outcome
        assert outcome is not None
        scores = game.scores()
        mine = 0 if levels[0] == strong else 1
        out.margins.append(scores[mine] - scores[1 - mine])
        if outcome.draw or len(outcome.winners) != 1:
            out.draws += 1
        elif levels[outcome.winners[0]] == strong:
            out.wins += 1
        else:
            out.losses += 1
    return out


def _ms(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return 1000.0 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def table(matches: list[Match]) -> str:
    lines = [
        "| game | stronger vs weaker | wins–losses (draws) | share of decisive "
        "| 95 % interval | target |",
        "|---|---|---|---|---|---|",
    ]
    for m in matches:
        lo, hi = m.interval()
        lines.append(
            f"| {m.game} | {level_name(m.strong)} vs {level_name(m.weak)} "
            f"| {m.wins}–{m.losses} ({m.draws}) | {m.share():.0f} % | {lo:.0f}–{hi:.0f} % "
            f"| ≥ {TARGET[m.strong, m.weak]:.0f} % |"
        )
    lines += ["", "| game | level | moves | think median | think p95 |", "|---|---|---|---|---|"]
    for name in dict.fromkeys(m.game for m in matches):
        think: dict[int, list[float]] = {}
        for m in matches:
            if m.game == name:
                for level, samples in m.think.items():
                    think.setdefault(level, []).extend(samples)
        for level in sorted(think):
            s = think[level]
            lines.append(
                f"| {name} | {level_name(level)} | {len(s)} "
                f"| {_ms(s, 0.5):.2f} ms | {_ms(s, 0.95):.2f} ms |"
            )
    return "\n".join(lines)


def run(
    quick: bool = False, only: tuple[str, ...] = GAMES, games: int | None = None
) -> list[dict[str, Any]]:
    counts = GAMES_QUICK if quick else GAMES_FULL
    figures: list[dict[str, Any]] = []
    matches: list[Match] = []
    for name in only:
        for strong, weak in PAIRS:
            m = match(name, strong, weak, games or counts[name])
            matches.append(m)
            figures.append(
                {
                    "figure": f"{name}: {level_name(strong)} wins vs {level_name(weak)}",
                    "unit": "%",
                    "target": TARGET[strong, weak],
                    "better": "higher",
                    "samples": [m.share()],
                }
            )
        for level in (BEGINNER, STANDARD, EXPERT):
            samples = [s for m in matches if m.game == name for s in m.think.get(level, [])]
            if samples:
                figures.append(
                    {
                        "figure": f"{name}: {level_name(level)} think p95",
                        "unit": "ms",
                        "target": None,
                        "better": "lower",
                        "samples": [_ms(samples, 0.95)],
                    }
                )
    run.last_table = table(matches)  # type: ignore[attr-defined]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=None, help="games per pairing")
    parser.add_argument("--only", action="append", choices=GAMES, help="one game (repeatable)")
    args = parser.parse_args()
    run(args.quick, tuple(args.only or GAMES), args.games)
    print(run.last_table)  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
