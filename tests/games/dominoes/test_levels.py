"""Double Double Dominoes' levels: what the expert weighs, and that it weighs only what
a player at the table can see."""

from __future__ import annotations

import itertools
import random

import pytest

from games.dominoes.board import Domino
from games.dominoes.game import Dominoes, DominoesPlayer, Draw, Phase, Place
from games.dominoes.player import (
    GAME_WON,
    DominoesBeginner,
    DominoesExpert,
    View,
    _best_by_kind,
    make_player,
    why,
)
from games.levels import BEGINNER, EXPERT


def _played(seed: int, moves: int) -> Dominoes:
    game = Dominoes(2, random.Random(seed))
    player = DominoesPlayer(random.Random(seed))
    for _ in range(moves):
        if game.outcome is not None:
            break
        game.apply(player.choose(game))
    return game


def _redealt(game: Dominoes, seed: int) -> Dominoes:
    """The same position with what the mover cannot see dealt afresh: the other hands
    and the boneyard's order."""
    swapped = game.copy()
    me = game.to_move
    others = [p for p in range(game.players) if p != me]
    pool = [d for p in others for d in swapped._hands[p]] + swapped._boneyard
    random.Random(seed + 100).shuffle(pool)
    for p in others:
        n = len(swapped._hands[p])
        swapped._hands[p], pool = pool[:n], pool[n:]
    swapped._boneyard = pool
    return swapped


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("moves", [8, 30, 60])
def test_the_expert_never_looks_at_the_other_hand_or_the_boneyard(seed: int, moves: int) -> None:
    game = _played(seed, moves)
    while game.outcome is None and game.phase not in (Phase.PLAY, Phase.CHAIN):
        game.apply(DominoesPlayer(random.Random(0)).choose(game))
    if game.outcome is not None:
        pytest.skip("the game ended before the position")
    swapped = _redealt(game, seed)
    assert View(game).pool == View(swapped).pool
    expert = DominoesExpert(random.Random(1))
    assert expert.choose(game) == DominoesExpert(random.Random(1)).choose(swapped)
    for place in game.placements()[:5]:
        assert expert._left(game, View(game), place) == expert._left(swapped, View(swapped), place)


def test_the_expert_after_a_double_sees_only_its_own_hand() -> None:
    # A 2-2 laid: the expert may follow it or end the turn, whatever the other holds.
    game = Dominoes.from_position(
        2,
        board=[(2, 5, "C4", "B4")],
        hands=[[(2, 2), (2, 1), (5, 5)], [(0, 1), (0, 2), (0, 3)]],
        phase="play",
    )
    assert game.apply(Place(2, 2, "D4", "E4")).accepted
    assert game.phase == Phase.CHAIN
    choices = {DominoesExpert(random.Random(0)).choose(_redealt(game, seed)) for seed in range(6)}
    assert len(choices) == 1


def test_the_unseen_are_the_sets_less_the_board_and_the_own_hand() -> None:
    game = _played(3, 20)
    view = View(game)
    me = game.to_move
    hidden = [d for p in range(game.players) if p != me for d in game.hand(p)]
    hidden += game._boneyard + game.pit
    assert view.pool == sorted(hidden)
    assert len(view.pool) + len(game.board.laid) + len(game.hand(me)) == 56


def test_the_expected_best_is_the_mean_over_every_hand_that_could_be_held() -> None:
    game = _played(4, 14)
    while game.phase != Phase.PLAY:
        game.apply(DominoesPlayer(random.Random(0)).choose(game))
    view = View(game)
    view.pool = view.pool[:9]  # few enough to count every hand
    best = _best_by_kind(game.board, game.scores(), game.victory_total)
    seat = 1 - game.to_move
    assert any(d in best for d in view.pool) and any(d not in best for d in view.pool)
    for holds, floor in ((1, None), (3, None), (4, None), (2, -1.5), (3, 2.0)):
        hands = list(itertools.combinations(range(len(view.pool)), holds))
        total = 0.0
        for hand in hands:
            fits = [best[view.pool[i]][seat] for i in hand if view.pool[i] in best]
            if floor is not None:
                fits.append(floor)
            total += max(fits, default=0.0)
        assert view.expected_best(best, seat, holds, floor) == pytest.approx(total / len(hands))


@pytest.mark.parametrize("seed", range(4))
def test_the_best_of_each_kind_is_what_the_game_scores_it(seed: int) -> None:
    game = _played(seed, 24)
    while game.phase != Phase.PLAY:
        game.apply(DominoesPlayer(random.Random(0)).choose(game))
    me = game.to_move
    best = _best_by_kind(game.board, game.scores(), game.victory_total)
    for kind in sorted({Domino(a, b) for a in range(7) for b in range(a, 7)}):
        places = game._placements([kind], None)
        if not places:
            assert kind not in best
            continue
        for seat in range(game.players):
            game._to_move = seat  # the game's own scoring, for whichever seat lays it
            worth = []
            for place in places:
                gains = game.gains(place)
                value = 0.0 + gains[seat] - (sum(gains) - gains[seat])
                if game.scores()[seat] + gains[seat] >= game.victory_total:
                    value += GAME_WON
                worth.append(value)
            assert best[kind][seat] == max(worth)
        game._to_move = me


def test_nothing_is_left_to_weigh_when_the_mover_draws_the_last_domino() -> None:
    def position(boneyard: list[tuple[int, int]]) -> Dominoes:
        game = Dominoes.from_position(
            2,
            board=[(2, 5, "C4", "B4")],
            hands=[[(2, 1), (0, 1), (3, 3)], [(0, 2), (0, 3), (4, 4)]],
            boneyard=boneyard,
            phase="draw",
        )
        game.apply(Draw())
        return game

    expert = DominoesExpert(random.Random(0))
    last = position([(6, 6)])  # this turn's draw took the last domino: the game ends with it
    place = next(p for p in last.placements() if p.domino.key() == Domino(1, 2))
    assert expert._left(last, View(last), place) == 0.0
    # One draw left: only the next player's reply counts against the placement.
    reply = position([(6, 6), (5, 1)])
    assert expert._left(reply, View(reply), place) < 0.0
    # More draws: the mover's own next turn counts too.
    later = position([(6, 6), (5, 1), (2, 0), (1, 4), (2, 6)])
    assert expert._left(later, View(later), place) > expert._left(reply, View(reply), place)


def test_the_expert_replays_the_same_game_for_the_same_seeds() -> None:
    def play() -> list[dict[str, object]]:
        game = Dominoes(2, random.Random(9))
        seats = [DominoesExpert(random.Random(1)), DominoesPlayer(random.Random(2))]
        while game.outcome is None:
            game.apply(seats[game.to_move].choose(game))
        return [a.to_dict() for a in game.history]

    assert play() == play()


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


def test_a_double_that_lets_the_turn_go_on_is_worth_the_best_way_it_goes_on() -> None:
    # A 2-2 on the 3 diamond at D4: then a 2-1 beside it, or the turn ended there.
    game = Dominoes.from_position(
        2,
        board=[(2, 5, "C4", "B4")],
        hands=[[(2, 2), (2, 1), (5, 5)], [(0, 1), (0, 2), (0, 3)]],
        boneyard=[(6, 6), (5, 1), (2, 0), (1, 4), (2, 6), (3, 4), (0, 0), (1, 1)],
        phase="play",
    )
    expert, view, double = DominoesExpert(random.Random(0)), View(game), Place(2, 2, "D4", "E4")
    after = game.copy()
    after.apply(double)
    assert after.phase == Phase.CHAIN
    stop = expert._left(after, view, None)  # the turn ended after the double
    follows = []
    for follow in after.placements():
        gains = after.gains(follow)
        follows.append(gains[0] - gains[1] + expert._left(after, View(after), follow))
    worth = expert._after(game, view, double, 0)
    assert worth == pytest.approx(max(stop, *follows))
    assert worth > stop  # here the 2-1 beside it is worth laying
    # A domino that is not a double leaves what the board after it leaves.
    single = next(p for p in game.placements() if p.domino_a != p.domino_b)
    assert expert._after(game, view, single, 0) == expert._left(game, view, single)
