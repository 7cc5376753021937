"""Doubles Wild played in simulation: scripted turns, battles, and ``tabletop sim``'s
transcript and JSON stream."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.runtime.session_state import TableState
from tests.firmware_bridge.sim_runs import Play, SimRun, reason

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def run_script(play: Play, name: str) -> SimRun:
    return play("doubles-wild", script=SCENARIOS / name)


def owners(state: TableState) -> dict[str, str]:
    return {cell: piece["label"] for cell, piece in state.layout.items()}


def test_roll_names_the_spot_and_a_ball_there_is_played(play: Play) -> None:
    run = run_script(play, "dw_roll_and_place.txt")
    states = run.states
    rolled = next(s for s in states if s.extra["dice"] is not None and not s.extra["rolling"])
    tumbling = next(s for s in states if s.extra["rolling"])
    assert not any("Spot" in line for line in tumbling.oled), "no spot while rolling"
    assert rolled.extra["dice"] == {"red": [3, 4], "blue": [2, 3]}
    assert rolled.extra["target"] == ["r7c5"]
    assert any("Spot r7c5" in line for line in rolled.oled)
    assert run.moves == [
        ("blue", "rolls 3+4, 2+3: r7c5"),
        ("blue", "places on r7c5"),
        ("red", "rolls 1+2, 5+6: r3c11"),
        ("red", "places on r3c11"),
    ]
    assert owners(run.last) == {"r7c5": "blue", "r3c11": "red"}
    assert run.last.extra["balls_left"] == {"blue": 23, "red": 23}
    assert run.last.turn == "blue"


def test_ball_on_a_spot_the_roll_does_not_name_is_refused_with_its_fix(play: Play) -> None:
    run = run_script(play, "dw_wrong_spot.txt")
    refused = run.refused()
    assert refused, "the ball on r4c5 must be refused"
    first = refused[0]
    assert first.verdict is not None
    assert "r4c5" in first.verdict["reason"] and "r7c5" in first.verdict["reason"]
    assert first.fixes == [{"action": "lift", "cell": "r4c5", "text": "Lift the piece on r4c5"}]
    assert any("No:" in line for line in first.oled)
    assert first.turn == "blue" and "r4c5" not in first.layout
    assert [m for _, m in run.moves] == [
        "rolls 3+4, 2+3: r7c5",
        "places on r7c5",
        "rolls 1+2, 5+6: r3c11",
        "places on r3c11",
    ]
    assert run.last.fixes == []


def test_each_pair_and_both_can_be_rerolled_once_a_turn(play: Play) -> None:
    run = run_script(play, "dw_rerolls.txt")
    assert run.moves == [
        ("blue", "rolls 3+4, 2+3: r7c5"),
        ("blue", "re-rolls red: r11c5"),
        ("blue", "places on r11c5"),
        ("red", "rolls 1+2, 5+6: r3c11"),
        ("red", "re-rolls blue: r3c5"),
        ("red", "places on r3c5"),
        ("blue", "rolls 1+2, 1+2: r3c3"),
        ("blue", "re-rolls both: r9c4"),
        ("blue", "places on r9c4"),
    ]
    refused = run.refused()
    # One refusal, reported again while the re-rolled dice settle on the OLED.
    assert len({(s.moves_played, reason(s)) for s in refused}) == 1
    assert "re-rolled already" in reason(refused[0])
    assert refused[0].extra["dice"] == {"red": [5, 6], "blue": [2, 3]}
    assert owners(run.last) == {"r11c5": "blue", "r3c5": "red", "r9c4": "blue"}


def test_doubles_make_a_line_or_the_board_wild(play: Play) -> None:
    states = run_script(play, "dw_wild_line.txt").states
    targets = {
        tuple(s.extra["target"])
        for s in states
        if s.extra["phase"] in ("reroll-or-act", "place") and len(s.extra["target"]) > 1
    }
    assert tuple(f"r{r}c7" for r in range(3, 12)) in targets
    assert tuple(f"r7c{c}" for c in range(3, 12)) in targets
    # Double doubles: every spot but blue's own ball (red's on r7c3 may be attacked).
    everywhere = [t for t in targets if len(t) == 80]
    assert everywhere and "r9c7" not in everywhere[0] and "r7c3" in everywhere[0]
    assert any("Col 7 wild" in line for s in states for line in s.oled)
    assert any("Row 7 wild" in line for s in states for line in s.oled)
    assert any("All wild" in line for s in states for line in s.oled)
    assert owners(states[-1]) == {"r9c7": "blue", "r7c3": "red", "r11c11": "blue"}


def test_battle_won_by_the_attacker_swaps_the_balls(play: Play) -> None:
    run = run_script(play, "dw_battle_attacker_wins.txt")
    states = run.states
    texts = [m for _, m in run.moves]
    assert texts[3] == "attacks r7c5"
    assert texts[11] == "rolls 3 3 3 in the battle for r7c5: red wins it, 18 to 9"
    battle = [s for s in states if s.extra["phase"] == "battle"]
    assert battle and all(s.extra["battle"]["cell"] == "r7c5" for s in battle)
    kept = [s.extra["battle"]["kept"][0] for s in battle]
    assert [True, True, False] in kept, "red kept dice 1 and 2 before its second roll"
    rolled = next(s for s in states if s.moves_played == 12)
    assert rolled.extra["rolling"] and not any("wins" in line for line in rolled.oled)
    done = next(s for s in states if s.moves_played == 12 and not s.extra["rolling"])
    assert done.extra["battle"]["winner"] == 1 and done.extra["battle"]["totals"] == [18, 9]
    assert any("Red wins 18 to 9" in line for line in done.oled)
    # The layout already shows red's ball; the board is told to swap them.
    assert done.layout["r7c5"]["label"] == "red"
    assert [(f["action"], f["cell"]) for f in done.fixes] == [
        ("lift", "r7c5"),
        ("place", "r7c5"),
    ]
    lifted = next(s for s in states if s.moves_played == 12 and len(s.fixes) == 1)
    assert lifted.fixes[0]["text"] == "Put red on r7c5"
    last = run.last
    assert last.fixes == []
    assert owners(last) == {"r7c5": "red", "r3c11": "blue"}
    assert last.extra["balls_left"] == {"blue": 22, "red": 23}


def test_battle_tied_goes_to_the_defender_and_spends_the_attackers_ball(play: Play) -> None:
    run = run_script(play, "dw_battle_defender_wins.txt")
    texts = [m for _, m in run.moves]
    assert texts[9] == "rolls 4 4 4 in the battle for r7c5: blue holds it on a tie, 12 to 12"
    done = next(s for s in run.states if s.moves_played == 10)
    assert done.fixes == []
    # Blue rolls on while the last battle dice still tumble: they never name a winner.
    assert done.extra["rolling"] and not any("holds" in line for line in done.oled)
    assert owners(run.last) == {"r7c5": "blue", "r3c11": "blue"}
    assert run.last.extra["balls_left"] == {"blue": 22, "red": 23}


def test_rolling_before_the_board_is_put_right_is_refused(play: Play) -> None:
    text = (SCENARIOS / "dw_battle_attacker_wins.txt").read_text()
    # Blue presses roll while the swap on r7c5 is still to be done.
    text = text.replace("lift r7c5\nplace r7c5 red\n", "press roll\nlift r7c5\nplace r7c5 red\n")
    run = play("doubles-wild", script=text)
    refused = run.refused()
    assert refused and "fix the board" in reason(refused[0])
    assert run.moves[-1] == ("blue", "places on r3c11")


def recount(layout: dict[str, dict[str, Any]]) -> tuple[dict[str, int], dict[str, int]]:
    """Lines and points per colour, counted from a layout with nothing of the engine."""
    where: dict[tuple[int, int], str] = {}
    for cell, piece in layout.items():
        r, c = cell[1:].split("c")
        where[(int(r), int(c))] = piece["label"]
    lines: dict[str, int] = {}
    points: dict[str, int] = {}
    for (row, col), colour in where.items():
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            if where.get((row - dr, col - dc)) == colour:
                continue  # counted from the run's first ball
            length = 1
            while where.get((row + dr * length, col + dc * length)) == colour:
                length += 1
            if length >= 3:
                lines[colour] = lines.get(colour, 0) + 1
                points[colour] = points.get(colour, 0) + length - 2
    return lines, points


def check_full_game(play: Play, players: int, seed: int, *options: str) -> SimRun:
    run = play("doubles-wild", players=players, seed=seed, options=options)
    last = run.last
    assert run.outcome is not None
    assert last.outcome == run.outcome.to_dict()
    lines, points = recount(last.layout)
    colours = list(run.scores)
    assert len(colours) == players
    assert last.extra["lines"] == {c: lines.get(c, 0) for c in colours}
    playoff = any("Play-off" in " ".join(s.oled) for s in run.states)
    if not playoff:
        assert run.scores == {c: points.get(c, 0) for c in colours}
    return run


def test_computer_game_of_two_ends_with_the_lines_on_the_board(play: Play) -> None:
    run = check_full_game(play, 2, 3)
    assert len(run.game.history) > 60
    assert run.outcome is not None and not run.outcome.draw and run.outcome.winners


@pytest.mark.slow
def test_computer_games_of_three_and_four_end_with_the_lines_on_the_board(play: Play) -> None:
    check_full_game(play, 3, 4, "balls=8")
    check_full_game(play, 4, 5, "balls=6")


def test_computer_transcript_names_the_winner() -> None:
    """The command line's transcript is what is tested: run through ``cli.main``."""
    out = io.StringIO()
    args = ["sim", "--game", "doubles-wild", "--seed", "7", "--option", "balls=5"]
    assert main(args, out=out) == 0
    text = out.getvalue().splitlines()
    assert text[0] == "Doubles Wild, seed 7: blue vs red (computer)"
    assert "wins" in text[-1] or "share" in text[-1]
    assert any("rolls" in line for line in text)


def test_the_lit_spots_come_in_board_order_whatever_the_hash_seed() -> None:
    """The ``--json`` stream of a seeded game is the same text run after run: the spots a
    roll lights are listed in board order, not in the order a set happens to hold them.
    (The JSON text itself is what is tested: a subprocess per hash seed.)"""
    script = str(SCENARIOS / "dw_wild_line.txt")
    code = "import sys; from firmware_bridge.apps.cli import main; sys.exit(main(sys.argv[1:]))"
    args = ["sim", "--game", "doubles-wild", "--json", "--script", script]
    outs = []
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", code, *args],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
        )
        outs.append(done.stdout)
    spots = [list(json.loads(line).get("leds", {})) for line in outs[0].splitlines()]
    assert any(len(s) > 2 for s in spots), "the wild line lights several spots"
    assert outs[0] == outs[1]
