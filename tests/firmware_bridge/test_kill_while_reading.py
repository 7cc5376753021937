"""SIGKILL while ok waits for the board to be read loses nothing and repeats nothing.

A simulated table (a process of its own, with a journal on disk) lays CAT and
presses ok; it is killed while the press waits for the board, or just after the
press was judged. The game resumed from the journal holds exactly what was
accepted before the kill, and plays on to the same result as an unbroken game.
"""

from __future__ import annotations

import multiprocessing
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.journal import Journal
from firmware_bridge.sim.runner import SimOptions, Simulation
from tests.firmware_bridge.kits.crosslet.test_sim import DEALT

CAT = {"type": "place", "tiles": [["H8", "C"], ["I8", "A"], ["J8", "T"]], "blanks": []}
TIMEOUT_S = 60.0


pytestmark = pytest.mark.usefixtures("kit_lexicon")


def table(journal: Path) -> Simulation:
    return Simulation(SimOptions("crosslet", options={"bag": DEALT, "first": 1}, journal=journal))


def lay_cat_and_press_ok(journal: Path, judged: bool, conn: Connection) -> None:
    """The process that is killed: CAT laid, ok pressed, killed waiting or once judged."""
    sim = table(journal)
    sim.start()
    for cell, letter in (("H8", "C"), ("I8", "A"), ("J8", "T")):
        sim.world.place(cell, letter)
        sim.advance(0.25)
    sim.buttons.press("ok")
    # A sweep of the switches takes some 8 ms: killed 2 ms after the press, the
    # board is still being read; 0.3 s after it, the press has been judged.
    sim.advance(0.3 if judged else 0.002)
    if judged:
        sim.look()
    conn.send_bytes(b"waiting" if sim.loop.waiting else b"judged")
    time.sleep(TIMEOUT_S)  # killed here


def killed(journal: Path, judged: bool) -> str:
    # Not forked from this process: its threads (gpiozero's) could hold a lock.
    ctx: Any = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([__name__])
    reports, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=lay_cat_and_press_ok, args=(journal, judged, send))
    proc.start()
    send.close()
    try:
        assert reports.poll(TIMEOUT_S), "the table never got to the press"
        state = reports.recv_bytes().decode()
    finally:
        proc.kill()
        proc.join(TIMEOUT_S)
    return state


def actions(journal: Path) -> list[dict[str, Any]]:
    with Journal(journal, read_only=True) as read:
        game = read.newest()
        assert game is not None
        return [e.payload for e in read.entries(game.id) if e.kind == "action"]


def test_killed_while_ok_waits_for_the_board_nothing_is_half_journaled(tmp_path: Path) -> None:
    journal = tmp_path / "game.sqlite"
    assert killed(journal, judged=False) == "waiting"
    assert actions(journal) == []
    sim = table(journal)
    try:
        sim.start()
        # The tiles still lie where the hand put them, but no move was accepted: the
        # resumed table asks for the board as the journal has it, then CAT again.
        assert sim.world.contents == {"H8": "C", "I8": "A", "J8": "T"}
        fixes = sim.session.pending_fixes()
        assert [(f.action, f.cell) for f in fixes] == [("lift", c) for c in ("H8", "I8", "J8")]
        sim.set_up()
        for cell, letter in (("H8", "C"), ("I8", "A"), ("J8", "T")):
            sim.world.place(cell, letter)
            sim.advance(0.25)
        sim.buttons.press("ok")
        sim.look()
        assert sim.session.game.scores() == [10, 0]
    finally:
        sim.close()
    assert actions(journal) == [CAT]


def test_killed_once_ok_was_judged_the_move_is_kept_once(tmp_path: Path) -> None:
    journal = tmp_path / "game.sqlite"
    assert killed(journal, judged=True) == "judged"
    assert actions(journal) == [CAT]
    sim = table(journal)
    try:
        sim.start()
        sim.set_up()
        assert sim.session.game.scores() == [10, 0]
        assert sim.session.pending_fixes() == []
    finally:
        sim.close()
    assert actions(journal) == [CAT]
