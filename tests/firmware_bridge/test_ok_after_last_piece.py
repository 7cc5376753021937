"""Ok pressed right after the last piece is laid is judged with every piece laid.

On the modelled boards (the simulator keeps the real parts' time) a piece is read
well after it lands: seconds on the RFID board, a scan, a debounce and the link on
the occupancy board. Ok waits for the board to be read after it was pressed.
"""

from __future__ import annotations

from typing import Any

import pytest

from firmware_bridge.sim.runner import SimOptions, Simulation
from tests.firmware_bridge.kits.crosslet.test_sim import DEALT
from tests.firmware_bridge.kits.doublecross.test_table import OPTIONS as DOUBLECROSS

DELAYS = (0.0, 0.01, 0.05, 0.2)
"""Seconds between the last piece landing and ok."""


pytestmark = pytest.mark.usefixtures("kit_lexicon")


def actions(sim: Simulation) -> list[dict[str, Any]]:
    journal = sim.journal
    return [e.payload for e in journal.entries(sim.session.game_id) if e.kind == "action"]


@pytest.mark.parametrize("delay", DELAYS)
def test_ok_after_the_last_tile_on_the_modelled_rfid_board(delay: float) -> None:
    sim = Simulation(
        SimOptions("crosslet", profile="rfid-15x15-pico", options={"bag": DEALT, "first": 1})
    )
    try:
        sim.start()
        assert sim.serial_sim is not None and sim.serial_sim.timing is not None
        # A person's pace: a tile every quarter second, then ok.
        for cell, letter in (("H8", "C"), ("I8", "A"), ("J8", "T")):
            sim.advance(0.25)
            sim.world.place(cell, letter)
        sim.advance(delay)
        assert "J8" not in sim.session.observation, "the board has not read the last tile yet"
        sim.buttons.press("ok")
        sim.look()
        assert actions(sim) == [
            {"type": "place", "tiles": [["H8", "C"], ["I8", "A"], ["J8", "T"]], "blanks": []}
        ]
        assert sim.session.game.scores() == [10, 0]
        assert sim.session.last_verdict is not None and sim.session.last_verdict.accepted
    finally:
        sim.close()


@pytest.mark.parametrize("delay", DELAYS)
def test_ok_after_the_last_tile_in_doublecross_ends_the_turn_with_it(delay: float) -> None:
    sim = Simulation(SimOptions("doublecross", options=dict(DOUBLECROSS)))
    try:
        sim.start()
        sim.buttons.press("ok")  # the special-space markers are in place
        sim.advance(0.25)
        sim.look()
        sim.world.place("H9", "A")
        sim.advance(0.25)
        sim.world.place("H10", "S")
        sim.advance(delay)
        sim.buttons.press("ok")
        sim.look()
        assert actions(sim) == [
            {"type": "place", "cell": "H9", "letter": "A"},
            {"type": "place", "cell": "H10", "letter": "S"},
            {"type": "end-turn"},
        ]
        assert sim.session.game.scores() == [11, 0]
    finally:
        sim.close()


@pytest.mark.parametrize("profile", ["double-take-pico", "double-take-gpio"])
@pytest.mark.parametrize("delay", DELAYS)
def test_ok_after_the_last_piece_on_the_modelled_occupancy_board(
    profile: str, delay: float
) -> None:
    sim = Simulation(SimOptions("double-take", profile=profile))
    try:
        sim.start()
        for line in ("lift a3", "place a5 red", "lift b7", "place b5 green", "lift c3"):
            verb, cell, *piece = line.split()
            if verb == "lift":
                sim.world.lift(cell)
            else:
                sim.world.place(cell, piece[0])
            sim.advance(0.25)
            sim.look()
        # c3-c5 may capture b5 or not: ok right after the piece lands declines it.
        sim.world.place("c5", "red")
        sim.advance(delay)
        sim.buttons.press("ok")
        sim.look()
        moved = [(a["frm"], a["to"], a.get("captures", [])) for a in actions(sim)]
        assert moved == [("a3", "a5", []), ("b7", "b5", []), ("c3", "c5", [])]
        assert sim.session.game.layout()["b5"].label == "green"
    finally:
        sim.close()
