"""Double Take's computer players, one per level (``games.levels``).

The standard player is ``DoubleTakePlayer`` (``game.py``): the most pieces taken,
then the far row reached, then the furthest advance. The beginner mostly steps some
piece forward at random and takes a capture only when its fancy leaves it to the
standard player; the expert searches the game tree (``search.py``).
"""

from __future__ import annotations

import random

from games.core import Action, Game, Pass, Player
from games.double_take.game import DoubleTake, DoubleTakePlayer, Step, _geometry
from games.double_take.search import Search
from games.errors import GameError
from games.levels import BEGINNER, DEFAULT, EXPERT, STANDARD, Whim, parse_level

BEGINNER_FANCY = 0.7
"""How often the beginner plays a step of its own fancy rather than the standard move."""
EXPERT_DEPTH = 8
EXPERT_NODES = 2000
"""Positions the expert visits at most for one move (``bench/bench_levels.py``: its
think time)."""


def _game(game: Game) -> DoubleTake:
    if not isinstance(game, DoubleTake):
        raise TypeError(f"this player plays Double Take, not {game.title}")
    if game.outcome is not None:
        raise GameError("the game is over; there is nothing to choose")
    return game


class DoubleTakeBeginner(Player):
    """Steps a piece at random (forward, or a take it happens upon), now and then
    the standard player's move."""

    def __init__(self, rng: random.Random) -> None:
        self.whim = Whim(rng, BEGINNER_FANCY)

    def choose(self, game: Game) -> Action:
        dt = _game(game)
        steps = dt.legal_steps()
        moment = len(dt.history)
        if not steps:
            return Pass()
        if not self.whim.strays(moment):
            return DoubleTakePlayer(self.whim.rng(moment)).choose(dt)
        return self.whim.rng(moment).choice(steps)


class DoubleTakeExpert(Player):
    """Alpha-beta search to a count of positions (``search.Search``)."""

    def __init__(
        self, rng: random.Random, nodes: int = EXPERT_NODES, depth: int = EXPERT_DEPTH
    ) -> None:
        self.rng = rng
        self.nodes = nodes
        self.depth = depth
        self.last_depth = 0
        """The depth the last search finished (for the bench)."""

    def choose(self, game: Game) -> Action:
        dt = _game(game)
        steps = dt.legal_steps()
        if not steps:
            return Pass()
        if len(steps) == 1:
            return steps[0]
        board = {cell: piece.owner for cell, piece in dt.layout().items()}
        search = Search(
            _geometry(dt.rows), {c: o for c, o in board.items() if o is not None}, dt.to_move
        )
        move, _, self.last_depth = search.best(self.depth, self.nodes)
        if move is None:
            return steps[0]
        step = Step(*move)
        return step if step in steps else steps[0]


def make_player(game: Game, rng: random.Random, level: int = DEFAULT) -> Player:
    """The computer player of ``level`` for a game of Double Take."""
    level = parse_level(level)
    if level == BEGINNER:
        return DoubleTakeBeginner(rng)
    if level == EXPERT:
        return DoubleTakeExpert(rng)
    assert level == STANDARD
    return DoubleTakePlayer(rng)


def why(game: Game, action: Action) -> str:
    """A few words on what ``action`` does: ``"takes 2"``, ``"reaches the far row"``."""
    if not isinstance(game, DoubleTake) or not isinstance(action, Step):
        return ""
    if action.captures:
        return f"takes {len(action.captures)}"
    far = set(game.far_row(game.to_move))
    if action.to in far:
        return "reaches the far row"
    return ""
