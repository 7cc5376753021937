"""Doubles Wild played in simulation on the simulated serial RFID board."""

from __future__ import annotations

import pytest

from firmware_bridge.runtime.session_state import TableState
from tests.firmware_bridge.kits.doubles_wild.test_sim import SCENARIOS, owners, recount
from tests.firmware_bridge.sim_runs import Play, SimRun, reason

RFID = "doubles-wild-rfid-pico"
GPIO = "doubles-wild-gpio"

SHARED = sorted(p.name for p in SCENARIOS.glob("dw_*.txt") if not p.name.startswith("dw_rfid_"))
"""The occupancy board's scenarios: every ball in them is laid in its player's colour."""


def run_script(play: Play, name: str, profile: str) -> SimRun:
    return play("doubles-wild", seed=11, profile=profile, script=SCENARIOS / name)


def refusals(run: SimRun) -> list[TableState]:
    return run.refused()


def check_computer_game(play: Play, players: int, seed: int, *options: str) -> SimRun:
    run = play("doubles-wild", profile=RFID, players=players, seed=seed, options=options)
    last = run.last
    assert run.outcome is not None
    lines, points = recount(last.layout)
    colours = list(run.scores)
    assert len(colours) == players
    assert last.extra["lines"] == {c: lines.get(c, 0) for c in colours}
    if not any("Play-off" in " ".join(s.oled) for s in run.states):
        assert run.scores == {c: points.get(c, 0) for c in colours}
    # The hand lays every ball in its own colour and never an unknown tag.
    reasons = {reason(s) for s in refusals(run)}
    assert not [r for r in reasons if "ball;" in r or "tag" in r or "not a ball" in r]
    return run


# -- computer games ---------------------------------------------------------------------
def test_computer_game_of_two_over_rfid_ends_with_the_lines_on_the_board(play: Play) -> None:
    run = check_computer_game(play, 2, 3)
    assert len(run.game.history) > 60


@pytest.mark.slow
def test_computer_games_of_three_and_four_over_rfid_end_with_the_lines_on_the_board(
    play: Play,
) -> None:
    check_computer_game(play, 3, 4, "balls=8")
    check_computer_game(play, 4, 5, "balls=6")


def test_computer_game_ends_alike_over_gpio_and_rfid(play: Play) -> None:
    gpio = play("doubles-wild", profile=GPIO, seed=7, options=["balls=6"])
    rfid = play("doubles-wild", profile=RFID, seed=7, options=["balls=6"])
    assert gpio.summary == rfid.summary
    assert gpio.last.layout == rfid.last.layout


# -- scripts --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            name, marks=[] if name == "dw_battle_attacker_wins.txt" else [pytest.mark.slow]
        )
        for name in SHARED
    ],
)
def test_scenario_ends_alike_over_gpio_and_rfid(play: Play, name: str) -> None:
    gpio, rfid = run_script(play, name, GPIO), run_script(play, name, RFID)
    assert rfid.moves == gpio.moves
    assert rfid.summary == gpio.summary
    last, other = rfid.last, gpio.last
    assert last.layout == other.layout, "layout"
    assert last.fixes == other.fixes, "fixes"
    assert last.turn == other.turn, "turn"
    for key in ("lines", "balls_left", "phase", "dice"):
        assert last.extra[key] == other.extra[key], key


def test_ball_of_the_wrong_colour_is_refused_over_rfid_until_lifted(play: Play) -> None:
    run = run_script(play, "dw_rfid_wrong_colour.txt", RFID)
    refused = refusals(run)
    assert refused and reason(refused[0]) == "that is a red ball; blue is to play"
    assert refused[0].fixes == [
        {"action": "lift", "cell": "r7c5", "text": "Lift the red piece on r7c5"}
    ]
    assert "No: a red ball; blue plays" in " ".join(refused[0].oled)
    assert run.moves == [
        ("blue", "rolls 3+4, 2+3: r7c5"),
        ("blue", "places on r7c5"),
        ("red", "rolls 1+2, 5+6: r3c11"),
        ("red", "places on r3c11"),
    ]
    assert owners(run.last) == {"r7c5": "blue", "r3c11": "red"}


def test_wrong_colour_passes_unseen_on_the_occupancy_board(play: Play) -> None:
    run = run_script(play, "dw_rfid_wrong_colour.txt", GPIO)
    assert run.moves[1] == ("blue", "places on r7c5")
    assert "put it back" in reason(refusals(run)[0]), "the lift is the error"


def test_swap_after_a_won_battle_is_seen_over_rfid_without_the_spot_emptying(
    play: Play,
) -> None:
    run = run_script(play, "dw_rfid_swap_seen.txt", RFID)
    won = [s for s in run.states if s.moves_played == 12]
    assert won[0].fixes[0]["text"] == "Lift the blue piece on r7c5"
    assert all(len(s.fixes) != 1 for s in won), "never seen with only the put left"
    assert won[-1].fixes == []
    assert owners(won[-1]) == {"r7c5": "red"}


def test_the_same_quick_swap_is_missed_by_the_occupancy_board(play: Play) -> None:
    run = run_script(play, "dw_rfid_swap_seen.txt", GPIO)
    texts = [f["text"] for f in run.last.fixes]
    assert texts == ["Lift the blue piece on r7c5", "Put red on r7c5"]
