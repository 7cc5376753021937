"""While DoubleCross shows where the special-space markers go, a computer seat's move is
not shown: the board it would be made on is not set up yet."""

from __future__ import annotations

from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import parse_all, with_board_cells


def test_the_computers_move_waits_for_the_set_up() -> None:
    sim = Simulation(SimOptions("doublecross", seed=1, humans=frozenset({1})))
    shown: list[list[str]] = []
    sim.listeners.append(lambda state: shown.append(list(state["oled"])))
    try:
        sim.start()
        lines = parse_all("press ok\n" * 9, "setup")
        sim.run_script(list(with_board_cells(lines, sim.profile.cells)))
    finally:
        sim.close()
    markers = [oled for oled in shown if oled and oled[0].startswith("Markers")]
    playing = [oled for oled in shown if oled and oled[0].startswith("P1 to play")]
    assert len(markers) >= 9 and playing, "the markers' screens, then play"
    assert not any("Computer:" in line for oled in markers for line in oled)
    assert any(line.startswith("Computer: lay") for line in playing[0])


def test_the_computers_hand_lays_the_start_word_as_the_oled_asks() -> None:
    sim = Simulation(SimOptions("doublecross", seed=1, set_up_by_hand=True))
    shown: list[list[str]] = []
    sim.listeners.append(lambda state: shown.append(list(state["oled"])))
    try:
        start = sim.session.game.start_cells
        assert not set(start) & set(sim.world.contents), "a new table has no start word"
        sim.start()
        sim.play_computer()
        assert sim.session.game.outcome is not None
    finally:
        sim.close()
    asked = [line for oled in shown for line in oled if line.startswith("Put ")]
    word = sim.session.game.start_word.upper()
    for n, (cell, letter) in enumerate(zip(start, word, strict=True)):
        assert any(line.startswith(f"Put {letter} on {cell}") for line in asked), (cell, asked)
        if n == 0:
            assert f"Put {letter} on {cell} (1/{len(word)})" in asked
