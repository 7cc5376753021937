"""A battle won with the last ball of the main game, straight into a play-off."""

from __future__ import annotations

import io
import json

from firmware_bridge.apps.cli import main


def test_a_battle_won_just_before_the_playoff_has_its_spot_lifted_once() -> None:
    out = io.StringIO()
    args = ["sim", "--game", "doubles-wild", "--players", "3", "--seed", "43", "--json"]
    assert main(args, out=out) == 0
    states = [json.loads(line) for line in out.getvalue().splitlines()]
    won = [
        s["verdict"]
        for s in states
        if (s.get("verdict") or {}).get("reason", "").startswith("blue wins the battle for r5c3")
    ]
    assert won, "this seed ends its main game with blue winning r5c3"
    assert won[-1]["removed"].count("r5c3") == 1
    assert len(won[-1]["removed"]) == len(set(won[-1]["removed"]))
    for s in states:
        lifts = [f["cell"] for f in s.get("fixes", []) if f["action"] == "lift"]
        assert len(lifts) == len(set(lifts)), s["fixes"]
    assert "play-off" in states[-1]["outcome"]["reason"]
