"""The check every lit map of a simulated table passes as the chain is told it: the fixes
asked for are lit in the fix colours and nothing else is. Whole games run it through
:class:`Checked`, a light sink (``test_screen_fit.py``); a check of the chain's current
belongs in :func:`check_lit` too."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_bridge.fixes import Fix
from firmware_bridge.palette import COLOURS, DESTROYED, FIX_COLOURS
from firmware_bridge.session import Session


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


class Checked:
    """A light sink that checks every lit map against the fixes the session asks for."""

    def __init__(self, session: Session[Any]) -> None:
        self.session = session
        self.cells = set(session.game.cells())
        self.maps = 0
        self.with_fixes = 0
        self.wrong: list[str] = []

    def show_lights(self, lit: Mapping[str, str]) -> None:
        fixes = self.session.pending_fixes()
        self.maps += 1
        self.with_fixes += bool(fixes)
        n = len(self.session.game.history)
        self.wrong += [f"move {n}: {w}" for w in check_lit(lit, fixes, self.cells)]
