"""Doubles Wild scoring and the end: lines in four directions, the last ball, the play-off."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.doubles_wild import board as geo
from games.doubles_wild.game import DoublesWild, Place, Roll

DIRECTIONS = {"across": (0, 1), "down": (1, 0), "diagonal": (1, 1), "anti-diagonal": (1, -1)}


def run(start: tuple[int, int], direction: str, length: int) -> list[str]:
    dr, dc = DIRECTIONS[direction]
    r, c = start
    return [f"r{r + k * dr}c{c + k * dc}" for k in range(length)]


def place_anywhere(game: DoublesWild, cell: str) -> list[tuple[int, int]]:
    """The player to move rolls double doubles and places on ``cell``; (seat, points) scored."""
    assert game.apply(Roll((1, 1), (1, 1))).accepted
    verdict = game.apply(Place(cell))
    assert verdict.accepted, verdict.reason
    return [(e.player, e.points) for e in verdict.events]


@pytest.mark.parametrize("direction", list(DIRECTIONS))
@pytest.mark.parametrize("length", [3, 4, 5])
def test_a_line_scores_its_length_less_two(direction: str, length: int) -> None:
    start = (5, 9) if direction == "anti-diagonal" else (5, 5)
    cells = run(start, direction, length)
    game = DoublesWild.from_position(dict.fromkeys(cells[:-1], "blue"))
    events = place_anywhere(game, cells[-1])
    assert events == [(0, 1)]  # one more ball on a line is one more point
    assert game.scores() == [length - 2, 0]
    assert game.lines()[0] == [tuple(cells)]
    assert all(game.layout()[cell].state == "protected" for cell in cells)


@pytest.mark.parametrize("direction", list(DIRECTIONS))
def test_filling_the_gap_between_two_pairs_makes_a_line_of_five(direction: str) -> None:
    start = (3, 11) if direction == "anti-diagonal" else (3, 3)
    cells = run(start, direction, 5)
    game = DoublesWild.from_position(dict.fromkeys(cells[:2] + cells[3:], "red"), to_move=1)
    assert game.scores() == [0, 0]
    assert place_anywhere(game, cells[2]) == [(1, 3)]
    assert game.lines()[1] == [tuple(cells)]


def test_two_lines_through_one_ball_both_score() -> None:
    board = {"r7c5": "blue", "r7c6": "blue", "r5c7": "blue", "r6c7": "blue"}
    game = DoublesWild.from_position(board)
    assert place_anywhere(game, "r7c7") == [(0, 2)]
    assert sorted(game.lines()[0]) == [("r5c7", "r6c7", "r7c7"), ("r7c5", "r7c6", "r7c7")]


def test_four_lines_through_one_ball_all_score() -> None:
    ends = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    board = {f"r{7 + dr}c{7 + dc}": "blue" for dr, dc in ends}
    game = DoublesWild.from_position(board)
    assert game.scores() == [4, 0]  # the ring's four sides
    assert place_anywhere(game, "r7c7") == [(0, 4)]
    assert len([line for line in game.lines()[0] if "r7c7" in line]) == 4
    assert game.scores() == [8, 0]


def test_two_in_a_row_scores_nothing_and_is_not_protected() -> None:
    game = DoublesWild.from_position({"r4c4": "blue"})
    assert place_anywhere(game, "r4c5") == []
    assert game.lines()[0] == []
    assert game.layout()["r4c5"].state == ""


def test_another_colour_breaks_a_run() -> None:
    game = DoublesWild.from_position({"r4c4": "blue", "r4c5": "blue", "r4c6": "red"})
    assert place_anywhere(game, "r4c7") == []
    assert game.scores() == [0, 0]


def test_lines_are_recounted_for_every_seat_and_only_grow_by_play() -> None:
    game = DoublesWild.from_position(
        {"r3c3": "red", "r3c4": "red", "r3c5": "red", "r9c9": "blue", "r9c10": "blue"}
    )
    assert game.scores() == [0, 1]
    assert place_anywhere(game, "r9c11") == [(0, 1)]
    assert place_anywhere(game, "r3c6") == [(1, 1)]
    assert game.scores() == [1, 2]


def test_each_colour_has_its_own_lines() -> None:
    game = DoublesWild.from_position(
        {"r3c3": 0, "r4c3": 1, "r5c3": 2, "r6c3": 3, "r3c4": 0, "r3c5": 0}, players=4
    )
    assert game.scores() == [1, 0, 0, 0]
    assert game.lines() == {0: [("r3c3", "r3c4", "r3c5")], 1: [], 2: [], 3: []}


# -- the end ---------------------------------------------------------------------------


def test_game_ends_when_the_player_to_move_has_no_balls() -> None:
    board = {"r3c3": "blue", "r3c4": "blue"}
    game = DoublesWild.from_position(board, balls=[1, 3])
    place_anywhere(game, "r3c5")
    assert game.outcome is None
    place_anywhere(game, "r9c9")
    outcome = game.outcome
    assert outcome is not None
    assert outcome.winners == (0,)
    assert "blue has no balls left, 1 to 0" in outcome.reason
    assert game.phase == "over"
    assert game.balls_left(1) == 2  # red still had balls: the end only asks the mover


def test_position_where_the_mover_has_no_balls_is_already_over() -> None:
    game = DoublesWild.from_position({"r3c3": "red", "r3c4": "red", "r3c5": "red"}, balls=[0, 4])
    assert game.outcome is not None
    assert game.outcome.winners == (1,)


def tie_one_all() -> DoublesWild:
    """Blue and red have a line each; blue plays its last ball, red its last, blue is out."""
    board = {f"r3c{c}": "blue" for c in (3, 4, 5)} | {f"r11c{c}": "red" for c in (3, 4, 5)}
    return DoublesWild.from_position(board, balls=[1, 1])


def test_a_tie_starts_a_playoff_on_a_cleared_board() -> None:
    game = tie_one_all()
    place_anywhere(game, "r7c7")
    assert game.apply(Roll((1, 1), (1, 1))).accepted
    verdict = game.apply(Place("r7c9"))
    assert len(verdict.removed) == 8
    assert set(verdict.removed) >= {"r3c3", "r11c5", "r7c7", "r7c9"}
    assert game.outcome is None
    assert game.playoff == (0, 1)
    assert game.layout() == {}
    assert game.scores() == [1, 1]  # the main game's count stands
    assert game.to_move == 0
    assert game.phase == "roll"
    assert [game.balls_left(0), game.balls_left(1)] == [24, 24]


def test_first_line_of_the_playoff_wins() -> None:
    game = tie_one_all()
    place_anywhere(game, "r7c7")
    place_anywhere(game, "r7c9")
    place_anywhere(game, "r5c5")
    place_anywhere(game, "r4c4")
    place_anywhere(game, "r5c6")
    assert game.outcome is None
    place_anywhere(game, "r4c5")
    assert game.outcome is None
    place_anywhere(game, "r5c7")
    outcome = game.outcome
    assert outcome is not None
    assert outcome.winners == (0,)
    assert "first line of the play-off" in outcome.reason


def test_playoff_is_only_for_the_tied_seats() -> None:
    board = {f"r3c{c}": "blue" for c in (3, 4, 5)} | {f"r11c{c}": "purple" for c in (3, 4, 5)}
    game = DoublesWild.from_position(board, players=3, balls=[1, 1, 1])
    for cell in ("r7c7", "r7c8", "r7c9"):
        place_anywhere(game, cell)
    assert game.playoff == (0, 2)
    assert [game.balls_left(p) for p in range(3)] == [24, 0, 24]
    place_anywhere(game, "r5c5")
    assert game.to_move == 2  # red sits the play-off out


def test_playoff_without_a_line_is_shared() -> None:
    game = DoublesWild.from_position({}, playoff=[0, 1], balls=[1, 1])
    place_anywhere(game, "r3c3")
    place_anywhere(game, "r11c11")
    outcome = game.outcome
    assert outcome is not None
    assert outcome.winners == (0, 1)
    assert "share the game" in outcome.reason


def test_three_way_tie_plays_off_with_three_seats() -> None:
    board = {f"r{r}c{c}": r - 3 for r in (3, 4, 5) for c in (3, 4, 5)}
    game = DoublesWild.from_position(board, players=3, balls=[1, 1, 1])
    for cell in ("r9c3", "r9c5", "r9c7"):
        place_anywhere(game, cell)
    assert game.playoff == (0, 1, 2)
    assert game.balls_left(1) == 18


ALL_WINDOWS = {w for i in range(81) for w in geo.WINDOWS[i]}


@settings(max_examples=60)
@given(st.lists(st.sampled_from([-1, 0, 1]), min_size=81, max_size=81))
def test_points_equal_the_three_in_a_rows_of_one_colour(board: list[int]) -> None:
    # A run of L holds L − 2 windows of three, so the score is the number of such
    # windows: a count that needs no idea of runs at all.
    for player in (0, 1):
        expected = sum(1 for w in ALL_WINDOWS if all(board[j] == player for j in w))
        assert geo.points(board, player) == expected
        in_lines = {i for line in geo.lines(board, player) for i in line}
        assert in_lines == {i for i in range(81) if board[i] == player and geo.protected(board, i)}
