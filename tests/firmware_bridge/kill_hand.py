"""One life of a simulated table that the power-loss test kills: it follows a reference game.

Run in a process of its own (forked from a clean server, see test_power_loss_kills):
it opens the journal as ``tabletop sim --journal`` does (resuming the unfinished
game, or starting it), puts back whatever the last kill left half-moved, and
plays on with the reference game's actions, the dice included, by the same
simulated hand the computer uses. It reports on ``conn`` when it has started
(with the count of fixes the board needed), each accepted move, and the end.
"""

from __future__ import annotations

import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from firmware_bridge.sim.runner import SimOptions, Simulation
from games.core import Action, Game
from games.doubles_wild.actions import BattleRoll, Reroll, Roll

STARTED = b"s"
MOVED = b"m"
FINISHED = b"f"
FAILED = b"E"


def dice_of(action: Action) -> tuple[int, ...]:
    """The faces the station must roll for ``action`` (none for most actions)."""
    if isinstance(action, Roll):
        return (*action.red, *action.blue)
    if isinstance(action, Reroll | BattleRoll):
        return action.values
    return ()


def life(
    journal: Path, name: str, seed: int, reference: list[dict[str, Any]], conn: Connection
) -> None:
    try:
        sim = Simulation(SimOptions(name, seed=seed, journal=journal))
        sim.commits.append(lambda session: conn.send_bytes(MOVED))
        sim.start()
        # How many fixes the last kill left for the hand to make (a half-made move).
        fixes = sim.session.pending_fixes() if sim.session.restoring else []
        conn.send_bytes(STARTED + str(len(fixes)).encode())

        def follow(game: Game) -> Action:
            action = game.decode(reference[len(game.history)])
            sim.dice.load(dice_of(action))
            return action

        sim.play_computer(choose=follow)
        sim.close()
        conn.send_bytes(FINISHED)
    except BaseException:
        conn.send_bytes(FAILED + traceback.format_exc().encode())
        raise
