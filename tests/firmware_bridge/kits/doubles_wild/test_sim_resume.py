"""A Doubles Wild game stopped and started again from its journal: the dice are replayed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.sim.runner import SimError, SimOptions, Simulation
from firmware_bridge.sim.script import parse_all
from hardware.dice import DiceSource

SCENARIO = Path(__file__).parents[2] / "scenarios" / "dw_battle_attacker_wins.txt"


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every count of dice the station rolls, in order."""
    counts: list[int] = []
    roll = DiceSource.roll

    def counting(self: DiceSource, n: int) -> tuple[int, ...]:
        counts.append(n)
        return roll(self, n)

    monkeypatch.setattr(DiceSource, "roll", counting)
    yield counts


def simulation(journal: Path | None, seed: int = 1, **options: Any) -> Simulation:
    sim = Simulation(SimOptions("doubles-wild", seed=seed, journal=journal, options=options))
    sim.start()
    return sim


def snapshot(sim: Simulation) -> dict[str, Any]:
    game = sim.session.game
    state = sim.session.state()
    return {
        "game": game.state_dict(),
        "history": [a.to_dict() for a in game.history],
        "lines": state.extra["lines"],
        "fixes": state.fixes,
        "world": dict(sim.world.contents),
    }


def run(sim: Simulation, lines: list[str]) -> None:
    sim.run_script(parse_all("\n".join(lines), "test"))


SCRIPT = [line for line in SCENARIO.read_text().splitlines() if line and not line.startswith("#")]


@pytest.mark.parametrize(
    "cut",
    [
        SCRIPT.index("press ok"),  # red has rolled r7c5 and not yet attacked
        SCRIPT.index("dice 6") + 2,  # mid-battle, red has kept two dice and rolled
        SCRIPT.index("lift r7c5"),  # the battle is over, the balls not yet swapped
    ],
    ids=["rolled", "mid-battle", "before-swap"],
)
def test_resumed_game_replays_the_dice_and_ends_like_an_unbroken_one(
    tmp_path: Path, draws: list[int], cut: int
) -> None:
    journal = tmp_path / "game.sqlite"
    first = simulation(journal)
    run(first, SCRIPT[:cut])
    before = snapshot(first)
    rolled = len(draws)
    first.close()

    resumed = simulation(journal)
    assert len(draws) == rolled, "replaying the journal must not roll a die"
    assert snapshot(resumed) == before
    run(resumed, SCRIPT[cut:])
    after = snapshot(resumed)
    resumed.close()

    straight = simulation(tmp_path / "other.sqlite")
    run(straight, SCRIPT)
    assert snapshot(straight) == after
    straight.close()
    assert after["world"] == {"r7c5": "red", "r3c11": "blue"}


def test_interrupted_computer_game_resumes_to_its_end(tmp_path: Path, draws: list[int]) -> None:
    journal = tmp_path / "game.sqlite"
    first = simulation(journal, seed=11, balls=6)
    with pytest.raises(SimError, match="did not end"):
        first.play_computer(max_plies=15)
    played = len(first.session.game.history)
    rolled = len(draws)
    first.close()

    resumed = simulation(journal, seed=11, balls=6)
    assert len(draws) == rolled
    assert len(resumed.session.game.history) == played
    resumed.play_computer()
    game = resumed.session.game
    assert game.outcome is not None
    assert resumed.session.state().outcome == game.outcome.to_dict()
    resumed.close()
