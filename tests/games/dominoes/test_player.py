"""Double Double Dominoes: the computer player, whole games, and the slot bookkeeping."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pytest_benchmark.fixture import BenchmarkFixture

from games.core import Action
from games.dominoes.board import NAMES, NEIGHBOURS, Board, Slot
from games.dominoes.game import Discard, Dominoes, DominoesPlayer, Draw, EndTurn, Place
from games.double_take.game import DoubleTake

OTHER_HAND = [(0, 1), (0, 2), (0, 3)]
START = [(2, 5, "C4", "B4")]
"""A 2 on C4: D4 beside it holds the 3 diamond."""


def position(hand: Sequence[tuple[int, int]], scores: Sequence[int]) -> Dominoes:
    players = len(scores)
    return Dominoes.from_position(
        players,
        board=START,
        hands=[hand, *[OTHER_HAND] * (players - 1)],
        scores=scores,
        phase="play",
    )


def computer_game(players: int, seed: int) -> tuple[Dominoes, int]:
    """A whole game between computer players; every action is checked first."""
    game = Dominoes(players, random.Random(seed))
    seats = [DominoesPlayer(random.Random(seed * 7 + p)) for p in range(players)]
    actions = 0
    while game.outcome is None:
        action = seats[game.to_move].choose(game)
        assert game.judge(action).accepted, (action, game.judge(action).reason)
        assert game.apply(action).accepted
        actions += 1
        assert actions < 1000, "the game does not end"
    return game, actions


# -- choices ----------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_player_covers_the_richest_diamond(seed: int) -> None:
    game = position([(2, 1), (0, 1)], [0, 0])
    choice = DominoesPlayer(random.Random(seed)).choose(game)
    assert isinstance(choice, Place)
    assert game.gains(choice) == [3, 0]


@pytest.mark.parametrize("seed", range(5))
def test_player_avoids_handing_a_bonus_to_an_opponent(seed: int) -> None:
    # Seat 1 stands on space 4 (4 pips): a 2-4 on the diamond nets nothing.
    game = position([(2, 4), (2, 0)], [0, 4])
    choice = DominoesPlayer(random.Random(seed)).choose(game)
    assert isinstance(choice, Place)
    assert sorted((choice.domino_a, choice.domino_b)) == [0, 2]
    assert game.gains(choice) == [3, 0]


def test_player_lays_a_double_then_follows_it() -> None:
    game = position([(2, 2), (2, 1)], [0, 0])
    player = DominoesPlayer(random.Random(0))
    first = player.choose(game)
    assert isinstance(first, Place)
    assert first.domino_a == first.domino_b == 2
    assert game.gains(first) == [6, 0]
    assert game.apply(first).accepted
    assert game.phase == "chain"
    follow = player.choose(game)
    assert isinstance(follow, Place)
    assert game.gains(follow)[0] > 0


def test_player_ends_a_chain_that_would_only_feed_an_opponent() -> None:
    # Seat 1 stands on space 1: every 2-1 beside the double gives it 3.
    game = position([(2, 2), (2, 1)], [0, 1])
    assert game.apply(Place(2, 2, "D4", "E4")).accepted
    assert game.phase == "chain"
    assert DominoesPlayer(random.Random(0)).choose(game) == EndTurn()


def test_player_draws_at_the_start_of_a_turn() -> None:
    game = Dominoes(2, random.Random(3))
    assert DominoesPlayer(random.Random(0)).choose(game) == Draw()


def test_player_discards_its_lightest_domino() -> None:
    game = Dominoes.from_position(
        2,
        board=[(6, 6, "H7", "H8")],
        hands=[[(5, 5), (0, 1), (4, 3), (2, 2)], OTHER_HAND],
        phase="play",
    )
    assert game.phase == "discard"
    assert DominoesPlayer(random.Random(0)).choose(game) == Discard(0, 1)


def test_player_refuses_other_games() -> None:
    with pytest.raises(TypeError, match="plays Double Double Dominoes, not Double Take"):
        DominoesPlayer(random.Random(0)).choose(DoubleTake(2))


# -- whole games ------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(8))
def test_computer_games_end_with_only_legal_actions(players: int, seed: int) -> None:
    game, _ = computer_game(players, seed)
    assert game.outcome is not None
    assert game.phase == "over"
    winners = game.outcome.winners
    assert winners
    best = max(game.scores())
    assert all(game.scores()[w] == best for w in winners)


def test_same_seeds_play_the_same_game() -> None:
    a, _ = computer_game(3, 11)
    b, _ = computer_game(3, 11)
    assert [x.to_dict() for x in a.history] == [x.to_dict() for x in b.history]


def test_every_domino_is_in_a_hand_the_boneyard_the_pit_or_on_the_board() -> None:
    game = Dominoes(4, random.Random(2))
    seats = [DominoesPlayer(random.Random(p)) for p in range(4)]
    while game.outcome is None:
        assert game.apply(seats[game.to_move].choose(game)).accepted
        held = sum(len(game.hand(p)) for p in range(4))
        assert held + game.boneyard_count + len(game.pit) + len(game.board.laid) == 56


# -- slots kept up to date as dominoes are laid -----------------------------------
def fresh_slots(game: Dominoes) -> list[tuple[tuple[int, int], tuple[int | None, int | None]]]:
    board = Board()
    for laid in game.board.laid:
        board.lay(laid.domino, laid.cell_a, laid.cell_b, laid.owner)
    found = [(s.cells, s.needs) for s in board.slots()]
    # Every pair of neighbouring empty cells, judged one by one, finds the same.
    every = [
        (slot.cells, slot.needs)
        for a in range(len(NAMES))
        for b in NEIGHBOURS[a]
        if a < b and a not in board.pip and b not in board.pip
        for slot in [board.analyse(a, b)]
        if isinstance(slot, Slot)
    ]
    assert found == every
    return found


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 6))
def test_slots_kept_up_to_date_match_slots_found_afresh(seed: int, players: int) -> None:
    game = Dominoes(players, random.Random(seed))
    rng = random.Random(seed)
    while game.outcome is None:
        actions: list[Action] = game.legal_actions()
        action = rng.choice(actions)
        assert game.apply(action).accepted
        if isinstance(action, Place):
            assert [(s.cells, s.needs) for s in game.board.slots()] == fresh_slots(game)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 6))
def test_layout_shows_every_half_laid_so_far(seed: int, players: int) -> None:
    game = Dominoes(players, random.Random(seed))
    rng = random.Random(seed)
    while game.outcome is None:
        layout = game.layout()
        assert {cell: (p.label, p.owner) for cell, p in layout.items()} == {
            NAMES[i]: (f"{d.domino}:{pip}", d.owner)
            for d in game.board.laid
            for i, pip in ((d.cell_a, d.domino.a), (d.cell_b, d.domino.b))
        }
        layout.clear()  # a caller's copy: the game's own stays whole
        assert len(game.layout()) == 2 * len(game.board.laid)
        assert game.apply(rng.choice(game.legal_actions())).accepted


def test_a_copy_plays_on_without_touching_the_original() -> None:
    game = position([(2, 2), (2, 1)], [0, 0])
    before = game.state_dict()
    other = game.copy()
    assert other.apply(Place(2, 2, "D4", "E4")).accepted
    assert game.state_dict() == before
    assert game.phase == "play"
    assert {"D4", "E4"} <= set(other.layout()) - set(game.layout())


def test_benchmark_a_whole_computer_game(benchmark: BenchmarkFixture) -> None:
    """Timed with ``pytest --benchmark-enable -k benchmark``; once, untimed, otherwise."""
    game, actions = benchmark(computer_game, 4, 1)
    assert game.outcome is not None
    assert actions > 20
