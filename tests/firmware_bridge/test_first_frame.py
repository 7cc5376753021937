"""A table shows its game before it opens its board and buttons, and nothing else changes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.apps import daemon
from firmware_bridge.journal import Journal
from firmware_bridge.runtime.loop import Loop
from firmware_bridge.runtime.table import open_display
from firmware_bridge.sim.runner import SimOptions, Simulation
from hardware.oled import dummy_oled
from tests.boards import FakeBoard
from wiring.config import load_config
from wiring.profile import Profile

# Runs ``tabletop sim`` in a process of its own (what a fresh process has imported is
# the subject) and, at the first frame handed to the OLED, prints what is loaded.
PROBE = """
import json, os, sys
import hardware.oled

def show(self, image):
    names = ("gpiozero", "serial", "firmware_bridge.runtime.lobby",
             "firmware_bridge.sim.pico.simboard", "firmware_bridge.kits.hand")
    print(json.dumps(sorted(n for n in names if n in sys.modules)), flush=True)
    os._exit(0)

hardware.oled.Oled.show = show
sys.stdin = open(os.devnull)
from firmware_bridge.apps.cli import main
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


class _Stop(Exception):
    pass


@pytest.mark.parametrize("journaled", [False, True])
def test_the_daemon_shows_its_game_before_it_opens_the_board(
    tmp_path: Path, journaled: bool
) -> None:
    journal = tmp_path / "journal.sqlite"
    config = tmp_path / "tabletop.toml"
    config.write_text(
        'profile = "double-take-gpio"\n'
        f'journal = "{journal}"\n'
        'game = "double-take"\nplayers = 2\nseed = 5\nlog_level = "WARNING"\n',
        encoding="utf-8",
    )
    if journaled:  # a game to resume, not a new one
        with Journal(journal) as saved:
            saved.new_game("double-take", 2, 5, {}, "double-take-gpio")
    first: list[bytes] = []

    def display(profile: Profile) -> Any:
        return open_display(profile, oled_device=dummy_oled(profile.oled))

    def inputs(profile: Profile, clock: Any, oled: Any) -> Any:
        # The game is on the glass before anything of the board is opened or read.
        assert oled.frames_shown == 1
        first.append(oled.last_frame.tobytes())
        raise _Stop

    with pytest.raises(_Stop):
        daemon.run_daemon(config, io.StringIO(), display, inputs)

    # It is the frame the table shows once its loop, board and signals are attached.
    cfg = load_config(config)
    with Journal(journal) as again:
        oled = open_display(cfg.profile, oled_device=dummy_oled(cfg.profile.oled))
        table = daemon.DaemonTable(cfg, again, None, oled, None)
        table.start()
        assert oled.frames_shown == 1
        led = _Led()
        table.attach(Loop(daemon.Lobby(daemon.choices(cfg.profile)), FakeBoard()), led)
        assert oled.frames_shown == 1
        assert oled.last_frame.tobytes() == first[0]
        assert table.session is not None and table.session.signals is led
        assert led.states == ["busy"]  # the board is yet to be checked against the game


class _Led:
    def __init__(self) -> None:
        self.states: list[str] = []

    def led_status(self, state: str) -> None:
        self.states.append(state)
