"""The lights of a simulated table: a refused Crosslet turn on the RFID board lights the
tiles to lift until they are lifted. (Whole seeded games of every game check each lit
map as the chain is told it in ``test_screen_fit.py``, with ``lights_check.py``.)"""

from __future__ import annotations

import io
from pathlib import Path

from firmware_bridge.apps.cli import main
from firmware_bridge.screen.palette import LIFT, LIFT_NOW
from tests.firmware_bridge.kits.crosslet.referee_helpers import bag
from tests.firmware_bridge.sim_runs import Play


def test_a_refused_crosslet_turn_lights_the_tiles_to_lift_until_they_are_lifted(
    play: Play, kit_lexicon: None
) -> None:
    options = [f"bag={bag('CATERS?', 'DOGINQU')}", "first=1"]
    script = "wrong place H7,H8 QZ\npress ok\nlift H7\nlift H8\n"
    run = play("crosslet", profile="rfid-15x15-pico", options=options, script=script)
    states = run.states
    asking = [s for s in states if s.fixes]
    assert asking, "the refusal asked for fixes"
    assert any({f["cell"] for f in s.fixes} == {"H7", "H8"} for s in asking)
    for s in asking:
        fixes = {f["cell"] for f in s.fixes}
        assert set(s.leds) == fixes, s
        assert s.leds[s.fixes[0]["cell"]] == LIFT_NOW
        assert set(s.leds.values()) <= {LIFT_NOW, LIFT}
    assert any(s.leds == {"H7": LIFT_NOW, "H8": LIFT} for s in asking)
    assert states[-1].fixes == [] and states[-1].leds == {}
    assert states[-1].verdict is not None
    assert states[-1].verdict["accepted"] is False  # nothing was played


def test_the_simulated_picos_chain_shows_the_refusal_and_goes_dark(kit_lexicon: None) -> None:
    """The same refusal seen on the LEDs themselves: the firmware's chain, told by LED
    messages over the simulated serial line, lights H7 and H8 in the lift colours at the
    profile's brightness, and every LED is dark once the tiles are lifted."""
    from firmware_bridge.screen.palette import rgb
    from firmware_bridge.sim.runner import SimOptions, Simulation
    from firmware_bridge.sim.script import parse_all

    options = {"bag": bag("CATERS?", "DOGINQU"), "first": 1}
    sim = Simulation(
        SimOptions("crosslet", profile="rfid-15x15-pico", options=options, humans=frozenset({0, 1}))
    )
    try:
        sim.start()
        chain = sim.profile.leds
        board = sim.serial_sim
        assert chain is not None and board is not None
        k = chain.brightness

        def dimmed(name: str) -> tuple[int, ...]:
            return tuple(round(v * k) for v in rgb(name))

        sim.run_script(parse_all("wrong place H7,H8 QZ\npress ok\n"))
        sim.advance(1.0)
        assert board.lights(chain.chain) == {"H7": dimmed(LIFT_NOW), "H8": dimmed(LIFT)}
        sim.run_script(parse_all("lift H7\n"))
        sim.advance(1.0)
        assert board.lights(chain.chain) == {"H8": dimmed(LIFT_NOW)}
        sim.run_script(parse_all("lift H8\n"))
        sim.advance(1.0)
        assert board.lights(chain.chain) == {}
    finally:
        sim.close()


def test_the_simulators_frames_draw_the_board_at_every_change_of_the_lights(
    tmp_path: Path,
) -> None:
    from PIL import Image

    from firmware_bridge.spectate.board_png import CELL

    frames = tmp_path / "frames"
    argv = ["sim", "--game", "double-take", "--seed", "2", "--frames", str(frames)]
    assert main(argv, out=io.StringIO()) == 0
    lit = sorted(frames.glob("lights-*.png"))
    oled = sorted(frames.glob("frame-*.png"))
    assert oled and lit, "the OLED's frames and the lights' pictures are both written"
    assert lit[0].name == "lights-00001.png"
    board = Image.open(lit[len(lit) // 2])
    assert board.width >= 8 * CELL and board.height > 8 * CELL
    # Every move lights its squares (the last move at least), so the lights change
    # about once a move: a 67-move game gives dozens of pictures, not one.
    assert len(lit) > 20
