"""Double Double Dominoes' computer players, one per level (``games.levels``).

The standard player is ``DominoesPlayer`` (``game.py``): the placement worth most to
it now, less what it hands the others, with a look along the chains a double opens.
The beginner lays a domino where it fits, at random more often than not; the expert
adds what each placement leaves itself: the best the dominoes it keeps could score on
its next turn on the board the placement leaves (half counted: the next player lays
a domino first). It never looks at another hand or the boneyard.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core import Action, Game, Player
from games.dominoes.board import NAMES, Domino
from games.dominoes.game import (
    WINNING,
    Discard,
    Dominoes,
    DominoesPlayer,
    Draw,
    EndTurn,
    Phase,
    Place,
)
from games.levels import BEGINNER, DEFAULT, EXPERT, STANDARD, Whim, parse_level

BEGINNER_FANCY = 0.75
"""How often the beginner lays a domino of its own fancy rather than the standard one."""
NEXT_WEIGHT = 0.5
"""What a point the dominoes kept could score on the mover's next turn counts."""
WEIGHED = 10
"""The standard player's best placements the expert looks past."""


def _game(game: Game) -> Dominoes:
    if not isinstance(game, Dominoes):
        raise TypeError(f"this player plays Double Double Dominoes, not {game.title}")
    return game


class DominoesBeginner(Player):
    """Lays a domino where it fits, mostly at random; ends a chain at once."""

    def __init__(self, rng: random.Random) -> None:
        self.whim = Whim(rng, BEGINNER_FANCY)

    def choose(self, game: Game) -> Action:
        dominoes = _game(game)
        moment = len(dominoes.history)
        if dominoes.phase not in (Phase.PLAY, Phase.CHAIN) or not self.whim.strays(moment):
            return DominoesPlayer(self.whim.rng(moment)).choose(dominoes)
        if dominoes.phase == Phase.CHAIN:
            return EndTurn()
        options = dominoes.placements()
        if not options:
            return EndTurn()
        return self.whim.rng(moment).choice(options)


class DominoesExpert(Player):
    """The standard player's values, plus what the dominoes each placement keeps could
    score on the mover's next turn on the board it leaves."""

    def __init__(self, rng: random.Random, weight: float | None = None) -> None:
        self.standard = DominoesPlayer(rng)
        self.rng = rng
        self.weight = NEXT_WEIGHT if weight is None else weight

    def choose(self, game: Game) -> Action:
        dominoes = _game(game)
        phase = dominoes.phase
        if phase not in (Phase.PLAY, Phase.CHAIN):
            return self.standard.choose(dominoes)
        options = dominoes.placements()
        if not options:
            return EndTurn()
        values = self.standard._values(dominoes, options, depth=0)
        order = sorted(range(len(options)), key=lambda i: -values[i])[:WEIGHED]
        best_i, best_v = -1, float("-inf")
        for i in order:
            value = values[i]
            if value < WINNING:
                value += self.weight * self._after(dominoes, options[i])
            if value > best_v:
                best_i, best_v = i, value
        if phase == Phase.CHAIN:
            me = dominoes.to_move
            if best_v < self.weight * self._next_turn(dominoes, me, dominoes.hand(me)):
                return EndTurn()
        return options[best_i]

    def _after(self, game: Dominoes, place: Place) -> float:
        """What the dominoes ``place`` keeps could score on the mover's next turn."""
        after = game.copy()
        me = game.to_move
        # Only the board and the scores are read: the copy's hands (and what it drew
        # from the boneyard) stay unlooked-at.
        after.apply(place)
        if after.outcome is not None:
            return 0.0
        kept = game.hand(me)
        kept.remove(place.domino.key())
        return self._next_turn(after, me, kept)

    @staticmethod
    def _next_turn(game: Dominoes, me: int, kept: Sequence[Domino]) -> float:
        """The most one of ``kept`` could score for ``me`` on this board, less what it
        would hand the others (0 where none fits)."""
        slots = game.board.slots()
        saved = game._to_move
        game._to_move = me
        best = 0.0
        try:
            for d in kept:
                for slot in slots:
                    for a, b in ((d.a, d.b),) if d.a == d.b else ((d.a, d.b), (d.b, d.a)):
                        if slot.fits(a, b):
                            cells = NAMES[slot.cells[0]], NAMES[slot.cells[1]]
                            gains = game.gains(Place(a, b, *cells))
                            best = max(best, gains[me] - (sum(gains) - gains[me]))
        finally:
            game._to_move = saved
        return best


def make_player(game: Game, rng: random.Random, level: int = DEFAULT) -> Player:
    """The computer player of ``level`` for a game of Double Double Dominoes."""
    level = parse_level(level)
    if level == BEGINNER:
        return DominoesBeginner(rng)
    if level == EXPERT:
        return DominoesExpert(rng)
    assert level == STANDARD
    return DominoesPlayer(rng)


def why(game: Game, action: Action) -> str:
    """``"+6, hands out 3"``: what a placement scores and gives the others."""
    if not isinstance(game, Dominoes) or not isinstance(action, Place):
        return ""
    gains = game.gains(action)
    mine = gains[game.to_move]
    given = sum(gains) - mine
    words = f"+{mine}"
    if given:
        words += f", hands out {given}"
    return words


__all__ = ["Discard", "DominoesBeginner", "DominoesExpert", "Draw", "make_player", "why"]
