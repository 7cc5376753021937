"""Crosslet's levels: the expert weighs the tiles a placement keeps, the beginner lays
real words, and neither looks at the other rack or the bag."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.crosslet.actions import Exchange, PlaceTiles
from games.crosslet.game import Crosslet
from games.crosslet.movegen import MoveGenerator
from games.crosslet.player import (
    CrossletBeginner,
    CrossletExpert,
    CrossletPlayer,
    leave_value,
    make_player,
    unseen_by,
    why,
)
from games.levels import BEGINNER, EXPERT
from tests.games.crosslet.helpers import WordSet


def test_a_blank_and_an_s_are_worth_keeping_a_q_and_twins_are_not() -> None:
    assert leave_value(["?"], 50) > leave_value(["S"], 50) > leave_value(["E"], 50)
    assert max(leave_value(["Q"], 50), leave_value(["V"], 50)) < leave_value(["E"], 50) < 0
    assert leave_value(["I", "I"], 50) < leave_value(["I", "N"], 50)
    assert leave_value(["A", "E", "I", "O"], 50) < leave_value(["A", "E", "R", "T"], 50)
    # With the bag empty a tile kept only costs its points.
    assert leave_value(["Q"], 0) == -15.0 and leave_value(["?"], 0) == 0.0


def _game(seed: int, words: WordSet, gen: MoveGenerator, moves: int = 4) -> Crosslet:
    game = Crosslet(2, random.Random(seed), lexicon=words, generator=gen)
    player = CrossletPlayer(gen, random.Random(seed))
    for _ in range(moves):
        game.apply(player.choose(game))
    return game


@pytest.mark.parametrize("seed", range(3))
def test_the_expert_lays_a_word_the_rules_accept_or_exchanges(
    seed: int, enable_set: WordSet, enable_generator: MoveGenerator
) -> None:
    game = _game(seed, enable_set, enable_generator)
    action = CrossletExpert(enable_generator, random.Random(0)).choose(game)
    assert isinstance(action, PlaceTiles | Exchange)
    assert game.judge(action).accepted


@pytest.mark.parametrize("seed", range(3))
def test_the_expert_never_looks_at_the_other_rack_or_the_bag(
    seed: int, enable_set: WordSet, enable_generator: MoveGenerator
) -> None:
    game = _game(seed, enable_set, enable_generator)
    other = 1 - game.to_move
    before = CrossletExpert(enable_generator, random.Random(0)).choose(game)
    pool = game._racks[other] + game._bag
    random.Random(seed).shuffle(pool)
    n = len(game._racks[other])
    game._racks[other], game._bag = pool[:n], pool[n:]
    assert CrossletExpert(enable_generator, random.Random(0)).choose(game) == before


@pytest.mark.parametrize("seed", range(2))
def test_the_tiles_the_expert_samples_from_are_the_other_rack_and_the_bag_together(
    seed: int, enable_set: WordSet, enable_generator: MoveGenerator
) -> None:
    game = _game(seed, enable_set, enable_generator)
    seat, other = game.to_move, 1 - game.to_move
    unseen = unseen_by(game, seat)
    assert Counter(unseen) == Counter(game._racks[other] + game._bag)
    assert len(unseen) == 100 - len(game.board_letters()) - len(game.rack(seat))
    expert = CrossletExpert(enable_generator, random.Random(5))
    racks = expert.replies(game, random.Random(1))
    assert len(racks) == 3
    for rack in racks:
        assert len(rack) == 7 and not Counter(rack) - Counter(unseen)
    # The same position and seed: the same move, asked twice.
    assert expert.choose(game) == expert.choose(game)


def test_the_expert_keeps_the_better_tiles_where_the_points_are_close(
    enable_set: WordSet, enable_generator: MoveGenerator
) -> None:
    game = _game(1, enable_set, enable_generator)
    expert = CrossletExpert(enable_generator, random.Random(0))
    ranked = expert.ranked(game)
    worths = [w for w, _, _ in ranked]
    assert worths == sorted(worths, reverse=True)
    assert any(m.score != ranked[0][1].score for _, m, _ in ranked)


def test_the_beginner_lays_real_words_mostly_short_ones(
    enable_set: WordSet, enable_generator: MoveGenerator
) -> None:
    game = Crosslet(2, random.Random(8), lexicon=enable_set, generator=enable_generator)
    beginner = make_player(game, random.Random(3), BEGINNER)
    assert isinstance(beginner, CrossletBeginner)
    assert isinstance(make_player(game, random.Random(3), EXPERT), CrossletExpert)
    standard = CrossletPlayer(enable_generator, random.Random(3))
    lower = 0
    for _ in range(12):
        if game.outcome is not None:
            break
        action = beginner.choose(game)
        assert beginner.choose(game) == action  # the same for the same position
        assert game.judge(action).accepted
        best = standard.choose(game)
        if isinstance(action, PlaceTiles) and isinstance(best, PlaceTiles):
            points = sum(p for _, p in game.score_placement(action))
            lower += points < sum(p for _, p in game.score_placement(best))
        game.apply(action)
    assert lower >= 3


def test_a_hint_says_the_points_and_the_tiles_kept(
    enable_set: WordSet, enable_generator: MoveGenerator
) -> None:
    game = _game(2, enable_set, enable_generator, moves=0)
    action = CrossletPlayer(enable_generator, random.Random(0)).choose(game)
    assert isinstance(action, PlaceTiles)
    points = sum(p for _, p in game.score_placement(action))
    words = why(game, action)
    assert words.startswith(f"+{points}")
    kept = 7 - len(action.tiles)
    assert ("keeps" in words) == (0 < kept <= 3)
