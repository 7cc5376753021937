"""Doubles Wild battles: the roll order, kept dice, who wins, and what the loser loses."""

from __future__ import annotations

import pytest

from games.doubles_wild.game import Attack, BattleRoll, DoublesWild, Keep, Place, Roll

RED = 1
BLUE = 0


def battle_on_r9c6(board: dict[str, int | str] | None = None) -> DoublesWild:
    """Blue attacks red's lone ball on r9c6."""
    game = DoublesWild.from_position(board if board is not None else {"r9c6": "red"})
    assert game.apply(Roll((5, 4), (2, 4))).accepted
    assert game.apply(Attack("r9c6")).accepted
    return game


def fight(game: DoublesWild, *rolls: tuple[int, ...]) -> None:
    for values in rolls:
        verdict = game.apply(BattleRoll(values))
        assert verdict.accepted, verdict.reason


def test_attack_starts_a_battle_with_blank_dice() -> None:
    game = battle_on_r9c6()
    assert game.phase == "battle"
    battle = game.battle
    assert battle is not None
    assert (battle.cell, battle.attacker, battle.defender) == ("r9c6", BLUE, RED)
    assert battle.dice == ((None, None, None), (None, None, None))
    assert battle.rolls == (0, 0)
    assert game.to_move == BLUE


def test_attacker_rolls_first_then_defender_each_time() -> None:
    game = battle_on_r9c6()
    order = []
    for _ in range(6):
        order.append(game.to_move)
        fight(game, (3, 3, 3))
    assert order == [BLUE, RED, BLUE, RED, BLUE, RED]
    assert game.phase == "roll"


def test_attacker_wins_with_the_higher_total_and_takes_the_spot() -> None:
    game = battle_on_r9c6()
    fight(game, (6, 6, 6), (1, 1, 1))
    assert game.apply(Keep((0, 1, 2))).accepted
    fight(game, (), (2, 2, 2))
    assert game.apply(Keep((0, 1, 2))).accepted
    fight(game, ())
    verdict = game.apply(BattleRoll((5, 5, 5)))
    assert verdict.removed == ("r9c6",)
    assert "blue wins the battle for r9c6, 18 to 15" in verdict.reason
    assert game.owner("r9c6") == BLUE
    assert game.balls_left(BLUE) == 23
    assert game.balls_left(RED) == 23  # the beaten ball leaves the game
    assert game.to_move == RED
    assert game.battle is None


def test_defender_wins_with_the_higher_total_and_the_attackers_ball_is_spent() -> None:
    game = battle_on_r9c6()
    verdict = None
    for values in [(1, 1, 1), (6, 6, 6)] * 3:
        verdict = game.apply(BattleRoll(values))
    assert verdict is not None
    assert verdict.removed == ()
    assert "red wins the battle for r9c6, 18 to 3" in verdict.reason
    assert game.owner("r9c6") == RED
    assert game.balls_left(BLUE) == 23
    assert game.balls_left(RED) == 23


def test_a_tied_battle_goes_to_the_defender() -> None:
    game = battle_on_r9c6()
    fight(game, *[(4, 4, 4)] * 6)
    last = game.last_battle
    assert last is not None
    assert last.totals() == (12, 12)
    assert last.winner == RED
    assert game.owner("r9c6") == RED
    assert game.balls_left(BLUE) == 23


def test_only_the_last_roll_counts() -> None:
    game = battle_on_r9c6()
    fight(game, (6, 6, 6), (1, 1, 1), (6, 6, 6), (1, 1, 1), (1, 1, 2), (1, 1, 1))
    assert game.owner("r9c6") == BLUE


def test_kept_dice_stay_and_the_roll_fills_the_others_in_order() -> None:
    game = battle_on_r9c6()
    fight(game, (6, 2, 5), (3, 3, 3))
    assert game.apply(Keep((0, 2))).accepted
    battle = game.battle
    assert battle is not None
    assert battle.kept[0] == (True, False, True)
    fight(game, (4,))
    battle = game.battle
    assert battle is not None
    assert battle.dice[0] == (6, 4, 5)
    assert battle.kept[0] == (False, False, False)  # cleared after the roll
    assert battle.rolls == (2, 1)


def test_keep_may_be_changed_before_the_roll() -> None:
    game = battle_on_r9c6()
    fight(game, (6, 2, 5), (3, 3, 3))
    game.apply(Keep((0, 2)))
    game.apply(Keep((1,)))
    fight(game, (1, 1))
    battle = game.battle
    assert battle is not None
    assert battle.dice[0] == (1, 2, 1)


def test_defender_keeps_its_own_dice() -> None:
    game = battle_on_r9c6()
    fight(game, (1, 1, 1), (6, 1, 6), (1, 1, 1))
    assert game.to_move == RED
    game.apply(Keep((0, 2)))
    fight(game, (2,))
    battle = game.battle
    assert battle is not None
    assert battle.dice[1] == (6, 2, 6)


def test_the_roll_must_bring_one_die_for_each_not_kept() -> None:
    game = battle_on_r9c6()
    verdict = game.judge(BattleRoll((6, 6)))
    assert "blue keeps no dice, so the battle roll takes 3 dice, not 2" in verdict.reason
    fight(game, (6, 2, 5), (3, 3, 3))
    game.apply(Keep((0,)))
    verdict = game.judge(BattleRoll((1, 2, 3)))
    assert "keeps 1 of 3 dice, so the battle roll takes 2 dice, not 3" in verdict.reason


def test_nothing_can_be_kept_before_the_first_roll() -> None:
    game = battle_on_r9c6()
    verdict = game.judge(Keep((0,)))
    assert "first roll uses all three dice" in verdict.reason


@pytest.mark.parametrize("dice", [(3,), (0, 0), (-1,)])
def test_keep_refuses_dice_that_are_not_0_1_or_2(dice: tuple[int, ...]) -> None:
    game = battle_on_r9c6()
    fight(game, (1, 2, 3), (1, 2, 3))
    assert "0, 1 or 2, each at most once" in game.judge(Keep(dice)).reason


def test_battle_dice_must_be_faces() -> None:
    game = battle_on_r9c6()
    assert "7 is not a die face" in game.judge(BattleRoll((1, 7, 3))).reason


def test_no_placing_or_keeping_outside_its_time() -> None:
    game = battle_on_r9c6()
    assert "a battle is being fought" in game.judge(Place("r3c3")).reason
    fresh = DoublesWild(2)
    assert "only in a battle" in fresh.judge(Keep(())).reason
    assert "must roll the dice first" in fresh.judge(BattleRoll((1, 2, 3))).reason


def test_battle_state_is_shown_to_the_screen() -> None:
    game = battle_on_r9c6()
    fight(game, (6, 2, 5))
    state = game.state_dict()["battle"]
    assert state["dice"] == [[6, 2, 5], [None, None, None]]
    assert state["roller"] == RED
    assert state["totals"] == [13, 0]
    assert state["winner"] is None


def test_winning_a_battle_can_complete_a_line() -> None:
    game = battle_on_r9c6({"r9c6": "red", "r9c7": "blue", "r9c8": "blue"})
    fight(game, (6, 6, 6), (1, 1, 1), (6, 6, 6), (1, 1, 1), (6, 6, 6))
    verdict = game.apply(BattleRoll((1, 1, 1)))
    assert [(e.player, e.points) for e in verdict.events] == [(BLUE, 1)]
    assert game.scores() == [1, 0]
    assert game.layout()["r9c6"].state == "protected"


def test_a_battle_won_with_the_last_ball_into_a_playoff_names_each_spot_once() -> None:
    board = {f"r3c{c}": "blue" for c in (3, 4, 5)} | {f"r11c{c}": "red" for c in (3, 4, 5)}
    game = DoublesWild.from_position(board | {"r7c7": "red"}, balls=[1, 0])
    assert game.apply(Roll((3, 4), (3, 4))).accepted
    assert game.apply(Attack("r7c7")).accepted
    fight(game, (6, 6, 6), (1, 1, 1), (6, 6, 6), (1, 1, 1), (6, 6, 6))
    verdict = game.apply(BattleRoll((1, 1, 1)))
    assert verdict.accepted, verdict.reason
    assert "blue wins the battle for r7c7" in verdict.reason
    assert game.playoff == (BLUE, RED)
    assert game.layout() == {}
    assert sorted(verdict.removed) == sorted(set(board) | {"r7c7"})
