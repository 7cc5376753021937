"""Two faults of the table layer found by replaying simulated games, each reproduced."""

from __future__ import annotations

from typing import Any

from firmware_bridge.sim.runner import SimOptions, Simulation


def _states(game: str, players: int, seed: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    states: list[dict[str, Any]] = []
    sim = Simulation(SimOptions(game, players=players, seed=seed))
    sim.listeners.append(states.append)
    try:
        sim.start()
        sim.play_computer()
        return states, sim.final()
    finally:
        sim.close()


def test_a_refill_that_is_the_twin_of_the_domino_laid_is_announced() -> None:
    # Seed 4, five players: at move 12 player 3 lays 1-2 and refills the other 1-2.
    states, _ = _states("dominoes", 5, 4)
    at = next(s for s in states if s["moves_played"] == 12)
    before = next(s for s in states if s["moves_played"] == 11)
    assert at["move"]["text"].startswith("1-2 on ")
    assert at["dealt"] == {"player": "player 3", "dominoes": ["1-2"]}
    assert at["boneyard"] == before["boneyard"] - 1
    assert any("P3: take 1-2." in line for line in at["oled"]), at["oled"]


def test_two_blanks_in_one_word_are_each_named_for_their_own_cell() -> None:
    # Seed 131, three players: move 20 lays VERTEX with blanks on A7 and A8.
    states, final = _states("crosslet", 3, 131)
    vertex = next(s for s in states if s["moves_played"] == 20)
    assert "VERTEX" in vertex["move"]["text"]
    assert final["outcome"] is not None, "the game plays on to its end"
