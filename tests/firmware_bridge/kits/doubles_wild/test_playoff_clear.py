"""Clearing the board for a tie's play-off is asked for, never refused as a move."""

from __future__ import annotations

from tests.firmware_bridge.sim_runs import Play


def test_lifting_the_main_games_balls_for_the_playoff_is_not_refused(play: Play) -> None:
    run = play("doubles-wild", players=3, seed=2)
    assert run.outcome is not None
    assert "play-off" in run.outcome.reason, "this seed ties and plays off"
    clearing = [s for s in run.states if "Tie: clear for play-off" in " ".join(s.oled)]
    assert len(clearing) > 10
    assert all(f["action"] == "lift" for s in clearing for f in s.fixes)
    assert run.refused() == []
    assert run.refusals == []
