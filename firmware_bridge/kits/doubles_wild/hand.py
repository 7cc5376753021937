"""The simulated hand for Doubles Wild: fix the board, then press and place as the turn asks."""

from __future__ import annotations

from collections.abc import Mapping

from games.core import Action, Cell
from games.doubles_wild.actions import BATTLE_DICE
from games.doubles_wild.game import COLOURS, Attack, BattleRoll, EndTurn, Keep, Place, Reroll, Roll

from ...referees.fixes import FixAction
from ..hand import Hand, Step
from .referee import REROLL_BUTTONS, DoublesWildReferee
from .turn import attackable, ball_colour

SWEEP_WAIT_S = 0.05
"""How long a simulated hand waits after laying a ball on a reader board, beyond its
pace: the Pico's sweep reads a tag twice, 60 ms apart, before the host's settle
window starts, so a ball settles 0.21–0.22 s after it is laid (0.18 s on the GPIO
matrix): too close to a computer hand's 0.23 s pace to press the next button."""


class DoublesWildHand(Hand[DoublesWildReferee]):
    def piece_labels(self, cells: list[str], piece: str) -> list[str]:
        """A ball by its colour on each cell; a bare ``place r7c5`` lays a stray piece."""
        if piece == "piece":
            return [piece] * len(cells)
        return [ball_colour(piece)] * len(cells)

    def not_the_movers(
        self, verb: str, cells: list[str], labels: list[str], board: Mapping[str, str]
    ) -> str | None:
        """A ball of a colour other than the mover's."""
        if verb != "place" or labels[0] not in COLOURS:
            return None
        game = self.referee.game
        mine = COLOURS[game.turn]
        if labels[0] == mine:
            return None
        if COLOURS.index(labels[0]) >= game.players:
            return f"no one plays {labels[0]} in a {game.players}-player game"
        return f"it is {mine}'s turn, and the ball is {labels[0]}"

    def steps(self, action: Action) -> list[Step]:
        steps = self._fix_steps()
        game = self.referee.game
        if isinstance(action, Roll | BattleRoll):
            steps.append(("press", "roll"))
        elif isinstance(action, Reroll):
            button = {pair: b for b, pair in REROLL_BUTTONS.items()}[action.pair]
            steps.append(("press", button))
        elif isinstance(action, Place):
            steps.append(("place", action.cell, COLOURS[game.turn]))
        elif isinstance(action, EndTurn):
            steps.append(("press", "ok"))
        elif isinstance(action, Attack):
            steps += self._attack_steps(action.cell)
        elif isinstance(action, Keep):
            steps += self._keep_steps(action.dice)
        if not self.referee.reads_tags():
            return steps
        # The next step must not come before the reader sweep has settled the ball.
        waited: list[Step] = []
        for step in steps:
            waited.append(step)
            if step[0] == "place":
                waited.append(("wait", str(SWEEP_WAIT_S)))
        return waited

    def _fix_steps(self) -> list[Step]:
        steps: list[Step] = []
        for fix in self.referee.board_fixes():
            if fix.action is FixAction.LIFT:
                steps.append(("lift", fix.cell))
            elif fix.piece is not None:
                steps.append(("place", fix.cell, fix.piece.label))
        return steps

    def _attack_steps(self, cell: Cell) -> list[Step]:
        game = self.referee.game
        turn = self.referee.turn
        balls = attackable(game)
        target = game.target()
        if not turn.choosing and set(balls) == target and len(target) == 1:
            return [("press", "ok")]
        steps: list[Step] = []
        at = turn.cursor % len(balls) if turn.choosing else 0
        if not turn.choosing:
            steps.append(("press", "ok"))
        goal = balls.index(cell)
        steps += [("press", "right")] * ((goal - at) % len(balls))
        steps.append(("press", "ok"))
        return steps

    def _keep_steps(self, dice: tuple[int, ...]) -> list[Step]:
        battle = self.referee.game.battle
        assert battle is not None
        now = battle.kept[battle.side]
        at = self.referee.turn.die_cursor
        steps: list[Step] = []
        for i in range(BATTLE_DICE):
            if (i in dice) != now[i]:
                steps += [("press", "right")] * ((i - at) % BATTLE_DICE)
                steps.append(("press", "ok"))
                at = i
        return steps


HAND = DoublesWildHand
"""The game's simulated hand, as its kit finds it."""
