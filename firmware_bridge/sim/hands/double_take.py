"""The simulated hand for Double Take: lift, place, lift the captured, or decline."""

from __future__ import annotations

from games.core import Action
from games.double_take import Step as Move

from ...referees.double_take import DoubleTakeReferee
from .base import Hand, Step


class DoubleTakeHand(Hand[DoubleTakeReferee]):
    def steps(self, action: Action) -> list[Step]:
        if not isinstance(action, Move):
            return []
        game = self.referee.game
        colour = game.seat_name(game.to_move)
        steps: list[Step] = [("lift", action.frm), ("place", action.to, colour)]
        steps += [("lift", cell) for cell in action.captures]
        if not action.captures and game.sandwiched(action.frm, action.to):
            steps.append(("press", "ok"))  # decline the capture
        return steps
