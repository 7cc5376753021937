"""Double Take rules (RULES.md §4), each pinned by a small position."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import Action, Pass, Resign
from games.double_take.game import DoubleTake, Step
from games.errors import BadSettings, GameError

RED, GREEN = 0, 1
RESERVE = "b9 d9 f9 h9"
"""Green pieces far from the action, so no test position starts as a piece-count draw."""


def position(red: str = "", green: str = "", to_move: int = RED, rows: int = 9) -> DoubleTake:
    pieces = dict.fromkeys(red.split(), RED)
    pieces.update(dict.fromkeys(green.split(), GREEN))
    return DoubleTake.from_position(pieces, to_move, rows=rows)


def reason(game: DoubleTake, action: Action) -> str:
    verdict = game.judge(action)
    assert not verdict.accepted
    return verdict.reason


# -- board and setup -----------------------------------------------------------------
def test_setup_puts_twelve_pieces_each_on_own_points_of_the_three_near_rows() -> None:
    game = DoubleTake()
    layout = game.layout()
    red = sorted(c for c, p in layout.items() if p.owner == RED)
    green = sorted(c for c, p in layout.items() if p.owner == GREEN)
    assert red == sorted(["a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3"])
    assert green == sorted(["b7", "d7", "f7", "h7", "a8", "c8", "e8", "g8", "b9", "d9", "f9", "h9"])
    assert game.pieces_left() == [12, 12]
    assert game.to_move == RED
    assert game.scores() == [0, 0]
    assert game.outcome is None
    assert {p.label for p in layout.values() if p.owner == RED} == {"red"}
    assert all(p.kind == "man" and p.state == "" for p in layout.values())


@pytest.mark.parametrize("rows", [8, 10])
def test_setup_follows_the_rows_option(rows: int) -> None:
    game = DoubleTake(options={"rows": rows})
    green_ranks = {int(c[1:]) for c, p in game.layout().items() if p.owner == GREEN}
    assert green_ranks == {rows - 2, rows - 1, rows}
    assert len(game.cells()) == 8 * rows
    assert game.cells()[-1] == f"h{rows}"


def test_cells_run_rank_by_rank_from_red_near_left_corner() -> None:
    cells = DoubleTake().cells()
    assert cells[:9] == ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2"]
    assert len(cells) == 72


def test_point_colours_follow_rank_plus_file_parity() -> None:
    game = DoubleTake()
    assert game.colour("a1") == RED
    assert game.colour("b1") == GREEN
    assert game.colour("h9") == GREEN
    assert game.far_row(RED) == ["a9", "c9", "e9", "g9"]
    assert game.far_row(GREEN) == ["b1", "d1", "f1", "h1"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rows": 11}, "rows must be a whole number from 8 to 10, not 11"),
        ({"rows": "9"}, "rows must be a whole number from 8 to 10, not '9'"),
        ({"repetitions": 1}, "repetitions must be a whole number of at least 2, not 1"),
    ],
)
def test_bad_option_is_refused_with_a_clear_message(options: dict[str, Any], message: str) -> None:
    with pytest.raises(BadSettings, match=message):
        DoubleTake(options=options)


def test_three_players_are_refused() -> None:
    with pytest.raises(BadSettings):
        DoubleTake(players=3)


def test_from_position_refuses_a_piece_on_the_wrong_colour() -> None:
    with pytest.raises(BadSettings, match="c4 is a green point; a red piece cannot stand there"):
        position(red="c4")


# -- ordinary moves ------------------------------------------------------------------------
def test_red_moves_forward_diagonally_and_straight() -> None:
    game = position(red="c3", green="b9 d9 f9 h9")
    assert set(game.legal_actions()) == {Step("c3", "b4"), Step("c3", "d4"), Step("c3", "c5")}


def test_green_forward_is_toward_rank_one() -> None:
    game = position(red="a1 c1 e1 g1", green="e6", to_move=GREEN)
    assert set(game.legal_actions()) == {Step("e6", "d5"), Step("e6", "f5"), Step("e6", "e4")}
    assert reason(game, Step("e6", "d7")) == "e6→d7 captures nothing and goes backward"


def test_straight_move_needs_empty_point() -> None:
    game = position(red="c3", green="c4 " + RESERVE)
    assert reason(game, Step("c3", "c5")) == "c3→c5 passes over c4, which is occupied"
    assert Step("c3", "c5") not in game.legal_actions()


def test_straight_capturing_move_needs_empty_point_too() -> None:
    # c3→e3 would sandwich f3 against g3, but d3 is in the way.
    game = position(red="c3 g3", green="d3 f3 " + RESERVE)
    assert game.sandwiched("c3", "e3") == ("f3",)
    assert reason(game, Step("c3", "e3", ("f3",))) == "c3→e3 passes over d3, which is occupied"
    assert all(a.to != "e3" for a in game.legal_actions() if isinstance(a, Step))


def test_non_capturing_move_cannot_go_backward_or_sideways() -> None:
    game = position(red="c3", green=RESERVE)
    assert reason(game, Step("c3", "b2")) == "c3→b2 captures nothing and goes backward"
    assert reason(game, Step("c3", "c1")) == "c3→c1 captures nothing and goes backward"
    assert reason(game, Step("c3", "e3")) == "c3→e3 captures nothing and goes sideways"


def test_moves_off_the_own_network_are_refused() -> None:
    game = position(red="c3", green=RESERVE)
    assert reason(game, Step("c3", "c4")) == "c4 is not on a red line from c3"
    assert reason(game, Step("c3", "d5")) == "d5 is not on a red line from c3"
    assert reason(game, Step("c3", "c3")) == "c3 is not on a red line from c3"


def test_move_onto_an_occupied_point_is_refused() -> None:
    game = position(red="c3 d4", green=RESERVE)
    assert reason(game, Step("c3", "d4")) == "d4 is occupied"


def test_moving_nothing_or_the_wrong_colour_is_refused() -> None:
    game = position(red="c3", green=RESERVE)
    assert reason(game, Step("d4", "e5")) == "no piece on d4"
    assert reason(game, Step("b9", "a8")) == "it is red's turn"
    assert reason(game, Step("c3", "z9")) == "z9 is not a point of the board"


def test_a_step_moves_the_piece_and_passes_the_turn() -> None:
    game = position(red="c3", green=RESERVE)
    verdict = game.apply(Step("c3", "d4"))
    assert verdict.accepted
    assert verdict.removed == ()
    assert set(game.layout()) == {"d4", *RESERVE.split()}
    assert game.to_move == GREEN
    assert game.history == [Step("c3", "d4")]


# -- captures ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("extra_red", "green", "taken"),
    [
        ("f4", "e4", ("e4",)),
        ("f4 b4", "e4 c4", ("c4", "e4")),
        ("f4 b4 d6", "e4 c4 d5", ("c4", "d5", "e4")),
        ("f4 b4 d6 d2", "e4 c4 d5 d3", ("c4", "d3", "d5", "e4")),
    ],
)
def test_capture_takes_every_sandwiched_piece(
    extra_red: str, green: str, taken: tuple[str, ...]
) -> None:
    game = position(red="c3 " + extra_red, green=green + " " + RESERVE)
    assert game.sandwiched("c3", "d4") == taken
    assert Step("c3", "d4", taken) in game.legal_actions()
    verdict = game.apply(Step("c3", "d4", taken))
    assert verdict.accepted
    assert verdict.removed == taken
    assert not set(taken) & set(game.layout())
    assert game.pieces_left() == [1 + len(extra_red.split()), 4]


def test_capture_needs_own_piece_beyond_the_enemy() -> None:
    game = position(red="c3", green="e4 " + RESERVE)
    assert game.sandwiched("c3", "d4") == ()
    assert reason(game, Step("c3", "d4", ("e4",))) == "c3→d4 captures nothing"


def test_partial_capture_is_refused() -> None:
    game = position(red="c3 f4 b4", green="e4 c4 " + RESERVE)
    assert (
        reason(game, Step("c3", "d4", ("c4",)))
        == "a capture takes every sandwiched piece: c4 and e4"
    )
    assert (
        reason(game, Step("c3", "d4", ("c4", "e4", "b9")))
        == "a capture takes every sandwiched piece: c4 and e4"
    )


def test_forward_capture_is_optional_and_listed_both_ways() -> None:
    game = position(red="c3 f4", green="e4 " + RESERVE)
    legal = game.legal_actions()
    assert Step("c3", "d4", ("e4",)) in legal
    assert Step("c3", "d4") in legal
    verdict = game.apply(Step("c3", "d4"))
    assert verdict.accepted
    assert "e4" in game.layout()


def test_backward_capture_is_listed_only_with_its_capture() -> None:
    # d4→c3 goes backward; it sandwiches c2 against c1.
    game = position(red="d4 c1", green="c2 " + RESERVE)
    legal = game.legal_actions()
    assert Step("d4", "c3", ("c2",)) in legal
    assert Step("d4", "c3") not in legal
    assert reason(game, Step("d4", "c3")) == "without a capture a piece moves only forward"


def test_sideways_capture_is_allowed() -> None:
    game = position(red="c3 g3", green="f3 " + RESERVE)
    assert game.apply(Step("c3", "e3", ("f3",))).accepted
    assert game.pieces_left() == [2, 4]


def test_moving_into_a_sandwich_is_safe() -> None:
    game = position(red="c3", green="c4 e4 d3 e6")
    assert game.apply(Step("c3", "d4")).accepted
    assert game.layout()["d4"].owner == RED
    # ...but green may close a sandwich across it the other way.
    assert game.sandwiched("e6", "d5") == ("d4",)
    assert game.apply(Step("e6", "d5", ("d4",))).accepted
    assert "d4" not in game.layout()


def test_corner_piece_is_never_captured() -> None:
    # h9 is a green corner: red stands on both its board neighbours g9 and h8.
    game = position(red="g9 g7 a1 c1", green="h9 b5 d5 f5")
    assert game.sandwiched("g7", "h8") == ()
    assert game.apply(Step("g7", "h8")).accepted
    assert game.layout()["h9"].owner == GREEN


def test_sandwiched_reports_captures_of_an_illegal_move_for_the_daemon() -> None:
    game = position(red="d4 c1", green="c2 " + RESERVE)
    assert game.sandwiched("d4", "c3") == ("c2",)
    assert game.sandwiched("d4", "z3") == ()


# -- the far row ---------------------------------------------------------------------------
def test_far_row_piece_moves_only_to_capture() -> None:
    game = position(red="c9 a1", green="b5 d5 f5 h5")
    assert game.layout()["c9"].state == "far-row"
    assert game.scores() == [1, 0]
    for to in ("b8", "d8", "a9", "e9"):
        assert reason(game, Step("c9", to)) == "a piece on its far row moves only to capture"
    assert all(a.frm != "c9" for a in game.legal_actions() if isinstance(a, Step))


def test_far_row_piece_sideways_capture_keeps_it_on_the_far_row() -> None:
    game = position(red="c9 g9 a1", green="f9 b5 d5 f5")
    assert game.legal_actions().count(Step("c9", "e9", ("f9",))) == 1
    assert Step("c9", "e9") not in game.legal_actions()
    game.apply(Step("c9", "e9", ("f9",)))
    assert game.layout()["e9"].state == "far-row"


def test_capturing_off_the_far_row_releases_the_piece() -> None:
    # c9→d8 sandwiches e8 against f8 and leaves the far row.
    game = position(red="c9 f8 a1 c1", green="e8 b5 d5 f5")
    verdict = game.apply(Step("c9", "d8", ("e8",)))
    assert verdict.accepted
    assert verdict.points(2) == [-1, 0]
    assert game.layout()["d8"].state == ""
    game.apply(Step("b5", "a4"))
    assert game.judge(Step("d8", "e9")).accepted


def test_reaching_the_far_row_scores_one() -> None:
    game = position(red="b8 a1", green="b5 d5 f5 h5")
    verdict = game.apply(Step("b8", "c9"))
    assert verdict.points(2) == [1, 0]
    assert game.scores() == [1, 0]
    assert game.layout()["c9"].state == "far-row"


def test_capturing_an_enemy_far_row_piece_lowers_its_score() -> None:
    # d1 is on green's far row; a1→c1 sandwiches it against e1.
    game = position(red="a1 e1 g1 c3", green="d1 b5 d5 f5")
    assert game.scores() == [0, 1]
    verdict = game.apply(Step("a1", "c1", ("d1",)))
    assert verdict.accepted
    assert verdict.points(2) == [0, -1]
    assert game.scores() == [0, 0]


# -- how the game ends --------------------------------------------------------------------
def test_four_on_the_far_row_wins_at_once() -> None:
    game = position(red="a9 c9 e9 f8", green="h9 f7 b5 d5")
    verdict = game.apply(Step("f8", "g9"))
    assert verdict.accepted
    assert game.outcome is not None
    assert game.outcome.winners == (RED,)
    assert not game.outcome.draw
    assert game.outcome.reason == "red has four pieces on the far row"
    assert game.legal_actions() == []
    assert game.judge(Step("f7", "e6")).reason == "the game is over"


def test_green_wins_on_rank_one() -> None:
    game = position(red="a9 c9 e9 a5", green="b1 d1 f1 g2", to_move=GREEN)
    game.apply(Step("g2", "h1"))
    assert game.outcome is not None
    assert game.outcome.winners == (GREEN,)


def test_player_who_cannot_move_passes() -> None:
    # Red's three pieces stand on the far row with nothing to capture.
    game = position(red="a9 c9 e9", green="b5 d5 f5 h5")
    assert game.outcome is None
    assert game.legal_actions() == [Pass()]
    assert reason(game, Step("c9", "d8")) == "a piece on its far row moves only to capture"
    assert game.apply(Pass()).accepted
    assert game.to_move == GREEN
    assert reason(game, Pass()) == "green can move, so may not pass"


def test_neither_side_able_to_move_is_a_draw() -> None:
    # After c7→d8 red's pieces are all blocked, and green's already were.
    game = position(red="a9 c9 e9 b8 c7", green="d1 f1 h1 e2 g2")
    assert game.outcome is None
    game.apply(Step("c7", "d8"))
    assert game.outcome is not None
    assert game.outcome.draw
    assert game.outcome.winners == ()
    assert game.outcome.reason == "neither side can move"


def test_both_sides_below_four_pieces_is_a_draw() -> None:
    game = position(red="c3 f4 a1", green="e4 b9 d9 f9")
    game.apply(Step("c3", "d4", ("e4",)))
    assert game.pieces_left() == [3, 3]
    assert game.outcome is not None
    assert game.outcome.draw
    assert game.outcome.reason == "both sides have fewer than four pieces"


def test_one_side_below_four_pieces_plays_on() -> None:
    game = position(red="c3 f4 a1 g1", green="e4 b9 d9 f9")
    game.apply(Step("c3", "d4", ("e4",)))
    assert game.outcome is None


def test_repeated_position_is_a_draw() -> None:
    # Every step advances or captures, so legal play cannot repeat a position; the
    # rule is pinned by telling the game it has seen the coming position once already.
    pieces = dict.fromkeys(["c3", "a1", "e1", "g1"], RED)
    pieces.update(dict.fromkeys(RESERVE.split(), GREEN))
    game = DoubleTake.from_position(pieces, RED, repetitions=2)
    ahead = DoubleTake.from_position(pieces, RED, repetitions=2)
    ahead.apply(Step("c3", "d4"))
    game._seen[ahead.position_key()] += 1
    game.apply(Step("c3", "d4"))
    assert game.outcome is not None
    assert game.outcome.draw
    assert game.outcome.reason == "the same position came up 2 times"


def test_resignation_gives_the_other_side_the_game() -> None:
    game = DoubleTake()
    assert game.apply(Resign(GREEN)).accepted
    assert game.outcome is not None
    assert game.outcome.winners == (RED,)
    assert game.outcome.reason == "green resigned"


def test_resignation_names_a_real_seat() -> None:
    assert reason(DoubleTake(), Resign(2)) == "there is no seat 2; red is 0, green 1"


# -- reasons, decode, state ------------------------------------------------------------------
def test_a_step_is_judged_with_the_captures_it_makes() -> None:
    game = position(red="d4 c1 f4", green="c2 " + RESERVE)
    assert game.sandwiched("d4", "c3") == ("c2",)
    assert game.judge(Step("d4", "c3", ("c2",))).accepted
    assert game.sandwiched("d4", "e5") == ()
    assert game.judge(Step("d4", "e5")).accepted


def test_the_judge_names_what_is_wrong() -> None:
    game = position(red="c3 e3", green="c4 " + RESERVE)
    assert reason(game, Step("c3", "c5")) == "c3→c5 passes over c4, which is occupied"
    assert reason(game, Step("c3", "b2")) == "c3→b2 captures nothing and goes backward"
    assert reason(game, Step("c5", "c7")) == "no piece on c5"
    assert reason(game, Step("c3", "d5")) == "d5 is not on a red line from c3"


@pytest.mark.parametrize(
    "action",
    [Step("c3", "d4"), Step("c3", "d4", ("c4", "e4")), Pass(), Resign(1), Resign(0)],
)
def test_decode_reverses_to_dict(action: Action) -> None:
    game = DoubleTake()
    data = json.loads(json.dumps(action.to_dict()))
    assert game.decode(data) == action


def test_step_keeps_its_captures_sorted() -> None:
    assert Step("c3", "d4", ("e4", "c4")) == Step("c3", "d4", ("c4", "e4"))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("step", "an action must be a mapping"),
        ({"type": "roll"}, "unknown action type 'roll'"),
        ({"type": "step", "frm": "c3"}, "a step needs 'frm' and 'to'"),
        ({"type": "step", "frm": "c3", "to": "d4", "via": "x"}, "a step needs 'frm' and 'to'"),
        ({"type": "step", "frm": "c3", "to": "z9"}, "'z9' is not a point of this board"),
        ({"type": "step", "frm": 3, "to": "d4"}, "3 is not a point of this board"),
        ({"type": "step", "frm": "c3", "to": "d4", "captures": "e4"}, "'captures' must be a list"),
        (
            {"type": "step", "frm": "c3", "to": "d4", "captures": ["e4", "e4"]},
            "names a point twice",
        ),
        ({"type": "pass", "player": 0}, "a pass has no fields"),
        ({"type": "resign"}, "a resignation needs 'player'"),
        ({"type": "resign", "player": True}, "a resignation needs 'player'"),
        ({"type": "resign", "player": 2}, "a resignation needs 'player'"),
    ],
)
def test_decode_refuses_malformed_input(data: Any, message: str) -> None:
    with pytest.raises(GameError, match=message):
        DoubleTake().decode(data)


def test_state_dict_is_json_and_reports_rows_and_pieces() -> None:
    game = position(red="c9 a1", green="b5 d5 f5 h5")
    state = json.loads(json.dumps(game.state_dict()))
    assert state["game"] == "double-take"
    assert state["rows"] == 9
    assert state["pieces_left"] == [2, 4]
    assert state["scores"] == [1, 0]
    assert state["layout"]["c9"] == {"kind": "man", "label": "red", "owner": 0, "state": "far-row"}


def test_replaying_the_history_rebuilds_the_game() -> None:
    game = DoubleTake(options={"rows": 8})
    rng = random.Random(7)
    while game.outcome is None:
        game.apply(rng.choice(game.legal_actions()))
    again = DoubleTake(options={"rows": 8})
    for action in game.history:
        assert again.apply(again.decode(action.to_dict())).accepted
    assert again.state_dict() == game.state_dict()


# -- random play --------------------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.sampled_from([8, 9, 10]))
def test_random_play_keeps_every_rule(seed: int, rows: int) -> None:
    game = DoubleTake(options={"rows": rows})
    rng = random.Random(seed)
    seen: set[tuple[object, int]] = set()
    while game.outcome is None:
        legal = game.legal_actions()
        assert legal
        for action in legal:
            assert game.judge(action).accepted, action
        assert len(set(legal)) == len(legal)
        key = game.position_key()
        assert key not in seen  # steps are irreversible
        seen.add(key)
        game.apply(rng.choice(legal))
        left = game.pieces_left()
        assert max(left) <= 12
        for cell, piece in game.layout().items():
            assert game.colour(cell) == piece.owner
    assert len(game.history) < 400


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.sampled_from([8, 9, 10]))
def test_moves_and_layout_kept_for_a_position_follow_every_action(seed: int, rows: int) -> None:
    game = DoubleTake(options={"rows": rows})
    rng = random.Random(seed)
    while game.outcome is None:
        steps = game.legal_steps()
        assert game.legal_steps() is steps, "worked out once per position"
        owners = {cell: piece.owner for cell, piece in game.layout().items()}
        fresh = DoubleTake.from_position(owners, game.to_move, rows=rows)
        assert steps == fresh.legal_steps()
        assert [a for a in game.legal_actions() if a != Pass()] == list(steps)
        far = {RED: str(rows), GREEN: "1"}
        assert {cell: (p.owner, p.state) for cell, p in game.layout().items()} == {
            cell: (owner, "far-row" if cell[1:] == far[owner] else "")
            for cell, owner in owners.items()
        }
        game.layout().clear()  # a caller's copy: the game's own stays whole
        assert len(game.layout()) == len(owners)
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.sampled_from([8, 9, 10]))
def test_legal_steps_are_every_step_check_accepts_in_board_order(seed: int, rows: int) -> None:
    game = DoubleTake(options={"rows": rows})
    rng = random.Random(seed)
    order = {cell: i for i, cell in enumerate(game.cells())}
    while game.outcome is None:
        accepted = {
            step
            for frm, piece in game.layout().items()
            if piece.owner == game.to_move
            for to in game.cells()
            for step in (Step(frm, to), Step(frm, to, game.sandwiched(frm, to)))
            if game.judge(step).accepted
        }
        steps = game.legal_steps()
        assert set(steps) == accepted and len(steps) == len(accepted)
        assert [order[s.frm] for s in steps] == sorted(order[s.frm] for s in steps)
        game.apply(rng.choice(game.legal_actions()))
