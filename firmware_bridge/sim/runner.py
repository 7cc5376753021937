"""``tabletop sim``: a game on simulated hardware, driven by a script or by the computer.

Every layer is the real one: gpiozero devices on mock pins wired as the profile
says, the real matrix scanner and settle filter, the real session and journal,
luma's dummy OLED. Only the hand that moves the pieces and presses the buttons
is simulated, on a fake clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .computer_play import ComputerPlay
from .script import Line
from .table import LOOK_S, SimError, SimOptions

__all__ = ["SimError", "SimOptions", "Simulation"]


class Simulation(ComputerPlay):
    """One simulated table: board, station, OLED, session and loop on a fake clock.

    With ``SimOptions.lobby`` it starts at the start menu, as the daemon does with no
    game to resume; after a game, ``ok`` opens the menu again.
    """

    def start(self) -> None:
        """Switch on: the first scans settle and the OLED shows the first screen.

        The state is built for the ``--json`` stream only when someone listens by now.
        """
        session = self.on_table
        if self.listeners and session is not None and self._on_state not in session.listeners:
            session.listeners.append(self._on_state)
        if self.lobby is not None:
            self.lobby.refresh()
        self.advance(0.5)
        # The table reads its board before play starts (the first snapshot of a swept
        # board waits for two sweeps).
        end = self.clock.now() + LOOK_S
        while not self.loop.board_read and self.clock.now() < end:
            self.advance(self.step_s)
        self._watch_board(looks=True)

    def run_script(self, lines: Iterable[Line]) -> None:
        """Run script lines; a script given whole is checked whole before anything runs.

        Lines read from a pipe are checked one by one as they arrive.
        """
        if isinstance(lines, Sequence):
            for line in lines:
                self.check_line(line)
        for line in lines:
            self.play_computer_seats()
            self.run_line(line)
        self.play_computer_seats()
        # The last lines' pieces are shown once the board has read them.
        self._watch_board(looks=True)
        self.look()

    def final(self) -> dict[str, Any]:
        if self.on_table is None:
            return {
                "final": True,
                "game": None,
                "lobby": self.lobby.stage if self.lobby is not None else None,
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
