"""The count at a points tie: hands laid on the board or entered, checked against the deal."""

from __future__ import annotations

from PIL import Image

from firmware_bridge.kits import find_kit
from firmware_bridge.kits.dominoes.count import free_pairs, mismatch, pair_halves
from firmware_bridge.screen.layout import render
from games.dominoes.game import Domino, Dominoes, Place
from hardware.board import OCCUPIED
from tests.firmware_bridge.kits.dominoes.referee_helpers import Table
from tests.firmware_bridge.sim_runs import Play
from tests.firmware_bridge.test_oled_frames import check_frame

RESULT = [
    "Game over Boneyard 0",
    "P1 wins",
    "Tie on 10; pips in hand: P1 12 P2 4",
    "ok: new game",
    "P1 10 P2 10",
]


def tied(*, rfid: bool = True, players: int = 2) -> Table:
    """A game that has just ended on a 10–10 tie: P1 holds 0-0 6-6 (12), P2 2-2 (4)."""
    hands = [[(1, 5), (0, 0)], [(2, 2)], [(3, 3)]][:players]
    scores = [10, 10, 2][:players]
    game = Dominoes.from_position(
        players, board=[(2, 1, "H8", "I8")], hands=hands, boneyard=[(6, 6)], scores=scores
    )
    table = Table(game, rfid=rfid)
    table.press("roll")
    table.lay("J8,K8", "1-5")
    assert table.game.outcome is not None
    return table


def lay_hand(table: Table, *dominoes: str) -> list[str]:
    """Lay dominoes on the bottom row, A15-B15 first; the cells used."""
    cells: list[str] = []
    for domino, (a, b) in zip(
        dominoes, free_pairs(table.game.layout(), len(dominoes)), strict=True
    ):
        table.lay(f"{a},{b}", domino)
        cells += [a, b]
    return cells


def count_hand(table: Table, *dominoes: str) -> None:
    cells = lay_hand(table, *dominoes)
    table.press("ok")
    table.lift(*cells)


def d(text: str) -> Domino:
    a, b = text.split("-")
    return Domino(int(a), int(b))


# -- the pure parts -----------------------------------------------------------------------
def test_halves_pair_into_whole_dominoes_and_a_lone_half_is_left() -> None:
    halves = [(d("0-0"), 0), (d("0-0"), 0), (d("3-6"), 6), (d("3-6"), 3), (d("1-2"), 2)]
    assert pair_halves(halves) == ([d("0-0"), d("3-6")], [d("1-2")])


def test_a_second_copy_of_a_domino_needs_both_of_its_halves() -> None:
    halves = [(d("3-6"), 6), (d("3-6"), 3), (d("3-6"), 6)]
    assert pair_halves(halves) == ([d("3-6")], [d("3-6")])


def test_a_wrong_domino_is_named_with_the_one_it_should_be() -> None:
    dealt = [d("0-0"), d("6-6")]
    assert mismatch("P2", dealt, [d("0-0"), d("5-5")]) == "P2's hand should hold 6-6, not 5-5"
    assert mismatch("P2", dealt, [d("0-0")]) == "P2's hand should also hold 6-6"
    extra = mismatch("P2", dealt, [d("0-0"), d("6-6"), d("1-2")])
    assert extra == "P2's hand does not hold 1-2: take it off"
    assert mismatch("P2", dealt, [d("6-6"), d("0-0")]) == ""


def test_free_pairs_are_side_by_side_empty_cells_away_from_the_star() -> None:
    assert free_pairs(["A15"], 2) == [("C15", "D15"), ("E15", "F15")]


# -- laid on the board ----------------------------------------------------------------------
def test_a_points_tie_asks_the_first_tied_player_to_lay_the_hand() -> None:
    table = tied()
    assert table.oled() == [
        "Tie: count the pips",
        "back: enter the pips",
        "P1: lay your hand on free cells, then ok.",
        "P1 10 P2 10",
    ]
    state = table.session.state()
    assert state.extra["phase"] == "count" and state.fixes == []
    assert state.extra["count"]["player"] == "player 1" and state.extra["count"]["by"] == "tags"


def test_each_tied_hand_is_summed_lifted_and_then_the_winner_is_named_on_pips() -> None:
    table = tied()
    cells = lay_hand(table, "0-0", "6-6")
    table.press("ok")
    assert table.oled()[1:4] == ["P1: 12 pips.", "Take it off:", "Lift A15 (0-0) (1/4)"]
    board = table.session.screen().board
    assert board is not None and board.framed == ("A15",)
    assert [f["cell"] for f in table.session.state().fixes] == cells
    table.lift(*cells)
    assert table.oled()[2] == "Counted: P1 12"
    assert table.oled()[3] == "P2: lay your hand on free cells, then ok."
    count_hand(table, "2-2")
    assert table.oled() == RESULT
    state = table.session.state()
    assert state.extra["phase"] == "over"
    assert state.extra["count"]["counted"] == {"player 1": 12, "player 2": 4}
    outcome = table.game.outcome
    assert outcome is not None and outcome.winners == (0,)


def test_ok_starts_a_new_game_only_after_the_count() -> None:
    table = tied()
    table.press("ok")
    assert not table.referee.facts.prompt.new_game_requested
    count_hand(table, "0-0", "6-6")
    count_hand(table, "2-2")
    table.press("ok")
    assert table.referee.facts.prompt.new_game_requested


def test_a_wrong_domino_in_the_laid_hand_is_named_and_counted_again() -> None:
    table = tied()
    cells = lay_hand(table, "0-0", "5-5")
    table.press("ok")
    assert table.oled()[1:] == [
        "P1's hand should hold 6-6, not 5-5",
        "Laid 10 pips: put it right, then ok.",
        "P1 10 P2 10",
    ]
    verdict = table.session.state().verdict
    assert not verdict["accepted"] and "6-6, not 5-5" in verdict["reason"]
    assert table.session.state().extra["count"]["counted"] == {}
    table.lift(*cells[2:])
    table.lay(f"{cells[2]},{cells[3]}", "6-6")
    table.press("ok")
    assert table.session.state().extra["count"]["counted"] == {"player 1": 12}


def test_a_missing_domino_is_asked_for() -> None:
    table = tied()
    lay_hand(table, "6-6")
    table.press("ok")
    assert table.oled()[1] == "P1's hand should also hold 0-0"


def test_a_board_domino_moved_while_counting_must_go_back_first() -> None:
    table = tied()
    lay_hand(table, "0-0", "6-6")
    table.lift("J8", "K8")
    table.press("ok")
    assert table.oled()[1:] == [
        "No: put 1-5 back on J8–K8 first",
        "Put it right, then ok.",
        "P1 10 P2 10",
    ]
    assert table.session.state().extra["count"]["counted"] == {}


def test_a_half_whose_tag_is_not_read_is_laid_again() -> None:
    table = tied()
    lay_hand(table, "0-0", "6-6")
    table.board["D15"] = OCCUPIED
    table.settle()
    table.press("ok")
    assert "the tag on D15 is not read: lay it again" in table.oled()[1]


def test_back_counts_the_hand_on_the_buttons_instead() -> None:
    table = tied()
    table.press("back")
    assert table.session.state().extra["count"]["stage"] == "enter"
    table.press("right", long=True)
    table.press("right", long=True)
    table.press("right")
    table.press("right")
    table.press("ok")
    assert table.session.state().extra["count"]["counted"] == {"player 1": 12}
    assert "P2: lay your hand on free cells, then ok." in table.oled(), "laid again"


def test_a_tie_of_equal_hands_is_a_shared_win() -> None:
    game = Dominoes.from_position(
        3,
        board=[(2, 1, "H8", "I8")],
        hands=[[(1, 5), (0, 4)], [(4, 4)], [(3, 3)]],
        boneyard=[(1, 3)],
        scores=[10, 10, 2],
    )
    table = Table(game)
    table.press("roll")
    table.lay("J8,K8", "1-5")
    count_hand(table, "0-4", "1-3")
    count_hand(table, "4-4")
    assert table.oled()[1:4] == [
        "P1 and P2 win",
        "Tie on 10; pips in hand: P1 8 P2 8",
        "ok: new game",
    ]
    assert table.session.state().extra["count"]["counted"] == {"player 1": 8, "player 2": 8}


def test_a_game_won_on_points_is_not_counted() -> None:
    game = Dominoes.from_position(
        2,
        board=[(2, 1, "H8", "I8")],
        hands=[[(1, 5)], [(2, 2)]],
        boneyard=[(6, 6)],
        scores=[12, 10],
    )
    table = Table(game)
    table.press("roll")
    table.lay("J8,K8", "1-5")
    assert table.oled()[0] == "Game over Boneyard 0"
    assert table.session.state().extra["count"] is None


# -- entered with the buttons ------------------------------------------------------------
def test_without_tag_readers_the_total_is_entered_with_the_buttons() -> None:
    table = tied(rfid=False)
    assert table.oled() == [
        "Tie: count the pips",
        "P1: pips in hand?",
        "L/R: -1/+1, held 5",
        "< 0 >  ok: that's it",
        "P1 10 P2 10",
    ]
    table.press("left")
    assert "< 0 >  ok: that's it" in table.oled(), "the total never goes below 0"
    table.press("right", long=True)
    table.press("right", long=True)
    table.press("right", long=True)
    table.press("left")
    assert table.session.state().extra["count"]["entry"] == 14
    table.press("ok")
    assert table.oled()[1] == "P1's hand should hold 12 pips, not 14: count again"
    table.press("left")
    table.press("left")
    table.press("ok")
    assert table.oled()[1] == "P2: pips in hand?"
    assert "< 0 >  ok: that's it" in table.oled()
    assert "Counted: P1 12" in table.oled()
    for _ in range(4):
        table.press("right")
    table.press("ok")
    assert table.oled() == RESULT


# -- the computer's hand ----------------------------------------------------------------
def test_the_move_that_ends_in_a_tie_brings_the_count_in_the_computers_hand() -> None:
    game = Dominoes.from_position(
        2,
        board=[(2, 1, "H8", "I8")],
        hands=[[(1, 5), (0, 0)], [(2, 2)]],
        boneyard=[(6, 6)],
        scores=[10, 10],
    )
    table = Table(game)
    table.press("roll")
    steps = find_kit(table.referee.game.name).hand_for(table.referee).steps(Place(1, 5, "J8", "K8"))
    assert steps[:2] == [("place", "J8,K8", "1-5"), ("wait", "0.3")]
    assert steps[2:7] == [
        ("place", "A15,B15", "0-0"),
        ("wait", "0.3"),
        ("place", "C15,D15", "6-6"),
        ("wait", "0.3"),
        ("press", "ok"),
    ]
    assert steps[7:11] == [("lift", c) for c in ("A15", "B15", "C15", "D15")]
    assert ("place", "A15,B15", "2-2") in steps[11:]


def test_without_tag_readers_the_computer_enters_the_total() -> None:
    game = Dominoes.from_position(
        2,
        board=[(2, 1, "H8", "I8")],
        hands=[[(1, 5), (0, 0)], [(2, 2)]],
        boneyard=[(6, 6)],
        scores=[10, 10],
    )
    table = Table(game, rfid=False)
    table.press("roll")
    steps = (
        find_kit(table.referee.game.name).hand_for(table.referee).steps(Place(1, 5, "J8", "K8"))[2:]
    )
    twelve = [("hold", "right")] * 2 + [("press", "right")] * 2 + [("press", "ok")]
    four = [("press", "right")] * 4 + [("press", "ok")]
    assert steps == twelve + four


def test_a_tied_computer_game_is_counted_in_simulation(play: Play) -> None:
    # Seed 63: both players reach 101; P1 holds 15 pips, P2 16.
    run = play("dominoes", seed=63)
    outcome = run.outcome
    assert outcome is not None and not outcome.draw
    assert [run.game.seat_name(p) for p in outcome.winners] == ["player 2"]
    assert run.scores == {"player 1": 101, "player 2": 101}
    counting = [s for s in run.states if s.extra["phase"] == "count"]
    assert counting[0].extra["count"]["player"] == "player 1"
    assert {s.extra["count"]["stage"] for s in counting} == {"lay", "lift"}
    last = run.last
    assert last.extra["phase"] == "over" and last.fixes == []
    assert last.extra["count"]["counted"] == {"player 1": 15, "player 2": 16}
    assert "Tie on 101; pips in hand: P1 15 P2 16" in " ".join(last.oled), "wrapped"


# -- frames ------------------------------------------------------------------------------
def frame(table: Table) -> Image.Image:
    return render(table.session.screen())


def test_count_lay_frame(update_golden: bool) -> None:
    table = tied()
    count_hand(table, "0-0", "6-6")
    check_frame(frame(table), "dd_count_lay", update_golden)


def test_count_mismatch_frame(update_golden: bool) -> None:
    table = tied()
    lay_hand(table, "0-0", "5-5")
    table.press("ok")
    check_frame(frame(table), "dd_count_mismatch", update_golden)


def test_count_lift_frame(update_golden: bool) -> None:
    table = tied()
    lay_hand(table, "0-0", "6-6")
    table.press("ok")
    check_frame(frame(table), "dd_count_lift", update_golden)


def test_count_buttons_frame(update_golden: bool) -> None:
    table = tied(rfid=False)
    table.press("right", long=True)
    table.press("right")
    check_frame(frame(table), "dd_count_buttons", update_golden)
