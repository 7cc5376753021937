"""The Double Take computer player: its preferences and that its games end."""

from __future__ import annotations

import random

import pytest

from games.core import Pass
from games.double_take.game import DoubleTake, DoubleTakePlayer, Step

RED, GREEN = 0, 1
RESERVE = "b9 d9 f9 h9"


def position(red: str, green: str, to_move: int = RED) -> DoubleTake:
    pieces = dict.fromkeys(red.split(), RED)
    pieces.update(dict.fromkeys(green.split(), GREEN))
    return DoubleTake.from_position(pieces, to_move)


def play_out(seed: int, rows: int = 9) -> DoubleTake:
    game = DoubleTake(options={"rows": rows})
    players = [DoubleTakePlayer(random.Random(seed)), DoubleTakePlayer(random.Random(seed + 1))]
    while game.outcome is None and len(game.history) < 1000:
        action = players[game.to_move].choose(game)
        assert game.apply(action).accepted, action
    return game


@pytest.mark.parametrize("seed", range(5))
def test_player_takes_the_bigger_capture(seed: int) -> None:
    # c3→d4 takes c4 and e4; a5→b6 takes only c6 (against d6).
    game = position(red="c3 b4 f4 a5 d6", green="c4 e4 c6 " + RESERVE)
    assert game.sandwiched("a5", "b6") == ("c6",)
    assert DoubleTakePlayer(random.Random(seed)).choose(game) == Step("c3", "d4", ("c4", "e4"))


@pytest.mark.parametrize("seed", range(5))
def test_player_prefers_a_capture_to_reaching_the_far_row(seed: int) -> None:
    game = position(red="b8 c3 f4", green="e4 " + RESERVE)
    assert DoubleTakePlayer(random.Random(seed)).choose(game) == Step("c3", "d4", ("e4",))


@pytest.mark.parametrize("seed", range(5))
def test_player_reaches_the_far_row_when_it_cannot_capture(seed: int) -> None:
    game = position(red="a1 c1 e1 f8", green="b5 d5 f5 h5")
    choice = DoubleTakePlayer(random.Random(seed)).choose(game)
    assert choice in (Step("f8", "e9"), Step("f8", "g9"))


@pytest.mark.parametrize("seed", range(5))
def test_player_takes_the_longest_forward_step(seed: int) -> None:
    game = position(red="c3", green=RESERVE)
    assert DoubleTakePlayer(random.Random(seed)).choose(game) == Step("c3", "c5")


def test_player_passes_when_it_cannot_move() -> None:
    game = position(red="a9 c9 e9", green="b5 d5 f5 h5")
    assert DoubleTakePlayer(random.Random(0)).choose(game) == Pass()


def test_player_breaks_ties_by_its_seed() -> None:
    firsts = {DoubleTakePlayer(random.Random(s)).choose(DoubleTake()) for s in range(20)}
    assert len(firsts) > 1
    steps = [f for f in firsts if isinstance(f, Step)]
    assert all(int(f.to[1:]) - int(f.frm[1:]) == 2 for f in steps)


def test_same_seed_plays_the_same_game() -> None:
    assert play_out(11).history == play_out(11).history


def test_fifty_seeded_games_end_within_a_few_hundred_plies() -> None:
    for seed in range(50):
        game = play_out(seed)
        assert game.outcome is not None
        assert len(game.history) < 300


@pytest.mark.parametrize("rows", [8, 10])
def test_games_on_other_board_sizes_end(rows: int) -> None:
    for seed in range(15):
        game = play_out(seed, rows)
        assert game.outcome is not None
        assert len(game.history) < 300
