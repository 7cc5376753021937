"""Every scenario in the repository gives the same game at a person's pace as slowly.

The simulator keeps the real parts' time, so a hand at the script's default pace
(a quarter second between actions, ok right after the last tile) is ahead of the
board; the presses wait for the board and the game must not change. Each scenario
is played without its ``pace`` lines, then with a slow ``pace 0.6`` first (and, if
it has ``pace`` lines of its own, as written); the journals' moves and the scores
must be the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.kits import find_kit
from firmware_bridge.runtime.takeback import rebuild
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import parse_all, with_board_cells
from tests.firmware_bridge.kits.crosslet.test_sim import DEALT
from tests.firmware_bridge.kits.doublecross.test_table import OPTIONS as DOUBLECROSS

SCENARIOS = Path(__file__).parent / "scenarios"
SLOW = "pace 0.6"


def options(name: str) -> SimOptions:
    """The table each scenario is written for (as the tests that play it set it up)."""
    if name.startswith("cl_"):
        return SimOptions("crosslet", options={"bag": DEALT, "first": 1})
    if name.startswith("dc_"):
        return SimOptions("doublecross", options=dict(DOUBLECROSS))
    if name.startswith("dd_"):
        seed = 4 if name in ("dd_chain_ended_with_ok.txt", "dd_draw_discard.txt") else 1
        return SimOptions("dominoes", seed=seed)
    if name.startswith("dt_"):
        profile = "double-take-pico" if name == "dt_unplug_midgame.txt" else None
        return SimOptions("double-take", profile=profile)
    if name.startswith("dw_rfid_"):
        return SimOptions("doubles-wild", seed=11, profile="doubles-wild-rfid-pico")
    assert name.startswith("dw_"), name
    return SimOptions("doubles-wild")


pytestmark = pytest.mark.usefixtures("kit_lexicon")


def play(name: str, text: str) -> tuple[list[dict[str, Any]], list[int]]:
    """The journaled actions and the final scores of ``text`` played as ``name`` is."""
    sim = Simulation(options(name))
    try:
        sim.start()
        sim.run_script(list(with_board_cells(parse_all(text, name), sim.profile.cells)))
        entries = sim.journal.entries(sim.session.game_id)
        scores = sim.session.game.scores()
        # The journal replayed (as a resumed table, export and the spectators do)
        # gives the game the table played.
        replayed = rebuild(sim.journal, sim.session.game_id, find_kit(sim.kit.name).new_game)[0]
        assert replayed.scores() == scores
        return [e.payload for e in entries if e.kind == "action"], scores
    finally:
        sim.close()


def without_pace(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("pace "))


def without_waits(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith("wait "))


FAST = {
    "cl_blank.txt",
    "dc_points.txt",
    "dd_legal_placement.txt",
    "dt_unplug_midgame.txt",
    "dw_roll_tumbles.txt",
}
"""One scenario of each game in the fast run, the paced and the unplugged among them."""


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=[] if name in FAST else [pytest.mark.slow])
        for name in sorted(p.name for p in SCENARIOS.glob("*.txt"))
    ],
)
def test_a_scenario_ends_the_same_at_a_persons_pace_and_slowly(name: str) -> None:
    written = (SCENARIOS / name).read_text()
    quick = play(name, without_pace(written))
    assert quick[0], "the scenario plays something"
    assert play(name, f"{SLOW}\n{without_pace(written)}") == quick
    if without_pace(written) != written:
        assert play(name, written) == quick
    hurried = without_waits(without_pace(written))
    if hurried != without_pace(written):
        # Every scenario, the cable pulled for a moment included, ends the same.
        assert play(name, hurried) == quick


@pytest.mark.parametrize(
    ("game", "script", "journaled"),
    [
        (
            SimOptions("crosslet", options={"racks": "table"}),
            "place H8,I8,J8 ZAG\npress ok\n",
            [{"type": "place", "tiles": [["H8", "Z"], ["I8", "A"], ["J8", "G"]], "blanks": []}],
        ),
        (
            SimOptions("doublecross", options=dict(DOUBLECROSS)),
            "press ok\nplace H9,H10 AS\npress ok\n",
            [
                {"type": "place", "cell": "H9", "letter": "A"},
                {"type": "place", "cell": "H10", "letter": "S"},
                {"type": "end-turn"},
            ],
        ),
    ],
    ids=["crosslet", "doublecross"],
)
def test_tiles_laid_then_ok_at_once_are_judged_with_every_tile(
    game: SimOptions, script: str, journaled: list[dict[str, Any]]
) -> None:
    sim = Simulation(game)
    try:
        sim.start()
        sim.run_script(list(with_board_cells(parse_all(script), sim.profile.cells)))
        actions = [
            e.payload for e in sim.journal.entries(sim.session.game_id) if e.kind == "action"
        ]
        assert actions[-len(journaled) :] == journaled
        verdict = sim.session.last_verdict
        assert verdict is not None and verdict.accepted
    finally:
        sim.close()
