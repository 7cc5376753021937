"""Double Double Dominoes' computer players, one per level (``games.levels``).

The standard player is ``DominoesPlayer`` (``game.py``): the placement worth most to
it now, less what it hands the others, with a look along the chains a double opens.
The beginner lays a domino where it fits, at random more often than not; the expert
adds what each placement leaves itself: the best the dominoes it keeps could score on
its next turn on the board the placement leaves (half counted: the next player lays
a domino first), less the reply the next player may expect; a double that lets the
turn go on is judged by the best way the turn goes on from it. It never looks at
another hand or the boneyard.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from math import comb

from games.core import Action, Game, Player, PlayerId
from games.dominoes.board import (
    DIAMONDS,
    MAX_PIP,
    TRACK_LENGTH,
    Board,
    Domino,
    cell_index,
    double_six_sets,
    track_pips,
)
from games.dominoes.game import (
    CHAIN_LOOKAHEAD,
    HAND_SIZE,
    TRACK_BONUS,
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
"""What a point the mover may expect from its own next turn counts."""
REPLY_WEIGHT = 1.0
"""What a point the next player may expect from its reply counts against a placement."""
GAME_WON = 30.0
"""What reaching the victory total is worth beyond its points, in points."""
PIPS = range(MAX_PIP + 1)
WEIGHED = 10
"""The placements worth most now that the expert looks past."""
CHAIN_DEPTH = 2
"""How many doubles deep the expert follows a turn that goes on after a double."""


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
    """Each placement's points less what it hands the others, plus what it leaves: the
    reply the next player may expect from the dominoes it could hold, and the mover's
    own next turn with the dominoes it keeps and those it may draw, both on the board
    the placement leaves and only while draws are left for that turn to come. A double
    that lets the turn go on is worth the best way the turn can go on: ending it, or
    the best domino beside it with what that leaves in turn."""

    def __init__(
        self,
        rng: random.Random,
        reply_weight: float | None = None,
        next_weight: float | None = None,
    ) -> None:
        self.standard = DominoesPlayer(rng)
        self.rng = rng
        self.reply_weight = REPLY_WEIGHT if reply_weight is None else reply_weight
        self.next_weight = NEXT_WEIGHT if next_weight is None else next_weight

    def choose(self, game: Game) -> Action:
        dominoes = _game(game)
        phase = dominoes.phase
        if phase not in (Phase.PLAY, Phase.CHAIN):
            return self.standard.choose(dominoes)
        options = dominoes.placements()
        if not options:
            return EndTurn()
        best_i, best_v = self._best(dominoes, options, 0)
        if phase == Phase.CHAIN and best_v < self._left(dominoes, View(dominoes), None):
            return EndTurn()
        return options[best_i]

    def _best(self, game: Dominoes, options: Sequence[Place], depth: int) -> tuple[int, float]:
        """The best of ``options`` and its worth: its points less what it hands the
        others, and what the turn leaves after it (:meth:`_after`)."""
        values = self.standard._values(game, options, depth=CHAIN_LOOKAHEAD)  # no chains
        order = sorted(range(len(options)), key=lambda i: -values[i])[:WEIGHED]
        view = View(game)
        best_i, best_v = -1, float("-inf")
        for i in order:
            value = values[i]
            if value < WINNING:
                value += self._after(game, view, options[i], depth)
            if value > best_v:
                best_i, best_v = i, value
        return best_i, best_v

    def _after(self, game: Dominoes, view: View, place: Place, depth: int) -> float:
        """What ``place`` leaves the mover (:meth:`_left`); for a double that lets the
        turn go on, the better of ending the turn after it and the best domino laid
        beside it, each with what it leaves (up to ``CHAIN_DEPTH`` doubles deep)."""
        if place.domino_a != place.domino_b or depth >= CHAIN_DEPTH:
            return self._left(game, view, place)
        after = game.copy()
        after.apply(place)
        if after.phase != Phase.CHAIN:
            return self._left(game, view, place)
        stop = self._left(after, view, None)  # the double laid: the same dominoes unseen
        follow = after.placements()
        if not follow:
            return stop
        return max(stop, self._best(after, follow, depth + 1)[1])

    def _left(self, game: Dominoes, view: View, place: Place | None) -> float:
        """What the position after ``place`` (None: the turn ended as it stands) is
        worth to the mover beyond the placement's own points: the mover's next turn
        less the next player's reply, each weighed."""
        me = game.to_move
        board = game.board
        scores = game.scores()
        kept = game.hand(me)
        if place is not None:
            board = board.copy()
            ia, ib = cell_index(place.cell_a), cell_index(place.cell_b)
            gains = _gains(scores, me, ia, ib, place.domino_a, place.domino_b)
            scores = [s + g for s, g in zip(scores, gains, strict=True)]
            board.lay(place.domino, ia, ib, me)
            kept.remove(place.domino.key())
            if not board.slots():
                return 0.0
        # The turn's refill, the next player's draw, then the mover's own draw.
        left = game.boneyard_count
        refill = min(left, max(0, HAND_SIZE - len(kept)))
        left -= refill
        if refill and left == 0:
            return 0.0  # the mover draws the last domino: the game ends with this turn
        nxt = (me + 1) % game.players
        best = _best_by_kind(board, scores, game.victory_total)
        value = 0.0
        if left > 0:
            holds = min(len(view.pool), len(game.hand(nxt)) + 1)
            reply = view.expected_best(best, nxt, holds)
            value -= self.reply_weight * reply
            left -= game.players - 1  # each of the others draws before the mover's turn
        if left > 0:
            own = max((best[d][me] for d in kept if d in best), default=None)
            value += self.next_weight * view.expected_best(best, me, refill + 1, own)
        return value


class View:
    """What the mover can know of the dominoes it cannot see: every domino of the sets
    not on the board and not in its own hand (the others' hands, the boneyard and the
    face-down pit alike), each as likely to be anywhere among them."""

    def __init__(self, game: Dominoes) -> None:
        pool = Counter(double_six_sets(3 if game.players >= 5 else 2))
        pool.subtract(laid.domino.key() for laid in game.board.laid)
        pool.subtract(game.hand(game.to_move))
        self.pool: list[Domino] = sorted(pool.elements())

    def expected_best(
        self,
        best: dict[Domino, list[float]],
        seat: PlayerId,
        holds: int,
        floor: float | None = None,
    ) -> float:
        """The expected value of the best domino ``seat`` can lay when it holds
        ``holds`` dominoes drawn from the unseen ones (and one worth ``floor`` of its
        own, if given); 0 when none of them fits anywhere."""
        fitting = sorted(best[d][seat] for d in self.pool if d in best)
        total = len(self.pool)
        holds = min(holds, total)
        if holds <= 0:
            return 0.0 if floor is None else floor
        misses = total - len(fitting)
        ways = comb(total, holds)
        # The chance that the best of the hand is the r-th of the unseen, counted
        # from the least (those that fit nowhere first).
        value = (0.0 if floor is None else floor) * comb(misses, holds) / ways
        for j, v in enumerate(fitting):
            chance = comb(misses + j, holds - 1) / ways
            value += chance * (v if floor is None else max(v, floor))
        return value


def _gains(scores: Sequence[int], mover: PlayerId, ia: int, ib: int, a: int, b: int) -> list[int]:
    """As ``Dominoes.gains`` for pips ``a``, ``b`` on cells ``ia``, ``ib``, with ``scores``."""
    out = [TRACK_BONUS if track_pips(min(s, TRACK_LENGTH)) in (a, b) else 0 for s in scores]
    out[mover] += (DIAMONDS.get(ia, 0) + DIAMONDS.get(ib, 0)) * (2 if a == b else 1)
    return out


def _best_by_kind(board: Board, scores: Sequence[int], total: int) -> dict[Domino, list[float]]:
    """For each kind of domino that fits somewhere on ``board``: the most each seat
    could make of it as the mover, its points less what it hands the others (shared
    among them), with ``GAME_WON`` more where the points reach the victory total."""
    players = len(scores)
    share = 1 / (players - 1)
    track = [track_pips(min(s, TRACK_LENGTH)) for s in scores]
    bonus = [
        [[TRACK_BONUS if t is not None and t in (a, b) else 0 for t in track] for b in PIPS]
        for a in PIPS
    ]
    out: dict[Domino, list[float]] = {}
    for slot in board.slots():
        c0, c1 = slot.cells
        diamond = DIAMONDS.get(c0, 0) + DIAMONDS.get(c1, 0)
        n0, n1 = slot.needs
        for a in PIPS if n0 is None else (n0,):
            for b in PIPS if n1 is None else (n1,):
                points = diamond * 2 if a == b else diamond
                gets = bonus[a][b]
                handed = sum(gets)
                key = Domino(a, b) if a <= b else Domino(b, a)
                now = out.get(key)
                if now is None:
                    now = out[key] = [float("-inf")] * players
                for m in range(players):
                    mine = points + gets[m]
                    value = mine - (handed - gets[m]) * share
                    if scores[m] + mine >= total:
                        value += GAME_WON
                    now[m] = max(now[m], value)
    return out


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
