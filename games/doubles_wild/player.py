"""Doubles Wild's computer players, one per level (``games.levels``), and a loop that
plays a game out with given dice. The standard player is ``DoublesWildPlayer``; the
beginner keeps its rolls and plays where it fancies; the expert also weighs what each
spot leaves the next player to expect from its roll.

The player only makes decisions (re-roll or not, which spot, which battle dice to
keep); the dice themselves come from outside, as on the real table. Spots are valued
in tenths of a point: a point scored now is worth 10, and lesser terms reward open
lines being built, opponents' lines being cut and balls not thrown away.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import lru_cache

from games.core import Action, Game, Outcome, Player, PlayerId
from games.doubles_wild import board as geo
from games.doubles_wild import odds
from games.doubles_wild.actions import BATTLE_DICE
from games.doubles_wild.game import (
    BATTLE,
    OVER,
    PLACE,
    REROLL_OR_ACT,
    ROLL,
    Attack,
    DoublesWild,
    EndTurn,
    Keep,
    Place,
    dice_action,
)
from games.doubles_wild.lookahead import PAIR_SUMS as _PAIR_SUMS
from games.doubles_wild.lookahead import PAIRS_THROUGH as _PAIRS_THROUGH
from games.doubles_wild.lookahead import POINT, TURN_CHANCE, lookahead, spot_gains
from games.errors import GameError
from games.levels import BEGINNER, DEFAULT, EXPERT, STANDARD, Whim, parse_level

BALL = 1.0
"""What a ball in hand is worth: a spent ball is a later turn given up."""
REROLL_MARGIN = 0.25
OPEN_WINDOW = (0.1, 1.0, 0.0)
"""Value of a three-spot window free of other colours, by own balls already in it
(two already is a line, counted by the points)."""
CUT_WINDOW = (0.0, 0.5, 0.0)
"""Value of cutting an opponent's window, by its balls in it (two: counted as points)."""
CUT_POINT = 0.6
"""An opponent's point denied, relative to one of our own."""

Dice = Callable[[int], tuple[int, ...]]


def _gain(board: Sequence[int], player: PlayerId, i: int) -> int:
    """As ``geo.gain``, unrolled: this runs for every spot at every decision."""
    total = 0
    for back, ahead in geo.RAYS[i]:
        b = 0
        for j in back:
            if board[j] != player:
                break
            b += 1
        a = 0
        for j in ahead:
            if board[j] != player:
                break
            a += 1
        if a + b >= 2:
            total += a + b - 1 - max(0, a - 2) - max(0, b - 2)
    return total


def _window_value(board: Sequence[int], player: PlayerId, i: int) -> float:
    """Lines built and cut by ``player`` taking spot ``i``."""
    value = 0.0
    for j, k in _PAIRS_THROUGH[i]:
        x, y = board[j], board[k]
        if x == geo.EMPTY and y == geo.EMPTY:
            value += OPEN_WINDOW[0]
            continue
        owner = y if x == geo.EMPTY else x
        if y not in (geo.EMPTY, owner):
            continue  # two colours already: nobody's line
        count = (x == owner) + (y == owner)
        value += OPEN_WINDOW[count] if owner == player else CUT_WINDOW[count]
    return value


def _hold_value(board: Sequence[int], owner: PlayerId, i: int) -> float:
    """What ``owner``'s ball on spot ``i`` is worth to its lines still open."""
    value = 0.0
    for j, k in _PAIRS_THROUGH[i]:
        if board[j] in (owner, geo.EMPTY) and board[k] in (owner, geo.EMPTY):
            value += OPEN_WINDOW[(board[j] == owner) + (board[k] == owner)]
    return value


def spot_values(game: DoublesWild) -> tuple[float | None, ...]:
    """For each spot, what playing it is worth to the player whose turn it is (None: blocked)."""
    board = [geo.EMPTY] * len(geo.CELLS)
    for cell, seat in game.board().items():
        board[geo.INDEX[cell]] = seat
    return _spot_values(tuple(board), game.turn, game.seats)


@lru_cache(maxsize=64)
def _spot_values(
    board: tuple[int, ...], me: PlayerId, seats: tuple[PlayerId, ...]
) -> tuple[float | None, ...]:
    rivals = [p for p in seats if p != me]
    chance = odds.attacker_chance()
    out: list[float | None] = []
    for i, owner in enumerate(board):
        if owner == me or (owner != geo.EMPTY and geo.protected(board, i)):
            out.append(None)
            continue
        place = (
            POINT * _gain(board, me, i)
            + CUT_POINT * POINT * max((_gain(board, q, i) for q in rivals), default=0)
            + _window_value(board, me, i)
            - BALL
        )
        if owner == geo.EMPTY:
            out.append(place)
        else:
            won = place + BALL + _hold_value(board, owner, i)
            out.append(chance * won - BALL)
    return tuple(out)


def _best(values: Sequence[float | None], spots: Sequence[int]) -> float:
    """The best play among ``spots``; 0 when all are blocked and the turn just ends."""
    allowed = [v for v in (values[i] for i in spots) if v is not None]
    return max(allowed) if allowed else 0.0


def _roll_value(values: Sequence[float | None], row: int | None, col: int | None) -> float:
    """The best play for a roll naming ``row`` and ``col`` (None: that pair was a double)."""
    if row is None and col is None:
        return _best(values, range(len(values)))
    if row is None:
        assert col is not None
        return _best(values, geo.col_cells(col))
    if col is None:
        return _best(values, geo.row_cells(row))
    return _best(values, (geo.index(row, col),))


def _named(pair: tuple[int, int]) -> int | None:
    return None if pair[0] == pair[1] else sum(pair)


class DoublesWildPlayer(Player):
    """Chooses by expected value: re-rolls, spots and battle dice."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        # Equal spots are split by a fixed per-player order, so that decide() gives the
        # same answer each time it is asked about one position.
        self._order = list(range(len(geo.CELLS)))
        rng.shuffle(self._order)

    def values(self, game: DoublesWild) -> tuple[float | None, ...]:
        """What playing each spot is worth to the seat whose turn it is (None: blocked)."""
        return spot_values(game)

    def reroll_choice(self, game: DoublesWild) -> str | None:
        """``"red"``, ``"blue"`` or ``"both"`` if re-rolling beats the roll as it stands."""
        dice = game.dice
        if game.phase != REROLL_OR_ACT or dice is None:
            return None
        values = self.values(game)
        row, col = _named(dice[0]), _named(dice[1])
        now = _roll_value(values, row, col)
        options = {
            "red": sum(p * _roll_value(values, r, col) for r, p in _PAIR_SUMS),
            "blue": sum(p * _roll_value(values, row, c) for c, p in _PAIR_SUMS),
            "both": sum(
                pr * pc * _roll_value(values, r, c) for r, pr in _PAIR_SUMS for c, pc in _PAIR_SUMS
            ),
        }
        pair = max(options, key=options.__getitem__)
        return pair if options[pair] > now + REROLL_MARGIN else None

    def decide(self, game: Game) -> Action | None:
        """The next decision, or None when the next step is dice the station must roll."""
        dw = _doubles_wild(game)
        phase = dw.phase
        if phase == OVER:
            raise GameError("the game is over: there is nothing to decide")
        if phase == ROLL:
            return None
        if phase == REROLL_OR_ACT and self.reroll_choice(dw) is not None:
            return None
        if phase in (REROLL_OR_ACT, PLACE):
            return self._act(dw)
        battle = dw.battle
        assert phase == BATTLE and battle is not None
        side = battle.side
        rolls = battle.rolls[side]
        if rolls == 0:
            return None
        own = tuple(d or 0 for d in battle.dice[side])
        other = tuple(d or 0 for d in battle.dice[1 - side])
        count = odds.keep_count(own, other, attacker=side == 0, roll=rolls + 1)
        wanted = odds.keep_indices(own, count)
        kept = tuple(i for i, k in enumerate(battle.kept[side]) if k)
        return None if kept == wanted else Keep(wanted)

    def on_the_way(self, game: Game, wanted: Action, made: Action) -> bool:
        """Whether ``made`` is a step towards the decision ``wanted``: the station keeps
        battle dice one press at a time, so keeping two dice is two keeps, the first of
        which keeps one of them."""
        dw = _doubles_wild(game)
        battle = dw.battle
        if not (isinstance(wanted, Keep) and isinstance(made, Keep)) or battle is None:
            return False
        now = {i for i, k in enumerate(battle.kept[battle.side]) if k}
        goal, after = set(wanted.dice), set(made.dice)
        return len(now ^ after) == 1 and len(after ^ goal) < len(now ^ goal)

    def roll_needed(self, game: Game) -> tuple[str, int] | None:
        """The dice to roll next (a kind from ``DICE_KINDS`` and a count), or None."""
        dw = _doubles_wild(game)
        if dw.phase == ROLL:
            return ("roll", 4)
        if dw.phase == REROLL_OR_ACT:
            pair = self.reroll_choice(dw)
            return None if pair is None else (f"reroll-{pair}", 4 if pair == "both" else 2)
        if dw.phase == BATTLE and dw.battle is not None and self.decide(dw) is None:
            return ("battle-roll", BATTLE_DICE - dw.battle.kept_count())
        return None

    def choose(self, game: Game) -> Action:
        """A decision, or the dice the station would roll, taken from this player's rng."""
        action = self.decide(game)
        if action is not None:
            return action
        need = self.roll_needed(game)
        assert need is not None
        kind, count = need
        return dice_action(kind, tuple(self.rng.randint(1, 6) for _ in range(count)))

    def _act(self, game: DoublesWild) -> Action:
        values = self.values(game)
        target = [geo.INDEX[cell] for cell in game.target()]
        if not target:
            return EndTurn()
        rank = {i: n for n, i in enumerate(self._order)}
        best = max(target, key=lambda i: (values[i] or 0.0, -rank[i]))
        cell = geo.CELLS[best]
        return Place(cell) if game.owner(cell) is None else Attack(cell)


def _doubles_wild(game: Game) -> DoublesWild:
    if not isinstance(game, DoublesWild):
        raise GameError(f"this player plays Doubles Wild, not {game.title}")
    return game


def play_out(
    game: DoublesWild,
    players: Sequence[DoublesWildPlayer],
    dice: Dice,
    max_steps: int = 100_000,
) -> Outcome:
    """Play ``game`` to its end: each seat's player decides, ``dice(n)`` rolls n dice."""
    if len(players) != game.players:
        raise GameError(f"give one player per seat: {game.players} seats, {len(players)} players")
    for _ in range(max_steps):
        outcome = game.outcome
        if outcome is not None:
            return outcome
        player = players[game.to_move]
        action = player.decide(game)
        if action is None:
            need = player.roll_needed(game)
            assert need is not None
            kind, count = need
            action = dice_action(kind, dice(count))
        verdict = game.judge(action)
        if not verdict.accepted:
            raise GameError(f"the player chose {action}, which was refused: {verdict.reason}")
        game.apply(action)
    raise GameError(f"the game did not end within {max_steps} steps")


# -- the other levels --------------------------------------------------------------------
BEGINNER_FANCY = 0.75
"""How often the beginner plays where it fancies (and keeps its roll) rather than
where the standard player would."""
REPLY_WEIGHT = 1.0
"""How much of what the next seat may expect from its roll on the board a spot leaves
counts against the spot, for the expert (``lookahead.lookahead``)."""


class DoublesWildBeginner(DoublesWildPlayer):
    """Keeps the roll it gets and plays a spot it may, mostly at random."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.whim = Whim(rng, BEGINNER_FANCY)

    def reroll_choice(self, game: DoublesWild) -> str | None:
        if self.whim.strays(len(game.history)):
            return None
        return super().reroll_choice(game)

    def _act(self, game: DoublesWild) -> Action:
        moment = len(game.history)
        target = sorted(game.target())
        if not target or not self.whim.strays(moment):
            return super()._act(game)
        cell = self.whim.rng(moment).choice(target)
        return Place(cell) if game.owner(cell) is None else Attack(cell)


def _board(game: DoublesWild) -> tuple[int, ...]:
    board = [geo.EMPTY] * len(geo.CELLS)
    for cell, seat in game.board().items():
        board[geo.INDEX[cell]] = seat
    return tuple(board)


def reply_value(board: tuple[int, ...], seat: PlayerId, seats: tuple[PlayerId, ...]) -> float:
    """What ``seat`` may expect from its next roll on ``board``, by the dice odds."""
    values = _spot_values(board, seat, seats)
    return sum(pr * pc * _roll_value(values, r, c) for r, pr in _PAIR_SUMS for c, pc in _PAIR_SUMS)


REACH = 0.5
"""How readily a seat takes a spot later: its chance of ever taking an empty spot is
1 − e^(−REACH × the chance a roll allows the spot × the balls it has left)."""
RISK = 0.5
"""How much of the chance of a battle for an unprotected ball counts: a ball may be
attacked (or won by attacking) when a roll names its spot."""
LATER = 0.5
"""How much of a spot's chance of being taken later anyway counts against taking it now."""
SPENT = 1.0
"""What a ball spent is worth to the expert, in tenths of a point."""


def _takes(i: int, balls: int, reach: float) -> float:
    """The chance a seat with ``balls`` left ever gets a roll for spot ``i``."""
    return 1.0 - math.exp(-reach * TURN_CHANCE[i] * balls)


def reach_chances(
    board: Sequence[int],
    seat: PlayerId,
    balls: Sequence[int],
    reach: float = REACH,
    risk: float = RISK,
) -> list[float]:
    """For each spot, the chance it holds ``seat``'s ball at the end: 1 for its ball in
    a line, 0 for another's in a line; for an empty spot the chance ``seat`` takes it
    with the balls it has left; for an unprotected ball, the chance of a battle for it
    (``risk`` of it counted) and of the attacker winning."""
    attack = odds.attacker_chance() * risk
    out = []
    for i, owner in enumerate(board):
        if owner == geo.EMPTY:
            out.append(_takes(i, balls[seat], reach))
        elif geo.protected(board, i):
            out.append(1.0 if owner == seat else 0.0)
        elif owner == seat:
            threat = max(_takes(i, b, reach) for p, b in enumerate(balls) if p != seat)
            out.append(1.0 - attack * threat)
        else:
            out.append(attack * _takes(i, balls[seat], reach))
    return out


@lru_cache(maxsize=64)
def expected_values(
    board: tuple[int, ...],
    me: PlayerId,
    seats: tuple[PlayerId, ...],
    balls: tuple[int, ...],
    reach: float = REACH,
    risk: float = RISK,
    later: float = LATER,
    spent: float = SPENT,
) -> tuple[float | None, ...]:
    """For each spot, what playing it is worth to ``me`` in tenths of a point (None:
    blocked): the change it makes to the points every seat may expect at the end.

    A seat's points are its three-in-a-rows (a run of L holds L − 2), so what a seat
    may expect is the sum, over every three spots in a row, of the chance that all
    three hold its balls at the end (``reach_chances``; ``lookahead.spot_gains``)."""
    return spot_gains(board, me, seats, balls, reach, risk, later, spent)


class DoublesWildExpert(DoublesWildPlayer):
    """Values each spot by what it changes in the points every seat may expect at the
    end of the game, less what the board it leaves offers the next seat's roll
    (``lookahead.lookahead``), for its re-rolls and its spots alike."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self._seen: tuple[object, tuple[float | None, ...]] | None = None

    def values(self, game: DoublesWild) -> tuple[float | None, ...]:
        board = _board(game)
        balls = tuple(game.balls_left(p) for p in range(game.players))
        # One decision asks several times (re-roll? which spot?): work it out once.
        key = (board, balls, game.turn, game.seats)
        if self._seen is None or self._seen[0] != key:
            values = lookahead(
                board, game.turn, game.seats, balls, REACH, RISK, LATER, SPENT, REPLY_WEIGHT
            )
            self._seen = (key, values)
        return self._seen[1]


def make_player(game: Game, rng: random.Random, level: int = DEFAULT) -> Player:
    """The computer player of ``level`` for a game of Doubles Wild."""
    level = parse_level(level)
    if level == BEGINNER:
        return DoublesWildBeginner(rng)
    if level == EXPERT:
        return DoublesWildExpert(rng)
    assert level == STANDARD
    return DoublesWildPlayer(rng)
