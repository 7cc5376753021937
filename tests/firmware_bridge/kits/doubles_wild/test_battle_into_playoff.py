"""A battle won with the last ball of the main game, straight into a play-off."""

from __future__ import annotations

from tests.firmware_bridge.sim_runs import Play


def test_a_battle_won_just_before_the_playoff_has_its_spot_lifted_once(play: Play) -> None:
    run = play("doubles-wild", players=3, seed=43)
    won = [
        s.verdict
        for s in run.states
        if s.verdict is not None
        and s.verdict.get("reason", "").startswith("blue wins the battle for r5c3")
    ]
    assert won, "this seed ends its main game with blue winning r5c3"
    assert won[-1]["removed"].count("r5c3") == 1
    assert len(won[-1]["removed"]) == len(set(won[-1]["removed"]))
    battle = [p.verdict for p in run.played if p.verdict.reason.startswith("blue wins the battle")]
    assert battle and battle[-1].removed.count("r5c3") == 1
    for s in run.states:
        lifts = [f["cell"] for f in s.fixes if f["action"] == "lift"]
        assert len(lifts) == len(set(lifts)), s.fixes
    assert run.outcome is not None and "play-off" in run.outcome.reason
