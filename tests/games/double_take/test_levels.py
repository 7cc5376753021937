"""Double Take's levels: the expert's search sees a win the standard player misses,
the beginner plays legal steps, the same for the same position."""

from __future__ import annotations

import random

import pytest

from games.double_take.game import DoubleTake, DoubleTakePlayer, Step, _geometry
from games.double_take.player import DoubleTakeBeginner, DoubleTakeExpert, make_player, why
from games.double_take.search import Search
from games.levels import BEGINNER, EXPERT, STANDARD

RED, GREEN = 0, 1


def position(red: str, green: str, to_move: int = RED) -> DoubleTake:
    pieces = dict.fromkeys(red.split(), RED)
    pieces.update(dict.fromkeys(green.split(), GREEN))
    return DoubleTake.from_position(pieces, to_move)


# Red has three home (a9 c9 e9): h8-g9 wins, c3-d4 takes e4.
THREE_HOME = {"red": "a9 c9 e9 h8 c3 f4", "green": "e4 b7 d7 f5 h5"}


@pytest.mark.parametrize("seed", range(3))
def test_the_expert_wins_where_the_standard_player_takes(seed: int) -> None:
    game = position(**THREE_HOME)
    assert DoubleTakePlayer(random.Random(seed)).choose(game) == Step("c3", "d4", ("e4",))
    assert DoubleTakeExpert(random.Random(seed)).choose(game) == Step("h8", "g9")


def test_a_search_finds_the_same_steps_as_the_rules() -> None:
    game = DoubleTake()
    rng = random.Random(5)
    for _ in range(40):
        if game.outcome is not None:
            break
        board = {c: p.owner for c, p in game.layout().items() if p.owner is not None}
        search = Search(_geometry(game.rows), board, game.to_move)
        ours = {Step(*m) for m in search.moves(game.to_move)}
        assert ours == set(game.legal_steps())
        game.apply(rng.choice(game.legal_actions()))


def test_the_beginner_plays_legal_steps_the_same_for_the_same_position() -> None:
    game = DoubleTake()
    player = DoubleTakeBeginner(random.Random(2))
    standard = DoubleTakePlayer(random.Random(2))
    differs = 0
    for _ in range(30):
        if game.outcome is not None:
            break
        step = player.choose(game)
        assert player.choose(game) == step
        assert game.judge(step).accepted
        differs += step != standard.choose(game)
        game.apply(step)
    assert differs > 5, "a beginner that plays like the standard player is no beginner"


def test_each_level_is_its_own_player() -> None:
    game = DoubleTake()
    rng = random.Random(0)
    assert isinstance(make_player(game, rng, BEGINNER), DoubleTakeBeginner)
    assert type(make_player(game, rng, STANDARD)) is DoubleTakePlayer
    assert isinstance(make_player(game, rng, EXPERT), DoubleTakeExpert)
    assert type(make_player(game, rng)) is DoubleTakePlayer


def test_a_hint_says_what_a_step_takes() -> None:
    game = position(**THREE_HOME)
    assert why(game, Step("c3", "d4", ("e4",))) == "takes 1"
    assert why(game, Step("h8", "g9")) == "reaches the far row"
