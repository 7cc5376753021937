"""The dice source: fair faces, repeatable seeds, scripted dice first, clear errors."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from hardware.dice import DiceSource
from hardware.errors import BadDice

ROLLS = 60_000

# Chi-square critical value for 5 degrees of freedom (six faces, one constraint: the
# counts sum to ROLLS) at p = 0.001: a fair die exceeds it one time in a thousand.
# scipy is not installed; test_critical_value_is_the_one_in_a_thousand_point checks it
# against the closed-form tail of the chi-square distribution with 5 degrees of freedom.
CRITICAL_5DF_P001 = 20.515

# For the operating system's dice, which no seed can pin, the bound is far out in the
# tail (p ≈ 1.5e-8) so that a fair source fails about once in 70 million runs, while a
# die that shows a six for one one in ten still fails (test_chi_square_catches_a_loaded_die).
GENEROUS_5DF = 45.0


def chi_square_sf_5df(x: float) -> float:
    """P(X > x) for chi-square with 5 degrees of freedom (closed form for odd df)."""
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)


def chi_square(faces: list[int]) -> float:
    counts = Counter(faces)
    expected = len(faces) / 6
    return sum((counts.get(face, 0) - expected) ** 2 / expected for face in range(1, 7))


def test_critical_value_is_the_one_in_a_thousand_point() -> None:
    assert chi_square_sf_5df(CRITICAL_5DF_P001) == pytest.approx(0.001, rel=1e-3)
    assert chi_square_sf_5df(GENEROUS_5DF) < 1e-7


def test_seeded_dice_are_fair_by_chi_square() -> None:
    faces = list(DiceSource.seeded(2024).roll(ROLLS))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert chi_square(faces) < CRITICAL_5DF_P001


def test_system_dice_are_fair_by_chi_square() -> None:
    faces = list(DiceSource.system().roll(ROLLS))
    assert chi_square(faces) < GENEROUS_5DF


def test_chi_square_catches_a_loaded_die() -> None:
    class Loaded(random.Random):
        """Shows a six instead of a one, one time in ten."""

        def randint(self, a: int, b: int) -> int:
            face = super().randint(a, b)
            if face == 1 and super().random() < 0.1:
                return 6
            return face

    faces = list(DiceSource(Loaded(7)).roll(ROLLS))
    assert chi_square(faces) > GENEROUS_5DF


def test_same_seed_gives_same_dice() -> None:
    assert DiceSource.seeded(5).roll(20) == DiceSource.seeded(5).roll(20)
    assert DiceSource.seeded(5).roll(20) != DiceSource.seeded(6).roll(20)


def test_loaded_dice_come_first_in_order() -> None:
    dice = DiceSource.seeded(1)
    dice.load([5, 4, 2, 4])
    assert dice.roll(2) == (5, 4)
    assert dice.loaded == (2, 4)
    first, second, third = dice.roll(3)
    assert (first, second) == (2, 4)
    assert 1 <= third <= 6
    assert not dice.loaded


def test_loading_does_not_change_the_random_dice_after_it() -> None:
    plain = DiceSource.seeded(3)
    scripted = DiceSource.seeded(3)
    scripted.load([6, 6])
    assert scripted.roll(6)[2:] == plain.roll(4)


@pytest.mark.parametrize("bad", [0, 7, -1, 2.5, "3", True, None])
def test_loading_a_face_no_die_has_is_refused(bad: object) -> None:
    dice = DiceSource.seeded(1)
    with pytest.raises(BadDice, match="whole number from 1 to 6"):
        dice.load([3, bad])
    assert dice.loaded == ()


def test_bad_dice_is_a_value_error_naming_the_position() -> None:
    with pytest.raises(ValueError, match="die 3 is 9"):
        DiceSource.seeded(1).load([1, 2, 9])


@pytest.mark.parametrize("bad", [-1, 1.5, True])
def test_rolling_a_bad_count_is_refused(bad: object) -> None:
    with pytest.raises(BadDice, match="cannot roll"):
        DiceSource.seeded(1).roll(bad)  # type: ignore[arg-type]


def test_rolling_no_dice_gives_nothing() -> None:
    assert DiceSource.seeded(1).roll(0) == ()
