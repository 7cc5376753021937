"""The simulator's computer play: the computer's quick hand carrying out the moves
the OLED shows for its seats, or playing every seat to the end of a game, and setting
a resumed game's board up as the OLED asks.

The computer thinks off the loop's thread as at a real table; while it does, the
simulated clock is moved on by the time its think took (measured), scanning and
handling events as it goes, so that the time is not hidden: the OLED says it thinks
after :data:`~firmware_bridge.runtime.thinking.THINKING_AFTER_S`, and the move is
shown once the clock has passed the think.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.core import Action, Game, Player

from ..runtime.session import Session
from ..runtime.thinking import thinker
from .errors import SimError
from .interpreter import ScriptInterpreter
from .script import Line

MAX_PLIES = 2000
FIRMWARE_DEBOUNCE_S = 0.06
"""Margin for the Pico's own debounce before the host's settle window starts."""
THINK_WAIT_S = 600.0
"""How long (in real time) the simulation waits for one of the computer's thinks."""


def _out_of_turn(game: Game, players: dict[int, Player]) -> Action | None:
    """What a seat that is not to move does now, if the rules let it and its player
    chooses to (the last passer ending a DoubleCross game)."""
    for seat in game.out_of_turn_seats():
        player = players.get(seat)
        action = player.out_of_turn(game, seat) if player is not None else None
        if action is not None:
            return action
    return None


class ComputerPlay:
    """The simulated hand playing the computer's moves (``rng``: where each computer
    player's own random draws come from)."""

    def __init__(
        self,
        interpreter: ScriptInterpreter,
        rng: random.Random,
        levels: dict[int, int] | None = None,
    ) -> None:
        self.interpreter = interpreter
        self.rng = rng
        self.levels = dict(levels or {})
        """The level of each seat given one, when the computer plays every seat."""

    @property
    def session(self) -> Session[Any]:
        return self.interpreter.session

    def play_computer_seats(self) -> None:
        """While a computer seat is to move, carry out the move the OLED shows."""
        table = self.interpreter.table
        if table.on_table is None or table.lobby is not None:
            return
        for _ in range(MAX_PLIES):
            expected = self.expected()
            if expected is None or self.session.game.outcome is not None:
                return
            if self.session.restoring:
                self.set_up()
            game = self.session.game
            before = len(game.history)
            for step in self.interpreter.hand.steps(expected):
                self.interpreter.carry_out(Line("computer", before + 1, step[0], tuple(step[1:])))
            if len(self.session.game.history) == before:
                raise SimError(
                    f"the board did not take the computer's move {expected.to_dict()}: "
                    f"{self.session.state().oled}"
                )
        raise SimError(f"the computer seats did not stop within {MAX_PLIES} moves")

    def expected(self) -> Action | None:
        """The move the OLED shows for a computer seat, once the computer has thought
        (None: no computer seat moves now)."""
        self.await_thought()
        return self.session.expected()

    def await_thought(self) -> None:
        """While the computer thinks (its move, or a hint asked for), let the simulated
        clock run on, scanning and handling events, by the time its think took
        (measured), until what it thought is known."""
        interpreter = self.interpreter
        for _ in range(MAX_PLIES):
            session = self.session
            computer = session.computer
            if computer is None or session.game.outcome is not None:
                return
            computer.expected(session.game)  # asks the worker, if not asked yet
            asked = computer.thinking(session.game) or computer.hint_thinking(session.game)
            if asked is None:
                return
            if not thinker().wait(THINK_WAIT_S):
                raise SimError(f"the computer thought for over {THINK_WAIT_S:.0f} s")
            due, now = asked.due(), interpreter.rig.clock.now()
            step_s = interpreter.time.step_s
            interpreter.advance(step_s if due is None else max(step_s, due - now))
        raise SimError("the computer's move never came to the table")

    def _player(self, players: dict[int, Player], game: Game) -> Player:
        """The computer player of the seat to move (made the first time it moves; a
        new random draw every move, as the seeded games have always been played)."""
        rng = random.Random(self.rng.random())
        level = self.levels.get(game.to_move)
        make = self.interpreter.kit.make_player
        made = make(game, rng) if level is None else make(game, rng, level)
        return players.setdefault(game.to_move, made)

    def play_computer(
        self, max_plies: int = MAX_PLIES, choose: Callable[[Game], Action] | None = None
    ) -> None:
        """The computer plays every seat until the game ends.

        ``choose`` picks the actions instead of the computer's players (a test that
        replays a known game). A resumed game first gets its board set up as the
        OLED asks, so a game stopped half-way through a move plays on.
        """
        players: dict[int, Player] = {}
        plies = 0
        # A computer's hand is quick: just long enough for each step to settle.
        hand, time = self.interpreter, self.interpreter.time
        settle_s, interval = hand.table.profile.settle_ms / 1000, hand.rig.interval
        hand.pace = settle_s + 2 * interval
        hand.watch_board = True
        serial_sim = hand.rig.serial_sim
        if serial_sim is not None:
            hand.pace += FIRMWARE_DEBOUNCE_S
            if serial_sim.timing is not None:
                # The simulated Pico keeps its own time between the host's reads, so
                # reading the link a few times per settle window shows the host every
                # frame at most that late, for far less work (the hand waits for the
                # board to be read before each step anyway).
                time.step_s = max(interval, settle_s / 3)
        else:
            # The computer's hand changes the board only between steps, so scanning
            # a few times per settle window sees exactly what scanning at the
            # board's rate would, for far less work.
            time.step_s = max(interval, settle_s / 2)
            hand.pace = settle_s + 2 * time.step_s
        self.set_up()
        while self.session.game.outcome is None:
            # Read each time: a take-back or a full disk gives the session a new game.
            game = self.session.game
            if plies >= max_plies:
                raise SimError(f"the game did not end within {max_plies} moves")
            expected = self.expected()
            if choose is not None:
                action = choose(game)
            elif expected is not None:
                action = expected  # the move the OLED shows for a computer seat
            else:
                action = _out_of_turn(game, players) or self._player(players, game).choose(game)
            before = len(game.history)
            for step in self.interpreter.hand.steps(action):
                self.interpreter.carry_out(Line("computer", plies + 1, step[0], tuple(step[1:])))
            if len(self.session.game.history) == before:
                raise SimError(
                    f"the board did not take the computer's move {action.to_dict()}: "
                    f"{self.session.state().oled}"
                )
            plies += 1

    def set_up(self) -> None:
        """Make the fixes a resumed game asks for, one by one, as a player reading the OLED."""
        for _ in range(2 * len(self.interpreter.world.cells) + 10):
            fixes = self.session.pending_fixes() if self.session.restoring else []
            if not fixes:
                return
            fix = fixes[0]
            held = fix.cell in self.interpreter.world.contents
            if fix.action == "lift" and held:
                self.interpreter.world.lift(fix.cell)
            elif fix.action == "place" and not held:
                self.interpreter.world.place(fix.cell, fix.piece.label if fix.piece else "piece")
            # Otherwise the sensors have not yet reported what stands there: wait.
            self.interpreter.advance(self.interpreter.pace)
        raise SimError(f"the board could not be set up: {self.session.state().oled}")
