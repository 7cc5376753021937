"""DoubleCross's levels: the expert and the beginner play whole games of legal actions,
and the expert never looks at another rack or the bag."""

from __future__ import annotations

import random

import pytest

from games.doublecross.game import DoubleCross
from games.doublecross.player import (
    LOOKAHEAD_RACKS,
    DoubleCrossBeginner,
    DoubleCrossExpert,
    DoubleCrossPlayer,
    ExpertPlanner,
    make_player,
)
from games.levels import BEGINNER, EXPERT
from tests.games.doublecross.helpers import enable


def _game(seed: int) -> DoubleCross:
    return DoubleCross(2, random.Random(seed), lexicon=enable())


@pytest.mark.parametrize("seed", range(2))
def test_the_beginner_and_the_expert_play_a_whole_game(seed: int) -> None:
    game = _game(seed)
    players = [
        make_player(game, random.Random(1), BEGINNER),
        make_player(game, random.Random(2), EXPERT),
    ]
    assert isinstance(players[0], DoubleCrossBeginner)
    assert isinstance(players[1], DoubleCrossExpert)
    for _ in range(3000):
        if game.outcome is not None:
            break
        action = next(
            (a for s in game.out_of_turn_seats() if (a := players[s].out_of_turn(game, s))),
            None,
        ) or players[game.to_move].choose(game)
        assert game.judge(action).accepted, action
        game.apply(action)
    assert game.outcome is not None


@pytest.mark.parametrize("seed", range(3))
def test_the_expert_never_looks_at_the_other_rack_or_the_bag(seed: int) -> None:
    game = _game(seed)
    standard = DoubleCrossPlayer(random.Random(seed))
    for _ in range(6):
        game.apply(standard.choose(game))
    before = DoubleCrossExpert(random.Random(0)).choose(game)
    state = game.state
    other = 1 - state.turn
    pool = state.racks[other] + state.bag
    random.Random(seed).shuffle(pool)
    n = len(state.racks[other])
    state.racks[other], state.bag = pool[:n], pool[n:]
    assert DoubleCrossExpert(random.Random(0)).choose(game) == before


@pytest.mark.parametrize("seed", range(2))
def test_the_expert_deals_the_hidden_tiles_afresh_whatever_their_real_order(seed: int) -> None:
    game = _game(seed)
    standard = DoubleCrossPlayer(random.Random(seed))
    for _ in range(4):
        game.apply(standard.choose(game))
    state = game.state
    other = 1 - state.turn
    hidden = sorted(state.racks[other] + state.bag)
    planner = ExpertPlanner(game.rules, state, game.word_judge)
    deals = planner.deals()
    assert len(deals) == LOOKAHEAD_RACKS
    for rack, bag in deals:
        assert len(rack) == len(state.racks[other])
        assert sorted(rack + bag) == hidden
    state.racks[other], state.bag = (
        hidden[: len(state.racks[other])],
        hidden[len(state.racks[other]) :],
    )
    assert ExpertPlanner(game.rules, state, game.word_judge).deals() == deals
