"""What the Doubles Wild expert weighs: each spot by the points every seat may expect
at the end of the game, and by what the board it leaves offers the next seat's roll.

A seat's points are its three-in-a-rows (a run of L holds L − 2), so what a seat may
expect is the sum, over every three spots in a row, of the chance that all three hold
its balls at the end. A spot's *gain* is the change playing it makes to those sums,
ours less everyone else's (``spot_gains``). The next seat then rolls: it takes the best
gain its roll allows, re-rolling one pair or both when that promises more
(``roll_expectation``). The expert's value of a spot is its gain less what the next
seat may expect from the board it leaves (``lookahead``): a spot that leaves an
opponent's two-in-a-row open to a wild line, or a lone ball to attack, costs what
that roll is worth to the opponent. Future dice are never known: every roll is
weighed by its chance.

Values are in tenths of a point, as the other levels' are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from games.core import PlayerId
from games.doubles_wild import board as geo
from games.doubles_wild import odds

POINT = 10.0
"""A point scored, in the tenths every value is counted in."""

PAIR_SUMS: tuple[tuple[int | None, float], ...] = (
    *(
        (s, sum(1 for a in range(1, 7) for b in range(1, 7) if a != b and a + b == s) / 36)
        for s in range(geo.LOW, geo.HIGH + 1)
    ),
    (None, 6 / 36),
)
"""A pair of dice: each non-double sum with its chance, and ``None`` for a double."""


def _others(window: tuple[int, ...], i: int) -> tuple[int, int]:
    j, k = (n for n in window if n != i)
    return j, k


PAIRS_THROUGH: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(_others(window, i) for window in geo.WINDOWS[i]) for i in range(len(geo.CELLS))
)
"""For each spot: the other two spots of every three-in-a-row through it."""

_SUM_CHANCE: dict[int, float] = {s: p for s, p in PAIR_SUMS if s is not None}
TURN_CHANCE: tuple[float, ...] = tuple(
    (_SUM_CHANCE[geo.row_of(i)] + 1 / 6) * (_SUM_CHANCE[geo.col_of(i)] + 1 / 6)
    for i in range(len(geo.CELLS))
)
"""For each spot, the chance that one roll (no re-roll) allows it: its row's sum or a
red double, and its column's sum or a blue double."""

_SPOTS = range(len(geo.CELLS))
_ROWS = tuple(geo.row_cells(r) for r in range(geo.LOW, geo.HIGH + 1))
_COLS = tuple(geo.col_cells(c) for c in range(geo.LOW, geo.HIGH + 1))
_CHANCES = tuple(p for _, p in PAIR_SUMS)


@lru_cache(maxsize=256)
def takes(balls: int, reach: float) -> tuple[float, ...]:
    """For each empty spot, the chance a seat with ``balls`` left ever gets a roll for
    it: 1 − e^(−reach × the chance a roll allows the spot × balls)."""
    return tuple(1.0 - math.exp(-reach * TURN_CHANCE[i] * balls) for i in _SPOTS)


def _in_line(board: Sequence[int], i: int, owner: int) -> bool:
    """Whether a ball of ``owner`` on spot ``i`` is part of a line (as ``geo.protected``)."""
    return any(board[j] == owner == board[k] for j, k in PAIRS_THROUGH[i])


def spot_gains(
    board: Sequence[int],
    me: PlayerId,
    seats: Sequence[PlayerId],
    balls: Sequence[int],
    reach: float,
    risk: float,
    later: float,
    spent: float,
) -> tuple[float | None, ...]:
    """For each spot, what playing it is worth to ``me`` (None: blocked): the change it
    makes to the points every seat may expect at the end, less ``spent`` for the ball.

    The chance a spot holds a seat's ball at the end is 1 for its ball in a line and 0
    for another's; for an empty spot, the chance the seat takes it (``takes``); for an
    unprotected ball, the chance of a battle for it (``risk`` of it counted) and of the
    attacker winning. ``later`` is how much of our own chance of taking a spot anyway
    counts against taking it now."""
    empty = geo.EMPTY
    live = tuple(seats)
    left = [balls[p] if p in live else 0 for p in range(len(balls))]
    attack = odds.attacker_chance()
    held = attack * risk
    table = [takes(b, reach) for b in left]
    line = [owner != empty and _in_line(board, i, owner) for i, owner in enumerate(board)]
    chance: dict[PlayerId, list[float]] = {}
    for p in live:
        mine = table[p]
        rivals = [table[q] for q in range(len(left)) if q != p]
        out = []
        for i, owner in enumerate(board):
            if owner == empty:
                out.append(mine[i])
            elif line[i]:
                out.append(1.0 if owner == p else 0.0)
            elif owner == p:
                out.append(1.0 - held * max(t[i] for t in rivals))
            else:
                out.append(held * mine[i])
        chance[p] = out
    values: list[float | None] = []
    after = list(board)
    for i, owner in enumerate(board):
        if owner == me or line[i]:
            values.append(None)
            continue
        after[i] = me
        if _in_line(after, i, me):
            new = {p: 1.0 if p == me else 0.0 for p in live}
        else:
            new = {p: held * table[p][i] for p in live}
            new[me] = 1.0 - held * max(table[p][i] for p in live if p != me)
        after[i] = owner
        gain = 0.0
        pairs = PAIRS_THROUGH[i]
        for p in live:
            theirs = chance[p]
            change = new[p] - theirs[i] * (later if p == me else 1.0)
            if change == 0.0:
                continue
            rest = sum(theirs[j] * theirs[k] for j, k in pairs)
            gain += rest * change if p == me else -rest * change
        values.append((POINT * gain if owner == empty else attack * POINT * gain) - spent)
    return tuple(values)


def roll_expectation(values: Sequence[float | None]) -> float:
    """What a seat may expect from its roll when ``values`` are its spots' worth (None:
    blocked): the best spot the roll allows (0 when it allows none and the turn just
    ends), after re-rolling one pair or both whenever that promises more."""

    def best(spots: Sequence[int]) -> float:
        allowed = [v for v in (values[i] for i in spots) if v is not None]
        return max(allowed) if allowed else 0.0

    worth = [0.0 if v is None else v for v in values]
    rows = [best(cells) for cells in _ROWS]
    # roll[a][b]: red pair a, blue pair b (the last of each: a double).
    roll = [[*(worth[i] for i in cells), row] for cells, row in zip(_ROWS, rows, strict=True)]
    roll.append([*(best(cells) for cells in _COLS), best(_SPOTS)])
    n = len(_CHANCES)
    red = [sum(_CHANCES[a] * roll[a][b] for a in range(n)) for b in range(n)]
    blue = [sum(_CHANCES[b] * roll[a][b] for b in range(n)) for a in range(n)]
    both = sum(_CHANCES[a] * blue[a] for a in range(n))
    return sum(
        _CHANCES[a] * _CHANCES[b] * max(roll[a][b], red[b], blue[a], both)
        for a in range(n)
        for b in range(n)
    )


def lookahead(
    board: tuple[int, ...],
    me: PlayerId,
    seats: tuple[PlayerId, ...],
    balls: tuple[int, ...],
    reach: float,
    risk: float,
    later: float,
    spent: float,
    reply: float,
) -> tuple[float | None, ...]:
    """For each spot, its gain to ``me`` (``spot_gains``) less ``reply`` times what the
    next seat may expect from its roll on the board the spot leaves, counted from the
    board a blocked turn leaves (so that a blocked turn is worth 0). A battle leaves
    one board if it is won and another if it is lost, each by its chance."""
    gains = spot_gains(board, me, seats, balls, reach, risk, later, spent)
    if len(seats) < 2 or reply == 0.0:
        return gains
    nxt = seats[(seats.index(me) + 1) % len(seats)]
    less = tuple(b - (p == me) for p, b in enumerate(balls))

    def expect(after: Sequence[int], left: tuple[int, ...]) -> float:
        return roll_expectation(spot_gains(after, nxt, seats, left, reach, risk, later, spent))

    base = expect(board, balls)
    lost: float | None = None
    attack = odds.attacker_chance()
    out: list[float | None] = []
    after = list(board)
    for i, gain in enumerate(gains):
        if gain is None:
            out.append(None)
            continue
        owner = board[i]
        after[i] = me
        expected = expect(after, less)
        after[i] = owner
        if owner != geo.EMPTY:
            if lost is None:
                lost = expect(board, less)
            expected = attack * expected + (1.0 - attack) * lost
        out.append(gain - reply * (expected - base))
    return tuple(out)
