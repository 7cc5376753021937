"""Simulated time passing at the table as the daemon's loop lets it: the simulated
Pico runs, the board is scanned, the loop handles what came in, the table moves on
(the start menu's game, or the menu after a game), and the sounds start."""

from __future__ import annotations

from .rig import Rig
from .stream import Stream
from .table import SimTable


class Stepper:
    """The fake clock of one simulated table, moved on a scan at a time."""

    def __init__(self, table: SimTable, rig: Rig, stream: Stream) -> None:
        self.table = table
        self.rig = rig
        self.stream = stream
        self.step_s = rig.interval
        """Simulated time between two scans: the board's own scan interval, unless the
        computer's quick hand lets it scan less often."""

    def advance(self, seconds_: float) -> None:
        """Let simulated time pass, scanning and handling events as the daemon would."""
        clock = self.rig.clock
        dt = self.step_s
        end = clock.now() + seconds_
        self.step()
        while clock.now() < end - 1e-9:
            clock.advance(min(dt, end - clock.now()))
            self.step()

    def step(self) -> None:
        """One pass of the daemon's loop at the clock's time."""
        now = self.rig.clock.now()
        if self.rig.serial_sim is not None:
            self.rig.serial_sim.step(now)
        self.table.loop.step(now)
        moved_on = self.table.after_step()
        lobby = self.table.lobby
        if not moved_on and lobby is not None:
            self.stream.menu(lobby)
        # As in the daemon: sounds start once the step has drawn its frame.
        self.rig.signals.release()
