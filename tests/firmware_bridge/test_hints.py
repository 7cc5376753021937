"""Hints in every game: a long press of ok shows the computer's choice as an instruction."""

from __future__ import annotations

import pytest

from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import parse_all

# game: the instruction its first hint gives
FIRST_HINTS = {
    "double-take": None,  # a step, checked against the computer's choice
    "dominoes": "press roll to draw",
    "doubles-wild": "press roll",
    "doublecross": None,  # a tile, checked against the computer's choice
}


@pytest.mark.parametrize("name", sorted(FIRST_HINTS))
def test_a_long_ok_shows_the_computers_choice_and_changes_nothing(name: str) -> None:
    sim = Simulation(SimOptions(name, seed=2))
    try:
        sim.start()
        before = sim.session.game.state_dict()
        advice = sim.session.computer.advise(sim.session.game)  # type: ignore[union-attr]
        instruction = sim.session.view.instruct(advice)
        if FIRST_HINTS[name] is not None:
            assert instruction == FIRST_HINTS[name]
        sim.run_script(parse_all("hold ok\n"))
        text = " ".join(sim.session.state().oled)
        assert f"Hint: {instruction}" in text
        assert sim.session.game.state_dict() == before and sim.session.game.history == []
        sim.run_script(parse_all("press left\n"))
        assert "Hint:" not in " ".join(sim.session.state().oled)
    finally:
        sim.close()


def test_crosslet_keeps_its_own_hint_with_the_points() -> None:
    sim = Simulation(SimOptions("crosslet", seed=2))
    try:
        sim.start()
        sim.run_script(parse_all("hold ok\n"))
        lines = sim.session.state().oled
        assert any(line.startswith("Hint: ") for line in lines)
        assert sim.session.game.history == [] or all(
            a.type == "set-rack" for a in sim.session.game.history
        )
    finally:
        sim.close()


def test_the_double_take_hint_is_a_step_in_its_own_words() -> None:
    sim = Simulation(SimOptions("double-take", seed=2))
    try:
        sim.start()
        sim.run_script(parse_all("hold ok\n"))
        text = " ".join(sim.session.state().oled)
        assert "Hint: " in text and " to " in text.split("Hint: ", 1)[1]
    finally:
        sim.close()


def test_the_hint_screen_shows_the_games_words_on_why(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.double_take import player

    seen: list[object] = []

    def why(game: object, action: object) -> str:
        seen.append(action)
        return "takes 2"

    monkeypatch.setattr(player, "why", why)
    sim = Simulation(SimOptions("double-take", seed=2))
    try:
        sim.start()
        assert "Takes 2" not in sim.session.state().oled
        sim.run_script(parse_all("hold ok\n"))
        lines = sim.session.state().oled
        hint = next(n for n, line in enumerate(lines) if line.startswith("Hint: "))
        assert lines[hint + 1] == "Takes 2"
        assert seen and seen[-1] == sim.session.facts.prompt.hint_action
        sim.run_script(parse_all("press left\n"))
        assert "Takes 2" not in sim.session.state().oled
    finally:
        sim.close()
