"""Clearing the board for a tie's play-off is asked for, never refused as a move."""

from __future__ import annotations

import io
import json

from firmware_bridge.apps.cli import main


def test_lifting_the_main_games_balls_for_the_playoff_is_not_refused() -> None:
    out = io.StringIO()
    args = ["sim", "--game", "doubles-wild", "--players", "3", "--seed", "2", "--json"]
    assert main(args, out=out) == 0
    states = [json.loads(line) for line in out.getvalue().splitlines()]
    final = states[-1]
    assert "play-off" in final["outcome"]["reason"], "this seed ties and plays off"
    clearing = [s for s in states[:-1] if "Tie: clear for play-off" in " ".join(s["oled"])]
    assert len(clearing) > 10
    assert all(f["action"] == "lift" for s in clearing for f in s["fixes"])
    refused = [
        s["verdict"]["reason"] for s in states[:-1] if s["verdict"] and not s["verdict"]["accepted"]
    ]
    assert refused == []
