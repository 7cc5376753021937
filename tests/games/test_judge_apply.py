"""``Game.apply`` plays only what ``Game.judge`` accepted, and judges each action once."""

from __future__ import annotations

import pytest

from games.core import Action, Pass, Verdict
from games.double_take.game import DoubleTake, Step
from games.errors import IllegalMove


class Counted(DoubleTake):
    """Double Take counting how often its rules are asked."""

    judged = 0

    def _judge(self, action: Action) -> Verdict:
        self.judged += 1
        return super()._judge(action)


def test_an_action_judge_accepted_is_applied_without_judging_it_again() -> None:
    game = Counted()
    step = game.legal_steps()[0]
    assert game.judge(step).accepted
    game.apply(step)
    assert game.judged == 1
    assert game.history == [step]


def test_an_action_not_judged_is_judged_when_applied() -> None:
    game = Counted()
    game.apply(game.legal_steps()[0])
    assert game.judged == 1


def test_applying_a_refused_action_raises_and_changes_nothing() -> None:
    game = DoubleTake()
    before = game.state_dict()
    with pytest.raises(IllegalMove, match="red can move, so may not pass"):
        game.apply(Pass())
    assert game.state_dict() == before and game.history == []


def test_only_the_very_action_judge_accepted_last_goes_unjudged() -> None:
    game = Counted()
    step, other = game.legal_steps()[:2]
    assert game.judge(step).accepted and game.judge(other).accepted
    game.apply(Step(other.frm, other.to, other.captures))  # equal, but another object
    assert game.judged == 3
    # Accepted in the first position, ``step`` is judged again in this one and refused.
    with pytest.raises(IllegalMove):
        game.apply(step)
    assert game.judged == 4


def test_a_finished_game_refuses_everything() -> None:
    game = DoubleTake()
    game.apply(game.decode({"type": "resign", "player": 0}))
    assert game.judge(Pass()) == Verdict.reject("the game is over")
    with pytest.raises(IllegalMove, match="the game is over"):
        game.apply(Pass())
