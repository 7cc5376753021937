"""Battle odds in Doubles Wild: which dice to keep, by exact win chances under best play.

A battle is six rolls, attacker then defender three times; before its second and
third rolls a side keeps some dice and rolls the rest. Each side keeps the dice that
maximise its chance of winning, assuming the other side does the same. A win only
needs a higher final total, so among ``j`` kept dice the ``j`` highest are always best;
the only choice is how many. Dice are held as tuples sorted high to low.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from functools import cache

Dice = tuple[int, ...]
DICE = 3
FACES = range(1, 7)
_EPS = 1e-12


def _outcomes(k: int) -> tuple[tuple[Dice, float], ...]:
    counts = Counter(
        tuple(sorted(faces, reverse=True)) for faces in itertools.product(FACES, repeat=k)
    )
    total = 6**k
    return tuple((dice, n / total) for dice, n in sorted(counts.items()))


OUTCOMES: tuple[tuple[tuple[Dice, float], ...], ...] = tuple(_outcomes(k) for k in range(4))
"""For 0–3 dice rolled: each sorted result with its probability."""

_SUMS: tuple[dict[int, float], ...] = tuple(
    {
        s: sum(p for dice, p in OUTCOMES[k] if sum(dice) == s)
        for s in {sum(d) for d, _ in OUTCOMES[k]}
    }
    for k in range(4)
)


def _tail(k: int, need: int) -> float:
    """P(k dice sum to at least ``need``)."""
    return sum(p for s, p in _SUMS[k].items() if s >= need)


def _merge(kept: Dice, rolled: Dice) -> Dice:
    return tuple(sorted(kept + rolled, reverse=True))


def _best(options: Sequence[float]) -> tuple[int, float]:
    """The number kept (highest on ties, so settled dice stay put) and its chance."""
    best_j = 0
    for j, value in enumerate(options):
        if value >= options[best_j] - _EPS:
            best_j = j
    return best_j, options[best_j]


# Each stage returns the chance of the side about to choose; the stage after is the
# other side's, so its chance is subtracted from 1.


def _defender_last(defender: Dice, target: int) -> list[float]:
    """Defender's chance per number kept, needing ``target`` (a tie) on the last roll."""
    return [_tail(DICE - j, target - sum(defender[:j])) for j in range(DICE + 1)]


@cache
def _defender_last_best(defender: Dice, target: int) -> float:
    return _best(_defender_last(defender, target))[1]


@cache
def _attacker_last_kept(defender: Dice, kept_sum: int, rolled: int) -> float:
    return sum(
        p * (1 - _defender_last_best(defender, kept_sum + s)) for s, p in _SUMS[rolled].items()
    )


def _attacker_last(attacker: Dice, defender: Dice) -> list[float]:
    return [_attacker_last_kept(defender, sum(attacker[:j]), DICE - j) for j in range(DICE + 1)]


@cache
def _attacker_last_best(attacker: Dice, defender: Dice) -> float:
    return _best(_attacker_last(attacker, defender))[1]


@cache
def _defender_second_kept(attacker: Dice, kept: Dice) -> float:
    return sum(
        p * (1 - _attacker_last_best(attacker, _merge(kept, rolled)))
        for rolled, p in OUTCOMES[DICE - len(kept)]
    )


def _defender_second(defender: Dice, attacker: Dice) -> list[float]:
    return [_defender_second_kept(attacker, defender[:j]) for j in range(DICE + 1)]


@cache
def _defender_second_best(defender: Dice, attacker: Dice) -> float:
    return _best(_defender_second(defender, attacker))[1]


@cache
def _attacker_second_kept(defender: Dice, kept: Dice) -> float:
    return sum(
        p * (1 - _defender_second_best(defender, _merge(kept, rolled)))
        for rolled, p in OUTCOMES[DICE - len(kept)]
    )


def _attacker_second(attacker: Dice, defender: Dice) -> list[float]:
    return [_attacker_second_kept(defender, attacker[:j]) for j in range(DICE + 1)]


def _sorted(dice: Sequence[int]) -> Dice:
    return tuple(sorted(dice, reverse=True))


def keep_count(own: Sequence[int], other: Sequence[int] | int, attacker: bool, roll: int) -> int:
    """How many of ``own`` dice to keep (the highest) before own roll ``roll`` (2 or 3).

    ``other`` is the other side's dice as they stand, or for the defender's last roll
    the attacker's final total.
    """
    mine = _sorted(own)
    if not attacker and roll == DICE:
        target = other if isinstance(other, int) else sum(other)
        return _best(_defender_last(mine, target))[0]
    if isinstance(other, int):
        raise ValueError("only the defender's last roll is judged against a total")
    theirs = _sorted(other)
    if attacker and roll == 2:
        options = _attacker_second(mine, theirs)
    elif attacker and roll == DICE:
        options = _attacker_last(mine, theirs)
    elif roll == 2:
        options = _defender_second(mine, theirs)
    else:
        raise ValueError(f"a side chooses dice to keep before roll 2 or 3, not {roll}")
    return _best(options)[0]


def keep_indices(own: Sequence[int], count: int) -> tuple[int, ...]:
    """Positions of the ``count`` highest dice in ``own`` (earlier first on ties)."""
    order = sorted(range(len(own)), key=lambda i: (-own[i], i))
    return tuple(sorted(order[:count]))


@cache
def attacker_chance() -> float:
    """The attacker's chance of winning a battle not yet begun, both sides playing best."""
    return sum(
        pa * pd * _best(_attacker_second(a, d))[1]
        for a, pa in OUTCOMES[DICE]
        for d, pd in OUTCOMES[DICE]
    )
