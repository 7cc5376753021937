"""The Dominoes referee: reading halves by tag, refusing with reasons, buttons, screens."""

from __future__ import annotations

import random

import pytest

from firmware_bridge.kits import find_kit
from firmware_bridge.kits.dominoes.referee import normalise_half, parse_half
from firmware_bridge.referees.referee import TAKE_BACK
from firmware_bridge.screen.whole_board import WholeBoard
from games.core import Piece
from games.dominoes.game import Dominoes, Place
from hardware.board import OCCUPIED
from tests.firmware_bridge.kits.dominoes.referee_helpers import Table


def opened() -> Table:
    """Seed 1, two players: player 1 holds 0-4 1-2 4-5 and is to draw (1-1)."""
    return Table(Dominoes(2, random.Random(1)))


def drawn() -> Table:
    table = opened()
    table.press("roll")
    return table


@pytest.mark.parametrize("label", ["6-3:6", "3-6:6", "6-3 half 6", " 3 - 6 : 6 "])
def test_every_spelling_of_a_half_is_one_half(label: str) -> None:
    assert normalise_half(label) == "3-6:6"


@pytest.mark.parametrize("label", ["6-3:5", "7-1:1", "A", "6-3", "", "6-3:6:6"])
def test_what_is_no_half_is_not_read_as_one(label: str) -> None:
    assert parse_half(label) is None


def test_a_layout_half_matches_its_tag_in_either_order() -> None:
    table = drawn()
    referee = table.referee
    piece = Piece("domino", "2-1:2")
    assert referee.matches(piece, table.tag("1-2:2"))
    assert referee.matches(piece, table.tag("2-1 half 2"))
    assert not referee.matches(piece, table.tag("1-2:1"))
    assert not referee.matches(piece, table.tag(None))
    assert referee.matches(piece, OCCUPIED)


def test_roll_draws_and_the_oled_names_the_domino_to_take() -> None:
    table = opened()
    assert "Press roll to draw." in table.oled()
    table.press("roll")
    assert table.game.phase == "play"
    assert "P1: take 1-1." in table.oled()
    assert "Hand 0-4 1-1 1-2 4-5" in table.oled()
    assert table.oled()[0] == "P1 lays Boneyard 49"


def test_two_halves_of_one_domino_are_one_placement() -> None:
    table = drawn()
    table.lay("H8,I8", "2-1")
    assert table.game.history[-1] == Place(2, 1, "H8", "I8")
    assert table.session.pending_fixes() == []
    assert table.game.to_move == 1


def test_one_half_waits_for_the_other() -> None:
    table = drawn()
    table.put("H8", "1-2:2")
    assert len(table.game.history) == 1
    assert table.referee.turn.rejection == ""
    assert "Lay the other half of 1-2 beside H8." in table.oled()
    table.put("I8", "1-2:1")
    assert table.game.history[-1] == Place(2, 1, "H8", "I8")


def test_an_unknown_tag_is_shown_as_unknown_and_must_be_lifted() -> None:
    table = drawn()
    table.put("H8", None)
    fixes = table.session.pending_fixes()
    assert [f.text() for f in fixes] == ["Lift the unknown piece on H8"]
    oled = " ".join(table.oled())
    assert "unknown piece on H8" in oled and "enrol" in oled
    table.lift("H8")
    assert table.session.pending_fixes() == []
    assert table.referee.turn.rejection == ""


def test_a_tag_that_is_no_domino_half_is_never_guessed() -> None:
    table = drawn()
    table.put("H8", "red")
    table.put("I8", "1-2:1")
    assert len(table.game.history) == 1
    assert table.referee.turn.rejection == "H8 holds red, not a domino half"
    assert table.session.pending_fixes()[0].text() == "Lift the red piece on H8"


def test_a_half_whose_tag_is_not_read_yet_is_waited_for() -> None:
    table = drawn()
    table.board["H8"] = table.tag("1-2:2")
    table.board["I8"] = OCCUPIED
    table.settle()
    assert table.referee.turn.rejection == "" and len(table.game.history) == 1
    assert "Reading the tag on I8: if this stays, lay it again." in table.oled()
    table.put("I8", "1-2:1")
    assert table.game.history[-1] == Place(2, 1, "H8", "I8")


def test_halves_of_two_dominoes_are_refused() -> None:
    table = drawn()
    table.board["H8"] = table.tag("1-2:2")
    table.board["I8"] = table.tag("4-5:4")
    table.settle()
    assert "halves of two dominoes (1-2 and 4-5)" in table.referee.turn.rejection
    assert [f.cell for f in table.session.pending_fixes()] == ["H8", "I8"]


def test_same_half_of_two_copies_is_two_dominoes() -> None:
    table = drawn()
    table.board["H8"] = table.tag("1-2:2")
    table.board["I8"] = table.tag("1-2:2")
    table.settle()
    assert "two dominoes" in table.referee.turn.rejection
    assert len(table.game.history) == 1


def test_laying_before_drawing_is_refused_until_roll_is_pressed() -> None:
    table = opened()
    table.lay("H8,I8", "2-1")
    assert table.referee.turn.rejection == "draw a domino from the boneyard first: press roll"
    assert table.game.history == []
    # Drawing then judges the domino already lying there.
    table.press("roll")
    assert table.game.history[-1] == Place(2, 1, "H8", "I8")
    assert table.referee.turn.rejection == ""


def test_an_illegal_placement_gives_the_rules_reason_and_fixes() -> None:
    table = drawn()
    table.lay("A1,A2", "4-5")
    assert table.referee.turn.rejection == "the first domino must lie on the star H8"
    lines = table.oled()
    assert lines[1] == "No: the first domino must lie on the star H8"
    assert lines[2] == "Lift A1 (4-5) (1/2)"
    table.lift("A1", "A2")
    assert table.referee.turn.rejection == "" and table.session.pending_fixes() == []


def test_more_than_one_domino_at_once_is_refused() -> None:
    table = drawn()
    table.board["H8"] = table.tag("1-2:2")
    table.board["I8"] = table.tag("1-2:1")
    table.board["J8"] = table.tag("4-5:4")
    table.settle()
    assert table.referee.turn.rejection == "lay one domino at a time"
    assert len(table.game.history) == 1


def test_a_laid_domino_lifted_again_must_go_back() -> None:
    table = drawn()
    table.lay("H8,I8", "2-1")
    table.lift("I8")
    assert table.referee.turn.rejection == "put 2-1 back on I8"
    fixes = table.session.pending_fixes()
    assert [(f.action, f.cell) for f in fixes] == [("place", "I8")]
    assert "Put the 1 of 1-2 on I8" in table.oled()
    table.put("I8", "1-2:1")
    assert table.referee.turn.rejection == ""


def test_a_laid_half_that_shows_another_tag_is_read_again() -> None:
    table = drawn()
    table.lay("H8,I8", "2-1")
    table.board["I8"] = table.tag("4-5:4")  # swapped without the board seeing it empty
    table.settle()
    assert table.referee.turn.rejection == "put 2-1 back on I8"
    table.board["I8"] = table.tag("1-2:1")  # the twin from the second set is as good
    table.settle()
    assert table.referee.turn.rejection == ""
    assert table.session.pending_fixes() == []


def test_chain_after_a_double_ends_on_ok() -> None:
    game = Dominoes.from_position(2, hands=[[(3, 3), (1, 3), (0, 2)], [(4, 4)]], phase="play")
    table = Table(game)
    table.lay("H7,H8", "3-3")
    assert table.game.phase == "chain"
    assert "Lay one beside 3-3 on H7–H8, or ok to end" in table.oled()
    table.press("ok")
    assert table.game.phase == "draw" and table.game.to_move == 1


def test_chain_refuses_a_domino_away_from_the_double() -> None:
    game = Dominoes.from_position(
        2,
        board=[(1, 2, "H8", "I8")],
        hands=[[(2, 2), (1, 5), (0, 2)], [(4, 4)]],
        phase="play",
    )
    table = Table(game)
    table.lay("J8,K8", "2-2")
    assert table.game.phase == "chain"
    table.lay("G8,F8", "1-5")
    assert table.referee.turn.rejection.startswith(
        "after a double the next domino must lie beside it"
    )


def test_discard_picks_with_left_and_right_and_ok() -> None:
    game = Dominoes.from_position(
        2,
        board=[(3, 3, "H7", "H8")],
        hands=[[(0, 4), (0, 6), (2, 4), (5, 5)], [(4, 4)]],
        phase="play",
    )
    table = Table(game)
    assert table.game.phase == "discard"
    assert "< 0-4 >  ok: pit it" in table.oled()
    table.press("left")
    assert "< 5-5 >  ok: pit it" in table.oled()
    table.press("ok")
    assert table.game.pit == [(5, 5)]
    assert table.game.to_move == 1


def test_a_long_back_offers_a_take_back_but_no_resigning() -> None:
    table = drawn()
    table.press("back", long=True)
    menu = table.referee.menu
    assert menu is not None
    assert [value for _, value in menu.options] == [False, TAKE_BACK]
    table.press("back")
    assert table.referee.menu is None
    assert table.game.outcome is None


def test_ok_while_a_domino_fits_says_to_lay_one() -> None:
    table = drawn()
    table.press("ok")
    assert table.oled()[1] == "A domino fits: lay one."
    assert table.game.phase == "play"


def test_every_screen_shows_scores_and_track_pips() -> None:
    game = Dominoes.from_position(2, hands=[[(1, 2)], [(4, 4)]], scores=[10, 4])
    table = Table(game)
    # Space 10 shows 3 pips, space 4 shows 4.
    assert "P1 10 P2 4" in table.oled(), "the scores, nothing else"
    assert "Track pips: P1 3 P2 4" in table.oled()
    assert table.session.state().extra["track"] == {
        "player 1": {"space": 10, "pips": 3},
        "player 2": {"space": 4, "pips": 4},
    }


def test_the_last_move_names_who_gained_the_track_bonus() -> None:
    game = Dominoes.from_position(
        2, board=[(1, 2, "H8", "I8")], hands=[[(2, 4)], [(4, 4)]], scores=[0, 4], phase="play"
    )
    table = Table(game)
    table.lay("J8,K8", "2-4")
    assert table.game.scores() == [0, 7]
    assert "P1 2-4 on J8–K8, takes 1-5 2-2 2-5: P2+3" in table.oled(), "the journal's words"
    events = table.session.state().verdict["events"]
    assert [e["player"] for e in events] == ["player 2"], "seats named as everywhere else"


def test_a_tie_shows_the_counted_pips_in_hand_and_who_wins_on_them() -> None:
    game = Dominoes.from_position(
        2,
        board=[(2, 1, "H8", "I8")],
        hands=[[(1, 5), (0, 0)], [(2, 2)]],
        boneyard=[(6, 6)],
        scores=[10, 10],
    )
    table = Table(game)
    table.press("roll")
    table.lay("J8,K8", "1-5")
    outcome = table.game.outcome
    assert outcome is not None and outcome.winners == (0,)
    for dominoes in (["0-0", "6-6"], ["2-2"]):
        cells = ["A15,B15", "C15,D15"][: len(dominoes)]
        for where, domino in zip(cells, dominoes, strict=True):
            table.lay(where, domino)
        table.press("ok")
        table.lift(*(c for where in cells for c in where.split(",")))
    assert table.oled() == [
        "Game over Boneyard 0",
        "P1 wins",
        "Tie on 10; pips in hand: P1 12 P2 4",
        "ok: new game",
        "P1 10 P2 10",
    ]


def test_on_an_occupancy_board_one_fitting_domino_is_played() -> None:
    game = Dominoes.from_position(
        2, board=[(1, 2, "H8", "I8")], hands=[[(2, 4), (5, 6)], [(4, 4)]], phase="play"
    )
    table = Table(game, rfid=False)
    table.lay("J8,K8", "2-4")
    assert table.game.history[-1] == Place(2, 4, "J8", "K8")


def test_on_an_occupancy_board_the_buttons_choose_between_dominoes() -> None:
    game = Dominoes.from_position(
        2, board=[(1, 2, "H8", "I8")], hands=[[(2, 4), (2, 5)], [(4, 4)]], phase="play"
    )
    table = Table(game, rfid=False)
    table.lay("J8,K8", "2-5")
    menu = table.referee.menu
    assert menu is not None and menu.title == "Which domino?"
    table.press("back")
    assert table.referee.menu is None and len(table.game.history) == 0
    table.press("ok")
    table.press("right")
    table.press("ok")
    assert table.game.history[-1] == Place(2, 5, "J8", "K8")


def test_a_domino_lifted_while_the_chooser_asks_is_never_played() -> None:
    game = Dominoes.from_position(
        2, board=[(1, 2, "H8", "I8")], hands=[[(2, 4), (2, 5)], [(4, 4)]], phase="play"
    )
    table = Table(game, rfid=False)
    table.lay("J8,K8", "2-5")
    assert table.referee.menu is not None
    table.lift("J8", "K8")
    assert table.referee.menu is None
    table.press("ok")
    assert table.game.history == []
    assert table.session.pending_fixes() == []


def test_the_computer_hand_walks_the_cursor_to_its_discard() -> None:
    game = Dominoes.from_position(
        2,
        board=[(3, 3, "H7", "H8")],
        hands=[[(0, 4), (0, 6), (2, 4), (5, 5)], [(4, 4)]],
        phase="play",
    )
    table = Table(game)
    from games.dominoes.game import Discard

    steps = find_kit(table.referee.game.name).hand_for(table.referee).steps(Discard(2, 4))
    assert steps == [("press", "right"), ("press", "right"), ("press", "ok")]


def test_a_script_domino_is_tagged_half_by_half() -> None:
    table = opened()
    assert find_kit(table.referee.game.name).hand_for(table.referee).piece_labels(
        ["H8", "I8"], "6-3"
    ) == ["6-3:6", "6-3:3"]
    assert find_kit(table.referee.game.name).hand_for(table.referee).piece_labels(
        ["H8"], "6-3:6"
    ) == ["6-3:6"]
    with pytest.raises(ValueError, match="place H8,H9 6-3"):
        find_kit(table.referee.game.name).hand_for(table.referee).piece_labels(["H8", "I8"], "6-9")


def test_a_laid_half_is_looked_up_once_and_a_tag_enrolled_later_is_read() -> None:
    table = drawn()
    looked_up: list[str] = []
    lookup = table.tags.lookup

    def counted(tag: str) -> str | None:
        looked_up.append(tag)
        return lookup(tag)

    table.session.facts.labels = counted
    table.lay("H8,I8", "2-1")
    assert table.game.history[-1] == Place(2, 1, "H8", "I8")
    laid = {table.board["H8"], table.board["I8"]}
    before = sum(tag in laid for tag in looked_up)
    for _ in range(3):
        table.settle()
        table.press("roll")
    assert sum(tag in laid for tag in looked_up) == before, "read once, not at every event"
    unknown = table.tag(None)
    table.board["H9"] = unknown
    table.settle()
    assert table.referee.turn.rejection.startswith("an unknown piece on H9")
    table.tags.enrol(unknown, "1-5:1")
    table.settle()
    assert table.referee.turn.waiting == "Lay the other half of 1-5 beside H9."


def test_roll_once_drawn_shows_the_whole_board_with_its_diamonds() -> None:
    game = Dominoes.from_position(
        2, board=[(1, 2, "H8", "I8")], hands=[[(2, 4)], [(4, 4)]], scores=[0, 4], phase="play"
    )
    table = Table(game)
    table.press("roll")
    screen = table.session.screen()
    picture = screen.picture
    assert screen.header == "Map" and isinstance(picture, WholeBoard)
    kinds = {(r, c): k for r, c, k in picture.cells}
    assert kinds[(0, 0)] == "special", "a green diamond on A1"
    assert kinds[(7, 7)] == "stable" and kinds[(7, 8)] == "stable", "the domino on H8-I8"
    assert "Dot: diamond" in screen.lines
    assert table.game.phase == "play", "roll drew nothing"
    table.press("roll")
    assert table.session.screen().header != "Map"
