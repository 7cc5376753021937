"""The levels every game's computer offers (``games.levels``): their numbers and names."""

from __future__ import annotations

import random

import pytest

from games.errors import BadSettings
from games.levels import BEGINNER, DEFAULT, EXPERT, STANDARD, Whim, next_level, parse_level


def test_a_level_is_a_number_or_a_name() -> None:
    assert parse_level(1) == parse_level("1") == parse_level(" Beginner ") == BEGINNER
    assert parse_level("expert") == EXPERT
    assert DEFAULT == STANDARD


@pytest.mark.parametrize("value", [0, 4, "4", "hard", True, None, 2.0])
def test_anything_else_is_refused_with_the_levels_named(value: object) -> None:
    with pytest.raises(BadSettings, match=r"give 1 \(beginner\), 2 \(standard\), 3 \(expert\)"):
        parse_level(value)


def test_the_levels_go_round() -> None:
    assert [next_level(n) for n in (BEGINNER, STANDARD, EXPERT)] == [STANDARD, EXPERT, BEGINNER]


def test_a_whim_is_the_same_for_the_same_moment_and_strays_as_often_as_asked() -> None:
    whim = Whim(random.Random(4), 0.7)
    assert [whim.strays(m) for m in range(50)] == [whim.strays(m) for m in range(50)]
    share = sum(whim.strays(m) for m in range(2000)) / 2000
    assert 0.65 < share < 0.75
