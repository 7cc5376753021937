"""Referees tested alone: a game, the facts and a button or board event in, decisions
out. No session, no journal and no table builder is made here (the import check at
the end says so): a referee decides, and what it decides is all there is to see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from firmware_bridge.kits import find_kit
from firmware_bridge.referees.decisions import Commit, Decision, Reject, RollDice, TakeBack
from firmware_bridge.referees.facts import Facts
from firmware_bridge.referees.referee import Referee
from games.core import Game, Outcome
from games.doubles_wild import Place, dice_action
from hardware.board import OCCUPIED, ButtonEvent

from .test_import_layers import _graph


def alone(name: str, seed: int = 3) -> tuple[Game, Referee[Any], Facts]:
    kit = find_kit(name)
    game = kit.new_game(2, random.Random(seed), {})
    facts = Facts()
    return game, kit.make_referee(game, facts), facts


def press(referee: Referee[Any], name: str, long: bool = False) -> list[Decision]:
    referee.on_button(ButtonEvent(name, long))
    return referee.decisions()


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
    referee.on_board()
    # The referee names the move the board shows; the rules judge it, and the referee
    # turns their reason into what the table is told.
    assert referee.decisions() == [Commit(Place(wrong))]
    verdict = game.judge(Place(wrong))
    assert not verdict.accepted
    referee.on_refused(Place(wrong), verdict)
    decisions = referee.decisions()
    assert len(decisions) == 1 and isinstance(decisions[0], Reject)
    assert decisions[0].reason


def test_double_take_commits_the_move_the_board_shows() -> None:
    game, referee, facts = alone("double-take")
    facts.observation = dict.fromkeys(game.layout(), OCCUPIED)
    referee.on_board()
    assert referee.decisions() == []
    for action in game.legal_actions():
        after, _, _ = alone("double-take")  # the same deal, to play the move on
        after.apply(action)
        moved = set(after.layout())
        if len(moved ^ set(game.layout())) == 2:  # one piece from one cell to another
            break
    else:
        pytest.fail("no simple move in the opening")
    facts.observation = dict.fromkeys(moved, OCCUPIED)
    referee.on_board()
    decisions = referee.decisions()
    assert len(decisions) == 1 and isinstance(decisions[0], Commit)
    assert decisions[0].action == action
    assert game.judge(decisions[0].action).accepted


@pytest.mark.parametrize("name", ["dominoes", "double-take", "doubles-wild"])
def test_the_back_menu_opens_in_the_prompt_and_decides_a_take_back(name: str) -> None:
    _, referee, facts = alone(name)
    assert press(referee, "back", long=True) == []
    menu = facts.prompt.menu
    assert menu is not None and "ake back" in menu.title
    assert menu.options[0][1] is False  # "no, play on" first
    while menu.choice != "take back":
        assert press(referee, "right") == []
    assert press(referee, "ok") == [TakeBack()]
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
    referees = [m for m in graph if m.startswith("firmware_bridge.referees.")]
    assert len(referees) > 20, "the walk reads the referees' modules"
    for name in referees:
        wrong = sorted(m for m in graph[name] if m.split(".")[1] in FORBIDDEN)
        assert not wrong, f"{name} imports {wrong}"
