"""Doubles Wild's levels: the expert weighs what a spot leaves the next player by the
dice odds, the beginner keeps its rolls; both play whole games."""

from __future__ import annotations

import random

from games.doubles_wild import board as geo
from games.doubles_wild.game import DoublesWild, Place, dice_action
from games.doubles_wild.lookahead import TURN_CHANCE, lookahead, roll_expectation, spot_gains
from games.doubles_wild.player import (
    LATER,
    REACH,
    RISK,
    SPENT,
    DoublesWildBeginner,
    DoublesWildExpert,
    DoublesWildPlayer,
    expected_values,
    play_out,
    reach_chances,
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


EMPTY_BOARD = tuple([geo.EMPTY] * len(geo.CELLS))
BALLS = (10, 10)
SEATS = (0, 1)


def _with(balls: dict[str, int]) -> tuple[int, ...]:
    board = list(EMPTY_BOARD)
    for cell, seat in balls.items():
        board[geo.INDEX[cell]] = seat
    return tuple(board)


def _far_spot(board: tuple[int, ...]) -> int:
    """A spot whose every three-in-a-row is still empty on ``board``."""
    return next(
        i
        for i, owner in enumerate(board)
        if owner == geo.EMPTY
        and all(board[j] == geo.EMPTY == board[k] for j, k in (w for w in _pairs(i)))
    )


def _pairs(i: int) -> list[tuple[int, int]]:
    return [tuple(n for n in window if n != i) for window in geo.WINDOWS[i]]  # type: ignore[misc]


def test_a_seat_with_more_balls_left_is_likelier_to_hold_an_empty_spot_at_the_end() -> None:
    few = reach_chances(EMPTY_BOARD, 0, (2, 10))
    many = reach_chances(EMPTY_BOARD, 0, (10, 10))
    assert all(0.0 < f < m < 1.0 for f, m in zip(few, many, strict=True))


def test_a_ball_in_a_line_stays_its_owners_to_the_end() -> None:
    a, b, c = geo.WINDOWS[geo.index(7, 7)][0]
    board = list(EMPTY_BOARD)
    board[a] = board[b] = board[c] = 1
    mine = reach_chances(board, 1, BALLS)
    theirs = reach_chances(board, 0, BALLS)
    assert [mine[i] for i in (a, b, c)] == [1.0, 1.0, 1.0]
    assert [theirs[i] for i in (a, b, c)] == [0.0, 0.0, 0.0]
    # A lone ball may still be lost in a battle, so it is less than certain.
    lone = list(EMPTY_BOARD)
    lone[a] = 1
    assert 0.0 < reach_chances(lone, 1, BALLS)[a] < 1.0


def test_the_expert_values_completing_its_line_above_a_spot_with_nothing_around() -> None:
    a, b, c = geo.WINDOWS[geo.index(7, 7)][0]
    cells = list(EMPTY_BOARD)
    cells[a] = cells[b] = 0
    board = tuple(cells)
    values = expected_values(board, 0, SEATS, BALLS)
    far = _far_spot(board)
    near, lone = values[c], values[far]
    assert near is not None and lone is not None
    # Completing a line is worth more than most of a point; a lone spot much less.
    assert near > 5.0
    assert near > 3 * lone


def test_the_expert_values_cutting_the_opponents_line_above_a_spot_with_nothing_around() -> None:
    a, b, c = geo.WINDOWS[geo.index(7, 7)][0]
    cells = list(EMPTY_BOARD)
    cells[a] = cells[b] = 1
    board = tuple(cells)
    values = expected_values(board, 0, SEATS, BALLS)
    far = _far_spot(board)
    near, lone = values[c], values[far]
    assert near is not None and lone is not None
    assert near > lone + 2.0


def test_the_expert_cannot_play_its_own_spot_or_a_protected_ball() -> None:
    a, b, c = geo.WINDOWS[geo.index(7, 7)][0]
    lone = geo.index(3, 3)
    board = list(EMPTY_BOARD)
    board[a] = board[b] = board[c] = 1
    board[lone] = 0
    values = expected_values(tuple(board), 0, SEATS, BALLS)
    assert values[a] is values[b] is values[c] is None  # green's line is protected
    assert values[lone] is None  # red's own ball
    # Green's lone ball may be attacked, so it has a value.
    board[lone] = 1
    assert expected_values(tuple(board), 0, SEATS, BALLS)[lone] is not None


# -- the expert's look-ahead -----------------------------------------------------------


def test_the_next_seats_roll_is_worth_a_spot_when_every_spot_is_worth_the_same() -> None:
    assert roll_expectation([None] * len(geo.CELLS)) == 0.0  # every roll blocked
    assert abs(roll_expectation([3.0] * len(geo.CELLS)) - 3.0) < 1e-9
    # One good spot: a re-roll helps reach it, but most rolls miss it.
    one: list[float | None] = [None] * len(geo.CELLS)
    centre = geo.index(7, 7)
    one[centre] = 10.0
    assert TURN_CHANCE[centre] * 10.0 < roll_expectation(one) < 5.0


def test_the_expert_counts_the_next_players_roll_against_a_spot_that_leaves_its_line_open() -> None:
    # Green has two in a row; taking the third spot cuts it before green's next roll.
    board = _with({"r7c5": 1, "r7c6": 1})
    cut, far = geo.INDEX["r7c7"], geo.INDEX["r3c11"]
    gains = spot_gains(board, 0, SEATS, BALLS, REACH, RISK, LATER, SPENT)
    ahead = lookahead(board, 0, SEATS, BALLS, REACH, RISK, LATER, SPENT, 1.0)
    g_cut, g_far, a_cut, a_far = gains[cut], gains[far], ahead[cut], ahead[far]
    assert g_cut is not None and g_far is not None and a_cut is not None and a_far is not None
    # What green's next roll loses by the cut is added to the cut's own worth.
    assert a_cut - g_cut > a_far - g_far + 0.5
    assert lookahead(board, 0, SEATS, BALLS, REACH, RISK, LATER, SPENT, 0.0) == gains


def _rolled(
    board: dict[str, int], red: tuple[int, int], blue: tuple[int, int], seed: int = 0
) -> DoublesWild:
    game = DoublesWild.from_position(board, balls=[12, 12], rng=random.Random(seed))
    game.apply(dice_action("roll", (*red, *blue)))
    return game


def test_the_expert_completes_its_line_when_the_roll_allows_it() -> None:
    board = {"r7c3": 0, "r7c4": 0, "r5c8": 1, "r9c9": 1, "r8c8": 1}
    expert = DoublesWildExpert(random.Random(3))
    # Row 7 wild (a blue double): of its spots, only r7c5 makes the line.
    assert expert.decide(_rolled(board, (3, 4), (2, 2))) == Place("r7c5")
    # The roll names r7c5 itself: the expert keeps it rather than re-roll.
    game = _rolled(board, (3, 4), (1, 4))
    assert expert.reroll_choice(game) is None
    assert expert.decide(game) == Place("r7c5")


def test_the_experts_choice_depends_only_on_what_the_table_shows() -> None:
    board = {"r7c5": 1, "r7c6": 1, "r6c6": 0, "r9c4": 0, "r4c9": 1}
    rolls = [
        ((3, 4), (2, 2)),
        ((1, 1), (2, 5)),
        ((2, 2), (3, 3)),
        ((1, 3), (5, 6)),
        ((6, 5), (1, 2)),
    ]
    fresh = [DoublesWildExpert(random.Random(11)).decide(_rolled(board, r, b)) for r, b in rolls]
    # The same expert asked again, after other positions and with games whose own
    # random sources (the dice to come) differ, decides the same.
    expert = DoublesWildExpert(random.Random(11))
    for seed in (1, 2):
        again = [expert.decide(_rolled(board, r, b, seed)) for r, b in reversed(rolls)]
        assert again[::-1] == fresh
    assert fresh[0] == Place("r7c7") or fresh[0] == Place("r7c4")  # cuts green's line
