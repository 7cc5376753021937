"""A simulated table killed while its expert thinks (test_levels): the computer plays
both seats, red at expert and green at beginner, journaled; at the expert's sixth
move it reports that it is thinking and stops there, on the worker thread the table
thinks on (``runtime/thinking.py``), to be killed."""

from __future__ import annotations

import time
from multiprocessing.connection import Connection
from pathlib import Path

from firmware_bridge.sim.runner import SimOptions, Simulation
from games.core import Action, Game
from games.double_take import player

THINKING = b"t"
LEVELS = {0: 3, 1: 1}
SEED = 5


def life(journal: Path, conn: Connection) -> None:
    think = player.DoubleTakeExpert.choose
    moves = 0

    def choose(self: player.DoubleTakeExpert, game: Game) -> Action:
        nonlocal moves
        moves += 1
        if moves == 6:
            conn.send_bytes(THINKING)
            time.sleep(120)  # still thinking when the kill comes
        return think(self, game)

    player.DoubleTakeExpert.choose = choose  # type: ignore[method-assign]
    sim = Simulation(
        SimOptions("double-take", seed=SEED, journal=journal, humans=frozenset(), levels=LEVELS)
    )
    sim.start()
    sim.play_computer()
