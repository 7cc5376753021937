"""In the simulation, as in the daemon, a move's beep starts only after its frame is shown."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from firmware_bridge.sim.runner import SimError, SimOptions, Simulation


def test_the_beep_for_a_move_is_held_until_its_frame_is_drawn() -> None:
    sim = Simulation(SimOptions(game="double-take", seed=3))
    frames: list[tuple[int, str | None]] = []
    oled = sim.session.display
    assert oled is not None

    class Watch:
        def show(self, image: Any) -> None:
            frames.append((len(sim.session.game.history), sim.signals.held))
            oled.show(image)

    sim.session.display = Watch()
    try:
        sim.start()
        with pytest.raises(SimError, match="did not end within 6 moves"):
            sim.play_computer(max_plies=6)
        assert sim.signals.wait(timeout=10)
    finally:
        sim.close()
    held_at_moves = [held for (before, _), (moves, held) in pairwise(frames) if moves > before]
    # Each move's frame is drawn while its beep is still held back; released, it plays.
    assert held_at_moves == ["accepted"] * 6
    assert sim.signals.held is None
    assert sim.signals.played
    assert set(sim.signals.played) == {"accepted"}
