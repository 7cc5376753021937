"""The check every lit map of a simulated table passes as the chain is told it: the fixes
asked for are lit in the fix colours and nothing else is, and the chain, told the map
in LED messages that are encoded and decoded as on the wire, never draws more than its
current budget. Whole games run it through :class:`Checked`, a light sink
(``test_screen_fit.py``)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from firmware_bridge.link.codec import decode, encode, led_parts
from firmware_bridge.link.messages import RGB, LedSet
from firmware_bridge.referees.fixes import Fix
from firmware_bridge.runtime.session import Session
from firmware_bridge.screen.palette import COLOURS, DESTROYED, FIX_COLOURS
from firmware_bridge.sim.pico.fake_machine import FakeMachine, FakeNeoPixels


def check_lit(lit: Mapping[str, str], fixes: list[Fix], cells: set[str]) -> list[str]:
    """What is wrong with one lit map while ``fixes`` are asked for: every map the
    chain is told passes here (a current budget check belongs here too)."""
    wrong: list[str] = []
    for cell, colour in lit.items():
        if colour not in COLOURS:
            wrong.append(f"{cell} is lit in {colour!r}, no colour of the palette")
        if cell not in cells:
            wrong.append(f"{cell} is lit but is no cell of the game")
    asked = {f.cell for f in fixes}
    for fix in fixes:
        if lit.get(fix.cell) not in FIX_COLOURS | {DESTROYED}:
            wrong.append(f"{fix.cell} ({fix.text()}) is lit {lit.get(fix.cell)!r}")
    if fixes and lit.get(fixes[0].cell) in FIX_COLOURS and not lit[fixes[0].cell].endswith("now"):
        wrong.append(f"the first fix {fixes[0].cell} is not lit as the one to do now")
    for cell, colour in lit.items():
        if colour in FIX_COLOURS and cell not in asked:
            wrong.append(f"{cell} is lit {colour} but no fix asks for it")
    return wrong


leds = importlib.import_module("firmware_bridge.firmware.leds")

HEADROOM_MA = 20
"""A tight budget for the chain under the checked games: its LEDs' idle draw and 20 mA,
a third of one LED at full white. Most lit maps at full brightness are over it, so the
firmware's scaling is what keeps the chain within it."""


class ChainOnTheWire:
    """The firmware's LED chain under every cell of a game (full brightness, a tight
    budget), told each lit map as the host tells it: the LEDs that changed, in LED
    messages encoded and decoded as on the wire."""

    def __init__(self, cells: list[str]) -> None:
        self.index = {cell: i for i, cell in enumerate(cells)}
        self.neopixels = FakeNeoPixels(FakeMachine())
        self.chain = leds.Chain(self.neopixels)
        self.set: list[RGB | None] = [None] * len(cells)
        self.token = 0
        self.budget_ma = len(cells) * leds.IDLE_MA + HEADROOM_MA
        self.scaled = 0
        """Frames the firmware had to scale down to keep within the budget."""

    def show(self, lit: Mapping[str, str]) -> list[str]:
        """Tell the chain ``lit``; what is wrong with what it then shows."""
        wanted: list[RGB] = [(0, 0, 0)] * len(self.set)
        for cell, colour in lit.items():
            if cell in self.index and colour in COLOURS:
                wanted[self.index[cell]] = COLOURS[colour].rgb
        changes = {i: rgb for i, rgb in enumerate(wanted) if self.set[i] != rgb}
        for runs in led_parts(changes):
            self.token += 1
            sent = LedSet(self.token, 15, len(self.set), self.budget_ma, runs)
            got = decode(encode(sent, self.token).strip(b"\x00")).message
            assert isinstance(got, LedSet) and got == sent
            self.chain.set_up(got.pin, got.leds, got.budget_ma)
            self.chain.apply([(r.first, r.count, *r.rgb) for r in got.runs])
        self.chain.show()
        self.set = list(wanted)
        shown = self.neopixels.shown()
        flat = [level for rgb in shown for level in rgb]
        drawn = leds.current_ma(flat)
        asked = [level for rgb in wanted for level in rgb]
        self.scaled += leds.current_ma(asked) > self.budget_ma
        wrong: list[str] = []
        if drawn > self.budget_ma:
            wrong.append(f"the chain draws {drawn:.0f} mA, over its budget {self.budget_ma} mA")
        for cell, i in self.index.items():
            if (shown[i] != (0, 0, 0)) and wanted[i] == (0, 0, 0):
                wrong.append(f"{cell} shows {shown[i]} but is not lit")
        return wrong


class Checked:
    """A light sink that checks every lit map against the fixes the session asks for,
    and the chain that shows it against its current budget."""

    def __init__(self, session: Session[Any]) -> None:
        self.session = session
        self.cells = set(session.game.cells())
        self.chain = ChainOnTheWire(session.game.cells())
        self.maps = 0
        self.with_fixes = 0
        self.wrong: list[str] = []

    def show_lights(self, lit: Mapping[str, str]) -> None:
        fixes = self.session.pending_fixes()
        self.maps += 1
        self.with_fixes += bool(fixes)
        n = len(self.session.game.history)
        self.wrong += [f"move {n}: {w}" for w in check_lit(lit, fixes, self.cells)]
        self.wrong += [f"move {n}: {w}" for w in self.chain.show(lit)]
