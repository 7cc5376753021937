"""Double Double Dominoes' levels: what the expert weighs, and that it weighs only what
a player at the table can see."""

from __future__ import annotations

import random

import pytest

from games.dominoes.game import Dominoes, DominoesPlayer, Phase
from games.dominoes.player import (
    DominoesBeginner,
    DominoesExpert,
    make_player,
    why,
)
from games.levels import BEGINNER, EXPERT


def _played(seed: int, moves: int) -> Dominoes:
    game = Dominoes(2, random.Random(seed))
    player = DominoesPlayer(random.Random(seed))
    for _ in range(moves):
        game.apply(player.choose(game))
    return game


@pytest.mark.parametrize("seed", range(4))
def test_the_expert_never_looks_at_the_other_hand_or_the_boneyard(seed: int) -> None:
    game = _played(seed, 8)
    while game.phase not in (Phase.PLAY, Phase.CHAIN):
        game.apply(DominoesPlayer(random.Random(0)).choose(game))
    other = 1 - game.to_move
    swapped = game.copy()
    # Deal the other hand afresh from the boneyard: what the mover cannot see changes.
    pool = swapped._hands[other] + swapped._boneyard
    random.Random(seed + 100).shuffle(pool)
    n = len(swapped._hands[other])
    swapped._hands[other], swapped._boneyard = pool[:n], pool[n:]
    assert DominoesExpert(random.Random(1)).choose(game) == DominoesExpert(random.Random(1)).choose(
        swapped
    )


def test_the_expert_weighs_what_its_kept_dominoes_could_score_next() -> None:
    game = _played(2, 8)
    while game.phase != Phase.PLAY:
        game.apply(DominoesPlayer(random.Random(0)).choose(game))
    me = game.to_move
    hand = game.hand(me)
    expert = DominoesExpert(random.Random(0))
    # Nothing kept scores nothing; a hand's best is the best of its dominoes.
    assert expert._next_turn(game, me, []) == 0.0
    each = [expert._next_turn(game, me, [d]) for d in hand]
    assert expert._next_turn(game, me, hand) == max(each) >= 0.0
    place = game.placements()[0]
    kept = list(hand)
    kept.remove(place.domino.key())
    after = game.copy()
    after.apply(place)
    if after.outcome is None:
        assert expert._after(game, place) == expert._next_turn(after, me, kept)


def test_the_beginner_lays_dominoes_that_fit_and_ends_games() -> None:
    game = Dominoes(2, random.Random(5))
    players = [
        make_player(game, random.Random(1), BEGINNER),
        make_player(game, random.Random(2), EXPERT),
    ]
    assert isinstance(players[0], DominoesBeginner) and isinstance(players[1], DominoesExpert)
    for _ in range(3000):
        if game.outcome is not None:
            break
        action = players[game.to_move].choose(game)
        assert game.judge(action).accepted, action
        game.apply(action)
    assert game.outcome is not None


def test_a_hint_says_what_a_placement_scores_and_hands_out() -> None:
    played = _played(1, 6)
    while played.phase != Phase.PLAY:
        played.apply(DominoesPlayer(random.Random(0)).choose(played))
    place = played.placements()[0]
    gains = played.gains(place)
    words = why(played, place)
    assert words.startswith(f"+{gains[played.to_move]}")
    assert ("hands out" in words) == (sum(gains) > gains[played.to_move])
