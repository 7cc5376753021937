"""DoubleCross's computer player: plays the planner's best plan one action at a time
(``games.doublecross.planner``) and ends the turn when nothing pays. Choosing for the
seat to move, it never ends the game: after a round of passes that is the last
passer's choice, which a computer seat makes out of turn (``out_of_turn``).
"""

from __future__ import annotations

import random

from games.core import Action, Game, Player, PlayerId
from games.doublecross.actions import EndGame
from games.doublecross.game import DoubleCross
from games.doublecross.planner import Planner
from games.errors import GameError


class DoubleCrossPlayer(Player):
    """A computer player for DoubleCross (``games.core.Player``): plays its best plan
    one action at a time."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(0)
        self._plan: list[Action] = []
        self._at = -1

    def choose(self, game: Game) -> Action:
        if not isinstance(game, DoubleCross):
            raise GameError(f"this player plays DoubleCross, not {game.title}")
        planner = Planner(game.rules, game.state, game.word_judge)
        if self._plan and self._at == len(game.history):
            action = self._plan[0]
            if game.judge(action).accepted:
                self._plan.pop(0)
                self._at += 1
                return action
        self._plan = []
        best = next((p for p in planner.plans() if p.value > 0), None)
        if best is None:
            return planner.fallback()
        self._plan = best.actions[1:]
        self._at = len(game.history) + 1
        return best.actions[0]

    def out_of_turn(self, game: Game, seat: PlayerId) -> Action | None:
        """The last passer of a full round of passes ends the game: the computer passes
        only when nothing it could play pays, and a round of passes means no one else
        found anything either, so waiting longer only passes the turn round again."""
        return EndGame(seat) if seat in game.out_of_turn_seats() else None


__all__ = ["DoubleCrossPlayer", "Planner"]
