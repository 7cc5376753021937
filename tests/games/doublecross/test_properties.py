"""Properties of DoubleCross over random play: settling is idempotent, the board keeps
its invariants, and every score equals a recount from the record."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import Resign
from games.doublecross.game import DoubleCross
from games.doublecross.player import DoubleCrossPlayer
from tests.games.doublecross.helpers import enable, recount


def check_invariants(game: DoubleCross) -> None:
    board = game.state.board.copy()
    judge = game.word_judge
    settled = judge.settle(board)
    assert settled.destroyed == [] and settled.stabilised == [], "settling again changed the board"
    assert judge.orphans(board) == []
    for i in board.unstable():
        assert judge.has_partial_run(board, i)
        assert judge.words_if_stable(board, i) is None, "an unstable tile could be stable"
    assert game.scores() == recount(game.record, game.players)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    steps=st.lists(st.tuples(st.booleans(), st.integers(0, 10_000)), min_size=5, max_size=40),
)
def test_random_play_keeps_the_board_settled_and_the_scores_recountable(
    seed: int, players: int, steps: list[tuple[bool, int]]
) -> None:
    game = DoubleCross(players, random.Random(seed), lexicon=enable())
    computer = DoubleCrossPlayer(random.Random(seed))
    for use_computer, pick in steps:
        if game.outcome is not None:
            break
        if use_computer:
            action = computer.choose(game)
        else:
            actions = [a for a in game.legal_actions() if not isinstance(a, Resign)]
            action = actions[pick % len(actions)]
        verdict = game.apply(action)
        assert verdict.accepted, (action, verdict.reason)
        check_invariants(game)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_every_legal_action_is_accepted_and_checking_changes_nothing(
    seed: int, players: int
) -> None:
    game = DoubleCross(players, random.Random(seed), lexicon=enable())
    computer = DoubleCrossPlayer(random.Random(seed))
    for _ in range(12):
        if game.outcome is not None:
            break
        game.apply(computer.choose(game))
    if game.outcome is not None:
        return
    before = game.state_dict()
    for action in game.legal_actions()[::37]:
        assert game.judge(action).accepted, action
    assert game.state_dict() == before
