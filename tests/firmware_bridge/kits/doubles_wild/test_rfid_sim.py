"""Doubles Wild through ``tabletop sim`` on the simulated serial RFID board."""

from __future__ import annotations

from typing import Any

import pytest

from tests.firmware_bridge.kits.doubles_wild.test_sim import SCENARIOS, moves, owners, recount
from tests.firmware_bridge.sim_runs import RunSim

RFID = ("--profile", "doubles-wild-rfid-pico")
GPIO = ("--profile", "doubles-wild-gpio")

SHARED = sorted(p.name for p in SCENARIOS.glob("dw_*.txt") if not p.name.startswith("dw_rfid_"))
"""The occupancy board's scenarios: every ball in them is laid in its player's colour."""


def run_script(run_sim: RunSim, name: str, *profile: str) -> list[dict[str, Any]]:
    states = run_sim("doubles-wild", "--seed", "11", *profile, "--script", str(SCENARIOS / name))
    assert states[-1]["final"] is True
    return states


def refusals(states: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [s for s in states[:-1] if s["verdict"] and not s["verdict"]["accepted"]]


def check_computer_game(run_sim: RunSim, players: int, seed: int, *options: str) -> dict[str, Any]:
    states = run_sim(
        "doubles-wild", *RFID, "--players", str(players), "--seed", str(seed), *options
    )
    final, last = states[-1], states[-2]
    assert final["final"] is True and final["outcome"] is not None
    lines, points = recount(last["layout"])
    colours = list(final["scores"])
    assert len(colours) == players
    assert last["lines"] == {c: lines.get(c, 0) for c in colours}
    if not any("Play-off" in " ".join(s["oled"]) for s in states[:-1]):
        assert final["scores"] == {c: points.get(c, 0) for c in colours}
    # The hand lays every ball in its own colour and never an unknown tag.
    reasons = {s["verdict"]["reason"] for s in refusals(states)}
    assert not [r for r in reasons if "ball;" in r or "tag" in r or "not a ball" in r]
    return final


# -- computer games ---------------------------------------------------------------------
def test_computer_game_of_two_over_rfid_ends_with_the_lines_on_the_board(run_sim: RunSim) -> None:
    final = check_computer_game(run_sim, 2, 3)
    assert final["moves"] > 60


@pytest.mark.slow
def test_computer_games_of_three_and_four_over_rfid_end_with_the_lines_on_the_board(
    run_sim: RunSim,
) -> None:
    check_computer_game(run_sim, 3, 4, "--option", "balls=8")
    check_computer_game(run_sim, 4, 5, "--option", "balls=6")


def test_computer_game_ends_alike_over_gpio_and_rfid(run_sim: RunSim) -> None:
    args = ("--seed", "7", "--option", "balls=6")
    gpio = run_sim("doubles-wild", *GPIO, *args, code=None)
    rfid = run_sim("doubles-wild", *RFID, *args, code=None)
    assert gpio[-1] == rfid[-1]
    assert gpio[-2]["layout"] == rfid[-2]["layout"]


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
def test_scenario_ends_alike_over_gpio_and_rfid(run_sim: RunSim, name: str) -> None:
    gpio, rfid = run_script(run_sim, name, *GPIO), run_script(run_sim, name, *RFID)
    assert moves(rfid[:-1]) == moves(gpio[:-1])
    assert rfid[-1] == gpio[-1]
    for key in ("layout", "fixes", "lines", "balls_left", "turn", "phase", "dice"):
        assert rfid[-2][key] == gpio[-2][key], key


def test_ball_of_the_wrong_colour_is_refused_over_rfid_until_lifted(run_sim: RunSim) -> None:
    states = run_script(run_sim, "dw_rfid_wrong_colour.txt", *RFID)
    refused = refusals(states)
    assert refused and refused[0]["verdict"]["reason"] == "that is a red ball; blue is to play"
    assert refused[0]["fixes"] == [
        {"action": "lift", "cell": "r7c5", "text": "Lift the red piece on r7c5"}
    ]
    assert "No: a red ball; blue plays" in " ".join(refused[0]["oled"])
    assert moves(states[:-1]) == [
        ("blue", "rolls 3+4, 2+3: r7c5"),
        ("blue", "places on r7c5"),
        ("red", "rolls 1+2, 5+6: r3c11"),
        ("red", "places on r3c11"),
    ]
    assert owners(states[-2]) == {"r7c5": "blue", "r3c11": "red"}


def test_wrong_colour_passes_unseen_on_the_occupancy_board(run_sim: RunSim) -> None:
    states = run_script(run_sim, "dw_rfid_wrong_colour.txt", *GPIO)
    assert moves(states[:-1])[1] == ("blue", "places on r7c5")
    assert "put it back" in refusals(states)[0]["verdict"]["reason"], "the lift is the error"


def test_swap_after_a_won_battle_is_seen_over_rfid_without_the_spot_emptying(
    run_sim: RunSim,
) -> None:
    states = run_script(run_sim, "dw_rfid_swap_seen.txt", *RFID)
    won = [s for s in states[:-1] if s["moves_played"] == 12]
    assert won[0]["fixes"][0]["text"] == "Lift the blue piece on r7c5"
    assert all(len(s["fixes"]) != 1 for s in won), "never seen with only the put left"
    assert won[-1]["fixes"] == []
    assert owners(won[-1]) == {"r7c5": "red"}


def test_the_same_quick_swap_is_missed_by_the_occupancy_board(run_sim: RunSim) -> None:
    states = run_script(run_sim, "dw_rfid_swap_seen.txt", *GPIO)
    texts = [f["text"] for f in states[-2]["fixes"]]
    assert texts == ["Lift the blue piece on r7c5", "Put red on r7c5"]
