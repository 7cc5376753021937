"""Every accepted action reaches the ``--json`` stream and the transcript, as journaled.

An action committed in the same step as the one before it (an automatic pass) is
its own line in both, and the numbering has no gap and no repeat. ``TABLETOP_SEEDS``
sets how many seeds of each game are played (3 by default; 50 for the full check).
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.journal import Journal
from firmware_bridge.kits import KITS
from firmware_bridge.runtime.transcript import print_move
from firmware_bridge.sim.runner import SimOptions, Simulation

SEEDS = int(os.environ.get("TABLETOP_SEEDS", "3"))
GAMES = [
    pytest.param(
        name, min(3, kit.about.max_players), marks=[] if name == "crosslet" else [pytest.mark.slow]
    )
    for name, kit in sorted(KITS.items())
]


def _play(game: str, players: int, seed: int, journal: Path) -> tuple[list[dict[str, Any]], str]:
    states: list[dict[str, Any]] = []
    text = io.StringIO()
    sim = Simulation(SimOptions(game, players=players, seed=seed, journal=journal))
    sim.listeners.append(states.append)
    seat_name = sim.session.game.seat_name
    sim.commits.append(lambda played: print_move(played, seat_name, text))
    try:
        sim.start()
        sim.play_computer()
    finally:
        sim.close()
    return states, text.getvalue()


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_stream_and_the_transcript_show_every_journaled_action(
    game: str, players: int, tmp_path: Path
) -> None:
    passes_after_a_move = 0
    for seed in range(1, SEEDS + 1):
        path = tmp_path / f"{game}-{seed}.sqlite"
        states, transcript = _play(game, players, seed, path)
        with Journal(path) as journal:
            record = journal.games()[-1]
            actions = [e.payload for e in journal.entries(record.id) if e.kind == "action"]
        assert actions, "the game was played"
        shown: dict[int, dict[str, Any]] = {}
        for state in states:
            n = state["moves_played"]
            if n and state["move"] is not None:
                shown.setdefault(n, state["move"])
        assert sorted(shown) == list(range(1, len(actions) + 1)), f"seed {seed}: a move is missing"
        for n, move in shown.items():
            assert move["action"] == actions[n - 1], f"seed {seed}, move {n}"
        numbers = [int(m.group(1)) for m in re.finditer(r"^\s*(\d+)\. ", transcript, re.M)]
        assert numbers == list(range(1, len(actions) + 1)), f"seed {seed}: transcript numbering"
        passes_after_a_move += sum(
            1
            for n in range(2, len(actions) + 1)
            if actions[n - 1]["type"] == "pass" and actions[n - 2]["type"] != "pass"
        )
    if game == "double-take":
        assert passes_after_a_move > 0, "the seeds include automatic passes"
