"""``tabletop diag``'s LED test: a chase along the chain, one LED at a time, on the
simulated Pico's chain, and what is lit in the view."""

from __future__ import annotations

import re

from msgspec.structs import replace
from rich.console import Console

from firmware_bridge.apps.diag_leds import CHASE_S
from firmware_bridge.apps.diag_sim import SimBench
from firmware_bridge.apps.diag_view import render
from firmware_bridge.screen import palette
from wiring.loader import load_profile
from wiring.profile import LedChain


def test_a_long_press_of_right_chases_one_led_at_a_time_along_the_chain() -> None:
    profile = load_profile("double-take-pico")
    chain = tuple(profile.cells)
    leds = LedChain(pin=15, order="rows", chain=chain, brightness=1.0, budget_ma=3000)
    rig = SimBench(replace(profile, leds=leds))
    try:
        sim = rig.serial_sim
        assert sim is not None
        rig.run_for(0.5)
        assert sim.lights(chain) == {}
        rig.press("right", long=True)
        seen = []
        for _ in range(3):
            rig.run_for(CHASE_S)
            lit = sim.lights(chain)
            assert len(lit) == 1, lit  # one LED at a time
            assert set(lit.values()) == {palette.rgb(palette.SPOT)}
            seen.append(chain.index(next(iter(lit))))
        # Along the chain, one LED a step.
        assert seen[1] == seen[0] + 1 and seen[2] == seen[1] + 1
        console = Console(width=120, record=True, color_system=None)
        console.print(render(rig.bench))
        view = console.export_text()
        cell = chain[seen[2]]
        assert f"LEDs: chase at LED {seen[2] + 1} of {len(chain)}; lit: {cell} spot" in view
        assert re.search(r"LED budget +100% lit", view)
        rig.press("right", long=True)
        rig.run_for(0.3)
        assert sim.lights(chain) == {}
        assert any("LED chase stopped" in line for line in rig.bench.log)
    finally:
        rig.close()


def test_a_profile_without_a_chain_says_so() -> None:
    # The Pico profiles all have a chain: this one's [leds] taken out.
    rig = SimBench(replace(load_profile("double-take-pico"), leds=None))
    try:
        rig.press("right", long=True)
        rig.run_for(0.3)
        assert any("this profile has no LED chain" in line for line in rig.bench.log)
        assert rig.bench.chase.text() == "LEDs: this profile has no LED chain"
    finally:
        rig.close()
