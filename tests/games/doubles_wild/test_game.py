"""Doubles Wild: the board, the rolls, wild lines, blocked spots, re-rolls, actions."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.core import Action
from games.doubles_wild.game import (
    Attack,
    BattleRoll,
    DoublesWild,
    EndTurn,
    Keep,
    Place,
    Reroll,
    Roll,
    dice_action,
)
from games.errors import BadSettings, GameError


def rolled(
    red: tuple[int, int], blue: tuple[int, int], game: DoublesWild | None = None
) -> DoublesWild:
    game = game if game is not None else DoublesWild(2)
    assert game.apply(Roll(red, blue)).accepted
    return game


def column(col: int) -> set[str]:
    return {f"r{row}c{col}" for row in range(3, 12)}


def row(r: int) -> set[str]:
    return {f"r{r}c{col}" for col in range(3, 12)}


# -- the board and the seats ---------------------------------------------------------


def test_board_is_nine_by_nine_numbered_3_to_11() -> None:
    cells = DoublesWild(2).cells()
    assert len(cells) == 81
    assert cells[0] == "r3c3"
    assert cells[8] == "r3c11"
    assert cells[-1] == "r11c11"


@pytest.mark.parametrize(("players", "balls"), [(2, 24), (3, 18), (4, 12)])
def test_each_player_gets_the_balls_for_the_player_count(players: int, balls: int) -> None:
    game = DoublesWild(players)
    assert [game.balls_left(p) for p in range(players)] == [balls] * players


def test_seats_take_the_ball_colours_in_order() -> None:
    game = DoublesWild(4)
    assert [game.seat_name(p) for p in range(4)] == ["blue", "red", "purple", "green"]
    assert (DoublesWild.name, DoublesWild.title) == ("doubles-wild", "Doubles Wild")


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_outside_two_to_four_is_refused(players: int) -> None:
    with pytest.raises(BadSettings, match="2 to 4 players"):
        DoublesWild(players)


def test_ball_count_option_must_be_positive() -> None:
    assert DoublesWild(2, options={"balls": 3}).balls_left(1) == 3
    with pytest.raises(BadSettings, match="balls must be"):
        DoublesWild(2, options={"balls": 0})


@pytest.mark.parametrize(("players", "most"), [(2, 40), (3, 27), (4, 20)])
def test_ball_count_option_must_fit_the_board(players: int, most: int) -> None:
    # With more balls than spots the board can fill with every ball in a line while
    # balls are left: every spot is blocked for everyone and the game never ends.
    assert DoublesWild(players, options={"balls": most}).balls_left(0) == most
    with pytest.raises(BadSettings, match=f"at most {most} each"):
        DoublesWild(players, options={"balls": most + 1})


# -- each kind of roll ---------------------------------------------------------------


def test_plain_roll_names_row_by_red_and_column_by_blue() -> None:
    game = rolled((5, 4), (2, 4))
    assert game.spots() == {"r9c6"}
    assert game.target() == {"r9c6"}
    assert game.phase == "reroll-or-act"


def test_red_double_makes_the_blue_column_wild() -> None:
    game = rolled((4, 4), (3, 5))
    assert game.target() == column(8)
    assert game.apply(Place("r3c8")).accepted


def test_blue_double_makes_the_red_row_wild() -> None:
    game = rolled((3, 5), (2, 2))
    assert game.target() == row(8)
    verdict = game.apply(Place("r8c11"))
    assert verdict.accepted
    assert game.owner("r8c11") == 0


@pytest.mark.parametrize("red", [(1, 1), (6, 6), (3, 3)])
def test_doubles_on_both_pairs_make_the_whole_board_wild(red: tuple[int, int]) -> None:
    game = rolled(red, (2, 2))
    assert game.target() == set(game.cells())
    assert game.apply(Place("r11c3")).accepted


def test_double_ones_is_wild_though_no_row_two_exists() -> None:
    game = rolled((1, 1), (6, 5))
    assert game.target() == column(11)


def test_wild_pick_off_the_wild_line_is_refused() -> None:
    game = rolled((4, 4), (3, 5))
    verdict = game.judge(Place("r8c7"))
    assert not verdict.accepted
    assert "r8c7 is not a spot this roll allows" in verdict.reason
    assert "column 8 is wild" in verdict.reason


def test_placing_off_the_named_spot_is_refused() -> None:
    game = rolled((5, 4), (2, 4))
    verdict = game.judge(Place("r6c9"))
    assert not verdict.accepted
    assert "names r9c6" in verdict.reason


@pytest.mark.parametrize(
    ("red", "blue", "why"),
    [
        ((0, 4), (2, 4), "0 is not a die face"),
        ((5, 7), (2, 4), "7 is not a die face"),
        ((5, 4), (2,), "two blue dice"),
        ((5, 4, 1), (2, 4), "two red dice"),
    ],
)
def test_roll_with_bad_dice_is_refused(
    red: tuple[int, ...], blue: tuple[int, ...], why: str
) -> None:
    verdict = DoublesWild(2).judge(Roll(red, blue))  # type: ignore[arg-type]
    assert not verdict.accepted
    assert why in verdict.reason


def test_rolling_twice_in_a_turn_is_refused() -> None:
    game = rolled((5, 4), (2, 4))
    assert "already rolled" in game.judge(Roll((1, 2), (3, 4))).reason


def test_placing_before_the_roll_is_refused() -> None:
    verdict = DoublesWild(2).judge(Place("r9c6"))
    assert not verdict.accepted
    assert "must roll the dice first" in verdict.reason


def test_unknown_spot_name_is_refused_with_the_naming_rule() -> None:
    game = rolled((1, 1), (1, 1))
    verdict = game.judge(Place("r2c6"))
    assert not verdict.accepted
    assert "r<row>c<column>" in verdict.reason


# -- placing and turns ----------------------------------------------------------------


def test_placing_uses_a_ball_and_passes_the_turn() -> None:
    game = rolled((5, 4), (2, 4))
    verdict = game.apply(Place("r9c6"))
    assert verdict.accepted
    assert game.balls_left(0) == 23
    assert game.to_move == 1
    assert game.phase == "roll"
    assert game.dice is None
    assert game.layout()["r9c6"].label == "blue"


def test_turns_go_round_every_seat_in_order() -> None:
    game = DoublesWild(3)
    seen = []
    for n in range(4):
        seen.append(game.to_move)
        rolled((1, 1), (1, 1), game)
        assert game.apply(Place(game.cells()[n])).accepted
    assert seen == [0, 1, 2, 0]


# -- blocked spots --------------------------------------------------------------------


def test_own_ball_blocks_the_spot() -> None:
    game = DoublesWild.from_position({"r9c6": "blue"})
    rolled((5, 4), (2, 4), game)
    assert game.is_blocked("r9c6")
    assert game.target() == set()
    verdict = game.judge(Place("r9c6"))
    assert "blocked: it already holds blue's ball" in verdict.reason


def test_opponent_ball_in_a_line_blocks_the_spot() -> None:
    game = DoublesWild.from_position({"r9c6": "red", "r9c7": "red", "r9c8": "red"})
    rolled((5, 4), (2, 4), game)
    assert game.is_blocked("r9c6")
    verdict = game.judge(Attack("r9c6"))
    assert "blocked: red's ball there is part of a line" in verdict.reason


def test_unprotected_opponent_ball_is_attacked_not_placed_on() -> None:
    game = DoublesWild.from_position({"r9c6": "red", "r9c7": "red"})
    rolled((5, 4), (2, 4), game)
    assert not game.is_blocked("r9c6")
    assert game.target() == {"r9c6"}
    assert "attack it" in game.judge(Place("r9c6")).reason
    assert game.legal_actions()[-1] == Attack("r9c6")


def test_attacking_an_empty_spot_is_refused() -> None:
    game = rolled((5, 4), (2, 4))
    assert "nothing to attack" in game.judge(Attack("r9c6")).reason


def test_blocked_roll_ends_the_turn_without_using_a_ball() -> None:
    game = DoublesWild.from_position({"r9c6": "blue"}, balls=[5, 5])
    rolled((5, 4), (2, 4), game)
    assert EndTurn() in game.legal_actions()
    assert game.apply(EndTurn()).accepted
    assert game.balls_left(0) == 5
    assert game.to_move == 1


def test_turn_cannot_end_while_the_roll_allows_a_spot() -> None:
    game = rolled((5, 4), (2, 4))
    verdict = game.judge(EndTurn())
    assert not verdict.accepted
    assert "r9c6" in verdict.reason
    assert "must be placed" in verdict.reason


def test_wild_line_leaves_out_its_blocked_spots() -> None:
    game = DoublesWild.from_position(
        {"r3c8": "blue", "r4c8": "red", "r4c9": "red", "r4c10": "red", "r5c8": "red"}
    )
    rolled((4, 4), (3, 5), game)
    assert game.target() == column(8) - {"r3c8", "r4c8"}
    assert Attack("r5c8") in game.legal_actions()


def test_wild_line_all_blocked_ends_the_turn() -> None:
    game = DoublesWild.from_position({f"r{r}c8": "blue" for r in range(3, 12)})
    rolled((4, 4), (3, 5), game)
    assert game.target() == set()
    assert game.apply(EndTurn()).accepted


# -- re-rolls -------------------------------------------------------------------------


def test_rerolling_the_red_pair_keeps_the_blue_pair() -> None:
    game = rolled((5, 4), (2, 4))
    assert game.apply(Reroll("red", (1, 2))).accepted
    assert game.dice == ((1, 2), (2, 4))
    assert game.target() == {"r3c6"}
    assert game.phase == "place"


def test_rerolling_the_blue_pair_keeps_the_red_pair() -> None:
    game = rolled((5, 4), (2, 4))
    assert game.apply(Reroll("blue", (6, 5))).accepted
    assert game.dice == ((5, 4), (6, 5))
    assert game.target() == {"r9c11"}


def test_rerolling_both_pairs_takes_red_red_blue_blue() -> None:
    game = rolled((5, 4), (2, 4))
    assert game.apply(Reroll("both", (3, 3, 1, 2))).accepted
    assert game.dice == ((3, 3), (1, 2))
    assert game.target() == column(3)


def test_only_one_reroll_a_turn() -> None:
    game = rolled((5, 4), (2, 4))
    game.apply(Reroll("red", (1, 2)))
    verdict = game.judge(Reroll("blue", (1, 2)))
    assert not verdict.accepted
    assert "once a turn" in verdict.reason
    assert not any(isinstance(a, Reroll) for a in game.legal_actions())


def test_after_the_reroll_an_open_spot_must_be_played() -> None:
    game = rolled((5, 4), (2, 4))
    game.apply(Reroll("both", (2, 1, 2, 1)))
    assert not game.judge(EndTurn()).accepted
    assert game.legal_actions() == [Place("r3c3")]


def test_after_the_reroll_a_blocked_spot_ends_the_turn() -> None:
    game = DoublesWild.from_position({"r3c3": "blue"})
    rolled((5, 4), (2, 4), game)
    game.apply(Reroll("both", (2, 1, 2, 1)))
    assert game.legal_actions() == [EndTurn()]
    assert game.apply(EndTurn()).accepted
    assert game.to_move == 1


def test_the_reroll_may_turn_a_plain_roll_wild() -> None:
    game = rolled((5, 4), (2, 4))
    game.apply(Reroll("blue", (5, 5)))
    assert game.target() == row(9)


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (Reroll("red", (1, 2, 3)), "re-rolling red takes 2 dice, not 3"),
        (Reroll("both", (1, 2)), "re-rolling both takes 4 dice, not 2"),
        (Reroll("green", (1, 2)), "'green' is not 'red', 'blue' or 'both'"),
        (Reroll("blue", (1, 9)), "9 is not a die face"),
    ],
)
def test_bad_reroll_is_refused(action: Reroll, why: str) -> None:
    verdict = rolled((5, 4), (2, 4)).judge(action)
    assert not verdict.accepted
    assert why in verdict.reason


def test_reroll_before_the_roll_is_refused() -> None:
    assert "must roll the dice first" in DoublesWild(2).judge(Reroll("red", (1, 2))).reason


# -- dice from outside, actions as data --------------------------------------------------


def test_dice_action_builds_each_kind() -> None:
    assert dice_action("roll", (5, 4, 2, 4)) == Roll((5, 4), (2, 4))
    assert dice_action("reroll-both", (1, 2, 3, 4)) == Reroll("both", (1, 2, 3, 4))
    assert dice_action("reroll-red", (1, 2)) == Reroll("red", (1, 2))
    assert dice_action("battle-roll", (6,)) == BattleRoll((6,))
    with pytest.raises(GameError, match="unknown kind of dice"):
        dice_action("jump", (1,))
    with pytest.raises(GameError, match="four dice"):
        dice_action("roll", (1, 2))


@pytest.mark.parametrize(
    "action",
    [
        Roll((5, 4), (2, 4)),
        Reroll("both", (1, 2, 3, 4)),
        Place("r9c6"),
        Attack("r3c11"),
        BattleRoll((6, 1)),
        BattleRoll(()),
        Keep((0, 2)),
        EndTurn(),
    ],
)
def test_every_action_survives_the_journal(action: Action) -> None:
    data = json.loads(json.dumps(action.to_dict()))
    assert DoublesWild(2).decode(data) == action


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({"type": "fly"}, "unknown Doubles Wild action type 'fly'"),
        ({"type": "roll", "red": [1, 2]}, "missing its 'blue' field"),
        ({"type": "roll", "red": [1, 2, 3], "blue": [1, 2]}, "expected 2 dice"),
        ({"type": "place", "cell": 5}, "the cell must be a name"),
        ({"type": "keep", "dice": "01"}, "list of whole numbers"),
        ({"type": "battle-roll", "values": [1.5]}, "not a whole number"),
        (["roll", [1, 2], [3, 4]], "unknown Doubles Wild action type None"),
    ],
)
def test_malformed_journal_entries_are_refused(data: Any, why: str) -> None:
    with pytest.raises(GameError, match=why):
        DoublesWild(2).decode(data)


def test_journal_replay_rebuilds_the_game() -> None:
    game = DoublesWild.from_position({"r9c6": "red"})
    actions: list[Action] = [
        Roll((5, 4), (2, 4)),
        Attack("r9c6"),
        BattleRoll((6, 6, 6)),
        BattleRoll((1, 1, 1)),
        BattleRoll((1, 2, 3)),
        BattleRoll((1, 2, 3)),
        BattleRoll((1, 2, 3)),
        BattleRoll((1, 2, 3)),
        Roll((1, 1), (1, 1)),
        Place("r3c3"),
    ]
    for action in actions:
        assert game.apply(action).accepted
    again = DoublesWild.from_position({"r9c6": "red"})
    for entry in [a.to_dict() for a in game.history]:
        assert again.apply(again.decode(entry)).accepted
    assert again.state_dict() == game.state_dict()


def test_every_listed_action_is_accepted_in_every_phase() -> None:
    rng = random.Random(4)
    game = DoublesWild(3, options={"balls": 6})
    while game.outcome is None:
        actions = game.legal_actions()
        assert actions
        for action in actions:
            assert game.judge(action).accepted, (game.phase, action)
        pick = rng.choice(actions)
        if isinstance(pick, Roll):
            pick = Roll(
                (rng.randint(1, 6), rng.randint(1, 6)), (rng.randint(1, 6), rng.randint(1, 6))
            )
        elif isinstance(pick, Reroll | BattleRoll):
            values = tuple(rng.randint(1, 6) for _ in pick.values)
            pick = Reroll(pick.pair, values) if isinstance(pick, Reroll) else BattleRoll(values)
        assert game.apply(pick).accepted
    assert game.legal_actions() == []
    assert game.judge(Roll((1, 2), (3, 4))).reason == "the game is over"


def test_state_is_plain_json_with_phase_dice_and_target() -> None:
    game = rolled((4, 4), (3, 5))
    state = json.loads(json.dumps(game.state_dict()))
    assert state["game"] == "doubles-wild"
    assert state["phase"] == "reroll-or-act"
    assert state["dice"] == {"red": [4, 4], "blue": [3, 5]}
    assert state["target"][0] == "r3c8"
    assert state["balls_left"] == [24, 24]


def test_position_accepts_seats_or_colours_and_refuses_strangers() -> None:
    game = DoublesWild.from_position({"r3c3": 1, "r3c4": "purple"}, players=3, to_move=2)
    assert game.board() == {"r3c3": 1, "r3c4": 2}
    assert game.to_move == 2
    assert game.balls_left(2) == 17
    with pytest.raises(BadSettings, match="'green' is not a seat"):
        DoublesWild.from_position({"r3c3": "green"}, players=3)
    with pytest.raises(BadSettings, match="not a spot"):
        DoublesWild.from_position({"r12c3": "red"})
    for stranger in (None, 1.5, True):
        with pytest.raises(BadSettings, match=f"r3c3: {stranger!r} is not a seat"):
            DoublesWild.from_position({"r3c3": stranger})  # type: ignore[dict-item]
    with pytest.raises(BadSettings, match="give balls left for each of 2 seats"):
        DoublesWild.from_position({}, balls=[24, None])  # type: ignore[list-item]
