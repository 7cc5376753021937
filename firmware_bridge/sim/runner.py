"""``tabletop sim``: a game on simulated hardware, driven by a script or by the computer.

Every layer is the real one: gpiozero devices on mock pins wired as the profile
says, the real matrix scanner and settle filter, the real session and journal,
luma's dummy OLED. Only the hand that moves the pieces and presses the buttons
is simulated, on a fake clock.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from games.core import Action, Game
from hardware.board import SensorBoard
from hardware.buttons import SimButtons
from hardware.clock import FakeClock
from hardware.dice import DiceSource
from wiring.profile import Profile

from ..journal import Journal
from ..kits import Kit
from ..referees.decisions import Played
from ..runtime.lightsink import LightSink
from ..runtime.loop import Loop
from ..runtime.session import Session
from .computer_play import MAX_PLIES, ComputerPlay
from .errors import SimError
from .interpreter import LOOK_S, ScriptInterpreter
from .opening import open_table
from .options import SimOptions
from .script import Line
from .stepper import Stepper

if TYPE_CHECKING:
    from ..kits.hand import Hand
    from ..runtime.lobby import Lobby
    from .pico.simboard import SimulatedSerialBoard

__all__ = ["SimError", "SimOptions", "Simulation"]


class Simulation:
    """One simulated table: board, station, OLED, session and loop on a fake clock.

    It holds its parts: the table (:class:`.table.SimTable`, what is on it), its
    devices (:class:`.rig.Rig`), the simulated world (:class:`.world.World`), what it
    tells its listeners (:class:`.stream.Stream`), time passing (:class:`.stepper.Stepper`),
    the script's hand (:class:`.interpreter.ScriptInterpreter`) and the computer's play
    (:class:`.computer_play.ComputerPlay`).

    With ``SimOptions.lobby`` it starts at the start menu, as the daemon does with no
    game to resume; after a game, ``ok`` opens the menu again.
    """

    def __init__(self, opts: SimOptions) -> None:
        self.opts = opts
        opened = open_table(opts)
        self.table = opened.table
        self.rig = opened.rig
        self.world = opened.world
        self.stream = opened.stream
        self.resumed = opened.resumed
        """Whether the game was resumed from the journal (its seed and options are its own)."""
        self.time = Stepper(self.table, self.rig, self.stream)
        self.interpreter = ScriptInterpreter(self.table, self.rig, self.world, self.time)
        self.computer = ComputerPlay(self.interpreter, random.Random(opts.seed), opts.levels)
        # While the computer thinks, whoever asks for its move lets the clock run on.
        self.table.think_wait = self.computer.await_thought
        if self.table.on_table is not None:
            self.table.on_table.think_wait = self.computer.await_thought

    # -- playing ------------------------------------------------------------------
    def start(self) -> None:
        """Switch on: the first scans settle and the OLED shows the first screen.

        The state is built for the ``--json`` stream only when someone listens by now.
        """
        session = self.table.on_table
        state = self.stream.state
        if self.stream.listeners and session is not None and state not in session.listeners:
            session.listeners.append(state)
        if self.table.lobby is not None:
            self.table.lobby.refresh()
        self.advance(0.5)
        # The table reads its board before play starts (the first snapshot of a swept
        # board waits for two sweeps).
        end = self.clock.now() + LOOK_S
        while not self.table.loop.board_read and self.clock.now() < end:
            self.advance(self.time.step_s)
        self.interpreter.wait_for_board(looks=True)

    def run_script(self, lines: Iterable[Line]) -> None:
        """Run script lines; a script given whole is checked whole before anything runs.

        Lines read from a pipe are checked one by one as they arrive.
        """
        if isinstance(lines, Sequence):
            for line in lines:
                self.interpreter.check_line(line)
        for line in lines:
            self.computer.play_computer_seats()
            self.interpreter.run_line(line)
        self.computer.play_computer_seats()
        # The last lines' pieces are shown once the board has read them.
        self.interpreter.wait_for_board(looks=True)
        self.interpreter.look()

    def final(self) -> dict[str, Any]:
        if self.table.on_table is None:
            lobby = self.table.lobby
            return {
                "final": True,
                "game": None,
                "lobby": lobby.stage if lobby is not None else None,
                "scores": {},
                "winner": None,
                "outcome": None,
                "moves": 0,
                "journal_game": None,
            }
        game = self.session.game
        outcome = game.outcome
        winner: Any = None
        if outcome is not None and not outcome.draw:
            names = [game.seat_name(p) for p in outcome.winners]
            winner = names[0] if len(names) == 1 else names
        return {
            "final": True,
            "game": game.name,
            "scores": {game.seat_name(p): s for p, s in enumerate(game.scores())},
            "winner": winner,
            "outcome": outcome.to_dict() if outcome else None,
            "moves": len(game.history),
            "journal_game": self.session.game_id,
        }

    def close(self) -> None:
        self.rig.close()
        self.table.journal.close()
        self.rig.release()

    # -- the parts' own, as the simulation's ---------------------------------------
    def advance(self, seconds_: float) -> None:
        """Let simulated time pass, scanning and handling events as the daemon would."""
        self.time.advance(seconds_)

    def run_line(self, line: Line) -> None:
        self.interpreter.run_line(line)

    def check_line(self, line: Line) -> None:
        self.interpreter.check_line(line)

    def look(self) -> None:
        self.interpreter.look()

    def choose(self, value: object) -> None:
        self.interpreter.choose(value)

    def play_computer(
        self, max_plies: int = MAX_PLIES, choose: Callable[[Game], Action] | None = None
    ) -> None:
        self.computer.play_computer(max_plies, choose)

    def play_computer_seats(self) -> None:
        self.computer.play_computer_seats()

    def set_up(self) -> None:
        self.computer.set_up()

    @property
    def session(self) -> Session[Any]:
        """The game's session (the last game's, while the start menu is open after it)."""
        return self.interpreter.session

    @property
    def kit(self) -> Kit:
        return self.interpreter.kit

    @property
    def hand(self) -> Hand[Any]:
        return self.interpreter.hand

    @property
    def on_table(self) -> Session[Any] | None:
        return self.table.on_table

    @property
    def lobby(self) -> Lobby | None:
        return self.table.lobby

    @property
    def journal(self) -> Journal:
        return self.table.journal

    @property
    def profile(self) -> Profile:
        return self.table.profile

    @property
    def loop(self) -> Loop:
        return self.table.loop

    @property
    def listeners(self) -> list[Callable[[dict[str, Any]], None]]:
        return self.stream.listeners

    @property
    def commits(self) -> list[Callable[[Played], None]]:
        return self.stream.commits

    @property
    def step_s(self) -> float:
        return self.time.step_s

    @property
    def rng(self) -> random.Random:
        return self.computer.rng

    @property
    def clock(self) -> FakeClock:
        return self.rig.clock

    @property
    def dice(self) -> DiceSource:
        return self.rig.dice

    @property
    def oled(self) -> Any:
        return self.rig.oled

    @property
    def board(self) -> SensorBoard:
        return self.rig.board

    @property
    def buttons(self) -> SimButtons:
        return self.rig.buttons

    @property
    def signals(self) -> Any:
        return self.rig.signals

    @property
    def lights(self) -> LightSink:
        return self.rig.lights

    @property
    def serial_sim(self) -> SimulatedSerialBoard | None:
        return self.rig.serial_sim
