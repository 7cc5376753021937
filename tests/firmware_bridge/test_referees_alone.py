"""Referees tested alone: a game, the facts and a button or board event in, decisions
out. No session, no journal and no table builder is made here (the import check at
the end says so): a referee decides, and what it decides is all there is to see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from firmware_bridge.kits import find_kit
from firmware_bridge.referees.decisions import Commit, Decision, Reject, RollDice, TakeBack
from firmware_bridge.referees.events import BoardChanged, Refused
from firmware_bridge.referees.facts import Facts
from firmware_bridge.referees.referee import Referee
from games.core import Game, Outcome
from games.double_take.game import Step
from games.doubles_wild.game import Place, dice_action
from hardware.board import OCCUPIED, ButtonEvent
from tests.firmware_bridge.test_import_layers import _graph


def alone(name: str, seed: int = 3) -> tuple[Game, Referee[Any], Facts]:
    kit = find_kit(name)
    game = kit.new_game(2, random.Random(seed), {})
    facts = Facts()
    return game, kit.referee_for(game, facts), facts


def press(referee: Referee[Any], name: str, long: bool = False) -> list[Decision]:
    return referee.decide(ButtonEvent(name, long)).decisions


def test_doubles_wild_asks_for_dice_and_never_rolls_them() -> None:
    _, referee, _ = alone("doubles-wild")
    decisions = press(referee, "roll")
    assert len(decisions) == 1 and isinstance(decisions[0], RollDice)
    roll = decisions[0]
    assert roll.count == 4
    assert roll.make((6, 5, 4, 3)) == dice_action("roll", (6, 5, 4, 3))


def test_doubles_wild_passes_on_the_rules_reason_for_a_ball_on_a_wrong_spot() -> None:
    game, referee, facts = alone("doubles-wild")
    game.apply(dice_action("roll", (1, 2, 3, 4)))
    allowed = {a.cell for a in game.legal_actions() if isinstance(a, Place)}
    wrong = next(c for c in sorted(game.cells()) if c not in allowed)
    facts.observation = {wrong: OCCUPIED}
    # The referee names the move the board shows; the rules judge it, and the referee
    # turns their reason into what the table is told.
    assert referee.decide(BoardChanged()).decisions == [Commit(Place(wrong))]
    verdict = game.judge(Place(wrong))
    assert not verdict.accepted
    decisions = referee.decide(Refused(Place(wrong), verdict)).decisions
    assert len(decisions) == 1 and isinstance(decisions[0], Reject)
    assert decisions[0].reason


def test_double_take_commits_the_move_the_board_shows() -> None:
    game, referee, facts = alone("double-take")
    facts.observation = dict.fromkeys(game.layout(), OCCUPIED)
    assert referee.decide(BoardChanged()).decisions == []
    for action in game.legal_actions():
        after, _, _ = alone("double-take")  # the same deal, to play the move on
        after.apply(action)
        moved = set(after.layout())
        if len(moved ^ set(game.layout())) == 2:  # one piece from one cell to another
            break
    else:
        pytest.fail("no simple move in the opening")
    facts.observation = dict.fromkeys(moved, OCCUPIED)
    decisions = referee.decide(BoardChanged()).decisions
    assert len(decisions) == 1 and isinstance(decisions[0], Commit)
    assert decisions[0].action == action
    assert game.judge(decisions[0].action).accepted


def test_a_referee_keeps_nothing_between_calls_but_the_turn_it_was_handed() -> None:
    """A move made of two board events (a piece lifted, then laid): a second referee,
    made afresh with the same game, facts and turn state, finishes what the first one
    began, and commits what the first would have."""
    game, first, facts = alone("double-take")
    facts.observation = dict.fromkeys(game.layout(), OCCUPIED)
    assert first.decide(BoardChanged()).decisions == []
    step = next(a for a in game.legal_actions() if isinstance(a, Step) and not a.captures)
    facts.observation.pop(step.frm)
    assert first.decide(BoardChanged()).decisions == []  # a piece lifted: not a move yet
    assert step.frm in first.turn.vacated, "what the first event taught is in the turn"
    second = type(first)(game, facts, first.turn, first.view)
    facts.observation[step.to] = OCCUPIED
    assert second.decide(BoardChanged()).decisions == [Commit(step)]


def test_where_a_turn_stands_is_the_turn_state_and_nothing_else() -> None:
    """DoubleCross lists its special spaces' markers a page at a time, ok for the next:
    a referee made afresh on the turn state carries on from the page the first one
    reached, and one made on a new turn state starts again."""
    game, first, facts = alone("doublecross")
    markers = len(first.turn.markers)
    assert first.turn.shown == 0 and markers > 2 * len(first.turn.page()), "pages to turn"
    press(first, "ok")
    reached = first.turn.shown
    assert 0 < reached < markers
    second = type(first)(game, facts, first.turn, first.view)
    press(second, "ok")
    assert first.turn.shown > reached, "the second referee turned the next page"
    fresh = type(first)(game, facts, first.new_turn(game, facts), first.view)
    assert fresh.turn.shown == 0 and fresh.turn.markers == first.turn.markers


@pytest.mark.parametrize("name", ["dominoes", "double-take", "doubles-wild"])
def test_the_back_menu_opens_in_the_prompt_and_decides_a_take_back(name: str) -> None:
    _, referee, facts = alone(name)
    assert press(referee, "back", long=True) == []
    menu = facts.prompt.menu
    assert menu is not None and "ake back" in menu.title
    assert menu.options[0][1] is False  # "no, play on" first
    while menu.choice != "take back":
        assert press(referee, "right") == []
    assert press(referee, "ok") == [TakeBack((False,) * len(referee.game.history))]
    assert facts.prompt.menu is None


def test_ok_after_the_game_asks_for_a_new_game_in_the_prompt() -> None:
    game, referee, facts = alone("dominoes")
    game._outcome = Outcome(winners=(0,), reason="the test ends it")
    assert press(referee, "back") == [] and not facts.prompt.new_game_requested
    assert press(referee, "ok") == [] and facts.prompt.new_game_requested


FORBIDDEN = ("runtime", "journal", "sim", "spectate", "apps", "link")


def test_no_referee_module_imports_the_runtime_the_journal_or_the_devices() -> None:
    """What import-linter checks in CI, read here from the sources as well (the same
    walk of the imports as ``test_import_layers``), so that a referee added in a folder
    of its own is checked by the test run too."""
    graph = _graph()
    parts = ("referee", "turn", "view", "count", "hand")
    referees = [
        m
        for m in graph
        if m.startswith("firmware_bridge.referees.")
        or (m.startswith("firmware_bridge.kits.") and m.rsplit(".", 1)[1] in parts)
    ]
    assert len(referees) > 20, "the walk reads the referees' modules"
    for name in referees:
        wrong = sorted(m for m in graph[name] if m.split(".")[1] in FORBIDDEN)
        assert not wrong, f"{name} imports {wrong}"
