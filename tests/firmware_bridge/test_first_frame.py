"""A table shows its game before it opens its board and buttons, and nothing else changes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.sim.runner import SimOptions, Simulation

# Runs ``tabletop sim`` and, at the first frame handed to the OLED, prints what is loaded.
PROBE = """
import json, os, sys
import hardware.oled

def show(self, image):
    names = ("gpiozero", "serial", "firmware_bridge.lobby", "firmware_bridge.link.simboard",
             "firmware_bridge.sim.hands")
    print(json.dumps(sorted(n for n in names if n in sys.modules)), flush=True)
    os._exit(0)

hardware.oled.Oled.show = show
sys.stdin = open(os.devnull)
from firmware_bridge.cli import main
main(["sim", "--game", sys.argv[1], "--json", "--script", "-"])
"""


@pytest.mark.parametrize("game", ["double-take", "crosslet"])
def test_the_first_frame_needs_no_pins_link_menu_or_hand(game: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, game], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == []


def _frames(sim: Simulation) -> int:
    return int(sim.oled.frames_shown)


@pytest.mark.parametrize("game", ["double-take", "doubles-wild", "dominoes"])
def test_the_first_frame_is_the_one_the_settled_board_shows(game: str) -> None:
    sim = Simulation(SimOptions(game=game, seed=2))
    try:
        first = sim.oled.last_frame
        assert _frames(sim) == 1 and first is not None
        assert sim.signals.led_state == "off"  # the LED is told once the board is read
        sim.start()
        # The settled board shows the same screen: no second frame is sent.
        assert _frames(sim) == 1
        assert sim.oled.last_frame.tobytes() == first.tobytes()
        assert sim.signals.led_state == "ok"
    finally:
        sim.close()


def test_a_resumed_game_waits_for_the_board_before_its_first_frame(tmp_path: Path) -> None:
    journal = tmp_path / "j.db"
    sim = Simulation(SimOptions(game="double-take", seed=2, journal=journal))
    sim.start()
    sim.close()
    again = Simulation(SimOptions(game="double-take", seed=2, journal=journal))
    try:
        assert again.resumed
        assert _frames(again) == 0  # its screen asks for fixes: it waits for the board
        again.start()
        assert _frames(again) >= 1
    finally:
        again.close()
