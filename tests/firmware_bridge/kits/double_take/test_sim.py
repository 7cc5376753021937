"""Double Take played in simulation: scripts, the result, and ``tabletop sim``'s errors,
transcript and JSON stream."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from tests.firmware_bridge.sim_runs import Play, RunSim, SimRun, reason

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def run_script(play: Play, name: str) -> SimRun:
    return play("double-take", script=SCENARIOS / name)


def moves(run: SimRun) -> list[str]:
    """The accepted moves, in order."""
    return [p.text for p in run.played]


def test_illegal_move_shows_reason_and_fix_then_play_continues(play: Play) -> None:
    run = run_script(play, "dt_illegal_then_fixed.txt")
    rejected = run.refused()
    assert rejected, "the move a3-a4 must be rejected"
    first = rejected[0]
    assert "a4" in reason(first)
    assert [f["action"] for f in first.fixes] == ["lift", "place"]
    assert first.fixes[0]["cell"] == "a4" and first.fixes[1]["cell"] == "a3"
    assert any("No:" in line for line in first.oled)
    assert "Lift a4 (1/2)" in first.oled, "the fix stays on screen"
    assert moves(run) == ["a3-b4"]
    assert run.last.turn == "green"
    assert run.last.fixes == []


def test_capture_completes_only_when_taken_piece_is_lifted(play: Play) -> None:
    run = run_script(play, "dt_capture_lifted.txt")
    body = run.states
    # After c5 is placed, red is still to move and the OLED asks for b5.
    waiting = [s for s in body if "Lift b5 to capture" in " ".join(s.oled)]
    assert waiting and all(s.turn == "red" for s in waiting)
    assert "b5" in waiting[0].layout
    assert moves(run) == ["a3-a5", "b7-b5", "c3-c5 xb5"]
    assert body[-1].turn == "green"
    assert body[-1].extra["pieces_left"] == {"red": 12, "green": 11}
    assert "b5" not in body[-1].layout


def test_forward_capture_may_be_declined_with_ok(play: Play) -> None:
    run = run_script(play, "dt_capture_declined.txt")
    assert moves(run) == ["a3-a5", "b7-b5", "c3-c5"]
    assert run.last.extra["pieces_left"] == {"red": 12, "green": 12}
    assert run.last.layout["b5"]["label"] == "green"


def test_capture_only_move_leaving_the_piece_standing_is_rejected(play: Play) -> None:
    run = run_script(play, "dt_capture_only_left_standing.txt")
    body = run.states
    rejected = run.refused()
    assert rejected
    assert "only as a capture" in reason(rejected[0])
    # Before ok, the sandwiched piece was a fix to carry out, not yet a rejection.
    waiting = [s for s in body if s.fixes and s.verdict is not None and s.verdict["accepted"]]
    assert waiting and waiting[0].fixes == [
        {"action": "lift", "cell": "f6", "text": "Lift the captured piece on f6"}
    ]
    assert rejected[0].turn == "green"
    assert rejected[0].fixes, "the rejection comes with fixes"
    # Lifting f6 afterwards completes the capture.
    assert moves(run) == ["e3-f4", "d7-d5", "f4-f6", "d5-f5 xf6"]
    assert body[-1].extra["pieces_left"] == {"red": 11, "green": 12}


def test_slide_and_flicker_never_become_moves(play: Play) -> None:
    run = run_script(play, "dt_slide_and_flicker.txt")
    body = run.states
    assert all(s.verdict is None or s.verdict["accepted"] for s in body)
    assert all("d5" not in s.layout and "a4" not in s.layout for s in body)
    assert moves(run) == ["a3-b4"]


# The script's errors are the command line's: its exit code, stderr and JSON stream.
def test_script_typo_names_the_line(
    run_sim: RunSim, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("lift a3\nplase b4 red\n")
    states = run_sim("double-take", "--script", str(bad), code=2)
    assert states == []
    err = capsys.readouterr().err
    assert "line 2" in err and "did you mean 'place'" in err


def test_script_with_unknown_cell_names_the_line(
    run_sim: RunSim, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("lift a3\nplace z9 red\n")
    states = run_sim("double-take", "--script", str(bad), code=2)
    err = capsys.readouterr().err
    assert "line 2" in err and "z9" in err
    # Checked before anything ran: a3 was never lifted.
    assert states and all(s["oled"] == states[0]["oled"] for s in states)
    assert "Move a piece." in states[0]["oled"]


def test_a_script_from_a_pipe_stops_at_the_line_with_the_unknown_cell(
    run_sim: RunSim, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("lift a3\nlift z9\n"))
    states = run_sim("double-take", "--script", "-", code=2)
    assert "standard input, line 2" in capsys.readouterr().err
    assert any("Put the piece down." in " ".join(s["oled"]) for s in states), "line 1 ran"


def test_computer_plays_a_full_game_to_a_result() -> None:
    """The command line's transcript is what is tested."""
    out = io.StringIO()
    assert main(["sim", "--game", "double-take", "--seed", "3"], out=out) == 0
    text = out.getvalue().splitlines()
    assert text[0].startswith("Double Take, seed 3")
    assert "wins" in text[-1] or "Draw" in text[-1]
    assert len(text) > 10


def test_json_final_line_matches_the_game(run_sim: RunSim) -> None:
    """The ``--json`` stream's final line is what is tested."""
    states = run_sim("double-take", "--seed", "5")
    final = states[-1]
    assert final["final"] is True and final["outcome"] is not None
    assert final["scores"] == states[-2]["scores"]
    if not final["outcome"]["draw"]:
        assert final["winner"] in ("red", "green")
