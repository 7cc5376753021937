"""Doubles Wild's levels: the expert weighs what a spot leaves the next player by the
dice odds, the beginner keeps its rolls; both play whole games."""

from __future__ import annotations

import random

from games.doubles_wild import board as geo
from games.doubles_wild.game import DoublesWild, dice_action
from games.doubles_wild.player import (
    DoublesWildBeginner,
    DoublesWildExpert,
    DoublesWildPlayer,
    play_out,
    reply_value,
)


def test_the_next_players_chances_grow_with_the_lines_it_has_open() -> None:
    empty = tuple([geo.EMPTY] * len(geo.CELLS))
    seats = (0, 1)
    assert abs(reply_value(empty, 1, seats)) < 0.1  # nothing to build on yet
    two = list(empty)
    window = next(w for ws in geo.WINDOWS for w in ws)
    two[window[0]] = two[window[1]] = 1
    # Two of green's in a row: green expects more from its next roll.
    assert reply_value(tuple(two), 1, seats) > reply_value(empty, 1, seats)


def test_every_level_plays_a_whole_game() -> None:
    for seed in range(3):
        game = DoublesWild(2, random.Random(seed))
        dice = random.Random(seed)
        players = [DoublesWildBeginner(random.Random(1)), DoublesWildExpert(random.Random(2))]

        def roll(n: int, dice: random.Random = dice) -> tuple[int, ...]:
            return tuple(dice.randint(1, 6) for _ in range(n))

        outcome = play_out(game, players, roll)
        assert outcome is not None


def test_the_beginner_keeps_rolls_the_standard_player_would_throw_again() -> None:
    kept = rerolled = 0
    for seed in range(40):
        game = DoublesWild(2, random.Random(seed))
        roll = random.Random(seed)
        faces = tuple(roll.randint(1, 6) for _ in range(4))
        game.apply(dice_action("roll", faces))
        standard = DoublesWildPlayer(random.Random(seed)).reroll_choice(game)
        beginner = DoublesWildBeginner(random.Random(seed))
        choice = beginner.reroll_choice(game)
        assert beginner.reroll_choice(game) == choice  # the same each time it is asked
        if standard is not None:
            rerolled += 1
            kept += choice is None
    assert rerolled > 0 and kept > 0
