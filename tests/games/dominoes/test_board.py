"""Double Double Dominoes: the board's cells, diamonds, score track and the domino sets."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.dominoes.board import (
    DIAMONDS,
    NAMES,
    NEIGHBOURS,
    STAR,
    TRACK,
    cell_index,
    double_six_sets,
)
from games.dominoes.game import Domino, Dominoes, first_player, track_pips
from games.errors import BadCell, BadSettings, GameError


def test_cells_run_a1_to_o15_in_reading_order() -> None:
    cells = Dominoes(2).cells()
    assert len(cells) == 225
    assert cells[0] == "A1"
    assert cells[14] == "O1"
    assert cells[15] == "A2"
    assert cells[-1] == "O15"
    assert cells[7 * 15 + 7] == STAR == "H8"


def test_cell_names_are_read_case_blind() -> None:
    assert cell_index("h8") == cell_index("H8") == 112


@pytest.mark.parametrize("bad", ["P1", "A0", "A16", "", "88", "H"])
def test_a_cell_off_the_board_is_refused_with_the_right_form(bad: str) -> None:
    with pytest.raises(BadCell, match="column A–O then a row 1–15"):
        cell_index(bad)


def test_bad_cell_is_a_game_error_and_a_value_error() -> None:
    assert issubclass(BadCell, GameError)
    assert issubclass(BadCell, ValueError)


@pytest.mark.parametrize(
    ("cell", "value"),
    [("A1", 5), ("O15", 5), ("D1", 4), ("H1", 3), ("E3", 2), ("E5", 1), ("A8", 3), ("O8", 3)],
)
def test_diamond_values_follow_the_rules_grid(cell: str, value: int) -> None:
    assert DIAMONDS[cell_index(cell)] == value


def test_the_star_and_plain_cells_hold_no_diamond() -> None:
    for cell in ("H8", "B1", "H7", "G8"):
        assert cell_index(cell) not in DIAMONDS


def test_diamonds_count_and_symmetry() -> None:
    assert len(DIAMONDS) == 68
    assert Counter(DIAMONDS.values()) == {1: 16, 2: 16, 3: 16, 4: 16, 5: 4}
    for i, value in DIAMONDS.items():
        row, col = divmod(i, 15)
        assert DIAMONDS[row * 15 + (14 - col)] == value
        assert DIAMONDS[(14 - row) * 15 + col] == value


def test_no_domino_can_cover_two_diamonds() -> None:
    for i in DIAMONDS:
        assert not any(n in DIAMONDS for n in NEIGHBOURS[i]), NAMES[i]


def test_score_track_has_a_hundred_spaces_after_an_empty_start_spot() -> None:
    assert len(TRACK) == 100
    assert track_pips(0) is None
    assert [track_pips(k) for k in range(1, 11)] == [1, 2, 3, 4, 5, 6, 0, 2, 5, 3]
    assert track_pips(11) == 4
    assert track_pips(97) == 6
    assert track_pips(100) == 0
    assert Dominoes.track_pips(4) == 4


def test_two_sets_make_56_dominoes_each_pair_twice() -> None:
    dominoes = double_six_sets(2)
    assert len(dominoes) == 56
    assert Counter(dominoes)[Domino(3, 5)] == 2
    assert Counter(dominoes)[Domino(6, 6)] == 2


@pytest.mark.parametrize(("players", "total"), [(2, 56), (3, 56), (4, 56), (5, 84), (6, 84)])
def test_five_or_six_players_add_a_third_set(players: int, total: int) -> None:
    game = Dominoes(players, random.Random(1))
    in_hands = sum(len(game.hand(p)) for p in range(players))
    assert in_hands + game.boneyard_count == total


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_starts_with_three_dominoes(players: int) -> None:
    game = Dominoes(players, random.Random(7))
    assert [len(game.hand(p)) for p in range(players)] == [3] * players
    assert game.phase == "draw"
    assert game.scores() == [0] * players
    assert game.layout() == {}


@pytest.mark.parametrize("players", [1, 7])
def test_player_count_outside_two_to_six_is_refused(players: int) -> None:
    with pytest.raises(BadSettings, match="2 to 6 players"):
        Dominoes(players)


@pytest.mark.parametrize(("players", "total"), [(2, 100), (3, 75), (4, 50), (5, 75), (6, 50)])
def test_victory_total_depends_on_player_count(players: int, total: int) -> None:
    assert Dominoes(players).victory_total == total


def test_lowest_domino_moves_first() -> None:
    hands = [[Domino(2, 5), Domino(6, 6)], [Domino(0, 3), Domino(4, 4)], [Domino(1, 1)]]
    assert first_player(hands) == 2


def test_tie_for_lowest_domino_goes_to_the_lowest_seat() -> None:
    hands = [[Domino(5, 5)], [Domino(0, 2), Domino(6, 6)], [Domino(1, 1)]]
    assert first_player(hands) == 1


def test_setup_starts_with_the_holder_of_the_lowest_domino() -> None:
    for seed in range(10):
        game = Dominoes(4, random.Random(seed))
        lowest = [min(d.pips for d in game.hand(p)) for p in range(4)]
        assert lowest[game.to_move] == min(lowest)


def test_setup_is_fixed_by_the_seed() -> None:
    a = Dominoes(3, random.Random(42))
    b = Dominoes(3, random.Random(42))
    assert [a.hand(p) for p in range(3)] == [b.hand(p) for p in range(3)]
