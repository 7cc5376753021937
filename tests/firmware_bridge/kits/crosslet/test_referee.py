"""The Crosslet referee: tiles read by tag, judged on ok, blanks, menus, fixes, the dealer."""

from __future__ import annotations

import random

import pytest

from firmware_bridge.kits import find_kit
from firmware_bridge.kits.crosslet.referee import CrossletReferee, tile_letter
from firmware_bridge.kits.crosslet.turn import words_text
from firmware_bridge.kits.crosslet.view import few_words
from firmware_bridge.runtime.session_state import TableState
from firmware_bridge.screen.palette import HINT
from firmware_bridge.screen.whole_board import WholeBoard
from games.core import Pass, Resign
from games.crosslet.board import FormedWord
from games.crosslet.game import Crosslet, Exchange, PlaceTiles
from games.crosslet.player import CrossletPlayer
from games.lexicon import Lexicon
from tests.firmware_bridge.kits.crosslet.referee_helpers import Table, generator_of, new_game

FIRST = "CATERS?"
SECOND = "DOGINQU"


@pytest.fixture
def table(lexicon: Lexicon) -> Table:
    return Table(new_game(lexicon, FIRST, SECOND))


def state(table: Table) -> TableState:
    return table.session.state()


# -- laying and judging -------------------------------------------------------------------
def test_laid_tiles_preview_their_words_until_ok(table: Table) -> None:
    table.lay("H8,I8,J8", "CAT")
    assert "CAT 10: ok?" in table.oled()
    assert table.game.history == []
    assert state(table).extra["preview"] == {"words": [{"word": "CAT", "points": 10}], "points": 10}


def test_ok_plays_the_placement_and_shows_words_points_total_and_the_deal(table: Table) -> None:
    table.lay("H8,I8,J8", "CAT")
    table.press("ok")
    assert table.game.history == [PlaceTiles((("H8", "C"), ("I8", "A"), ("J8", "T")))]
    assert table.oled() == [
        "P2 to play bag 83",
        "P1: CAT 10 = 10",
        "P1 takes A A A",
        "Rack D G I N O Q U",
        "Lay tiles, then ok.",
        "P1 10 P2 0",
    ]
    s = state(table)
    assert s.extra["dealt"] == {"player": "player 1", "tiles": ["A", "A", "A"]}
    assert sorted(s.extra["racks"]["player 1"]) == sorted("ERS?AAA")
    assert s.fixes == [] and s.move["points"] == {"player 1": 10, "player 2": 0}


def test_refused_placement_shows_the_reason_and_fixes_until_the_tiles_are_lifted(
    table: Table,
) -> None:
    table.lay("A1,B1", "AT")
    table.press("ok")
    s = state(table)
    assert s.verdict == {"accepted": False, "reason": "the first move must cover H8"}
    assert [(f["action"], f["cell"]) for f in s.fixes] == [("lift", "A1"), ("lift", "B1")]
    assert table.oled()[1:] == [
        "No: the first move must cover H8",
        "Lift A from A1 (1/2)",
        "P1 0 P2 0",
    ]
    board = table.session.screen().board
    assert board is not None and board.framed == ("A1",), "the fix's cell is framed"
    assert len(board.grid) == 5 and any("A1" in row for row in board.grid), "a window round it"
    table.lift("A1")
    assert table.oled()[2] == "Lift T from B1"
    table.lift("B1")
    s = state(table)
    assert s.fixes == [] and "Lay tiles, then ok." in s.oled


@pytest.mark.parametrize(
    ("cells", "letters", "reason"),
    [
        ("H8", "A", "a word needs two letters or more: place at least two tiles"),
        ("H8,I8,K8", "ATS", "the tiles are not joined to each other"),
        ("H8,I8,J8", "TCA", "TCA is not a word"),
        ("H8,I8", "QI", "you have no Q"),
        ("H8,I8,J8", "TAT", "you have only 1 T, not 2"),
    ],
)
def test_each_refusal_names_the_rules_reason(
    table: Table, cells: str, letters: str, reason: str
) -> None:
    table.lay(cells, letters)
    table.press("ok")
    assert table.oled()[1] == f"No: {reason}"
    assert {f.cell for f in table.session.pending_fixes()} == set(cells.split(","))
    assert table.game.history == []


def test_tiles_not_joined_to_the_board_are_refused(table: Table) -> None:
    table.lay("H8,I8,J8", "CAT")
    table.press("ok")
    table.lay("A1,B1", "GO")
    table.press("ok")
    assert table.oled()[1] == "No: the tiles are not joined to the board"


def test_changed_tiles_are_judged_again_on_ok(table: Table) -> None:
    table.lay("H8,I8,J8", "TCA")
    table.press("ok")
    table.lift("H8", "I8", "J8")
    table.lay("H8,I8,J8", "ACT")
    table.press("ok")
    assert len(table.game.history) == 1 and table.game.scores() == [10, 0]


def test_ok_with_nothing_laid_says_what_to_do(table: Table) -> None:
    table.press("ok")
    assert table.oled()[1] == "Lay tiles, then press ok."


def test_roll_shows_the_whole_board_with_its_bonus_squares_and_roll_again_the_words(
    table: Table,
) -> None:
    table.press("roll")
    screen = table.session.screen()
    picture = screen.picture
    assert screen.header == "Map" and isinstance(picture, WholeBoard)
    kinds = {(r, c): k for r, c, k in picture.cells}
    assert kinds[(7, 7)] == "ring", "H8 doubles the word"
    assert kinds[(0, 0)] == "ring" and kinds[(0, 3)] == "special", "A1 word, D1 letter"
    assert "Dot: letter bonus" in screen.lines and "Ring: word bonus" in screen.lines
    table.press("roll")
    assert table.session.screen().header != "Map"


def test_the_hint_goes_once_tiles_are_laid(table: Table) -> None:
    table.press("ok", long=True)
    assert table.oled()[1].startswith("Hint: ")
    table.lay("H8,I8,J8", "CAT")
    assert not any(line.startswith("Hint") for line in table.oled())
    assert "CAT 10: ok?" in table.oled()


def test_a_word_formed_twice_says_where_each_one_starts() -> None:
    words = [FormedWord("IN", ("H8", "H9"), 2), FormedWord("IN", ("J8", "J9"), 2)]
    assert words_text(words, 2) == "IN H8 2, IN J8 2"
    assert words_text(words[:1], 1) == "IN 2"


# -- blanks -------------------------------------------------------------------------------
def test_a_laid_blank_is_named_from_the_letter_menu(table: Table) -> None:
    table.lay("H8,I8,J8", "CA?")
    assert table.referee.menu_action == "blank"
    assert table.oled() == [
        "Blank on J8 bag 86",
        "Which letter?",
        "< A >",
        "left/right, then ok",
        "P1 0 P2 0",
    ]
    table.press("left")
    assert table.oled()[2] == "< Z >"
    table.choose("T")
    assert table.referee.menu is None and "CAT 8: ok?" in table.oled()
    table.press("ok")
    assert table.game.history == [
        PlaceTiles((("H8", "C"), ("I8", "A"), ("J8", "?")), (("J8", "T"),))
    ]
    assert state(table).layout["J8"] == {
        "kind": "tile",
        "label": "?",
        "owner": 0,
        "state": "blank:T",
    }
    assert table.game.scores() == [8, 0]


def test_two_blanks_are_asked_in_board_order(lexicon: Lexicon) -> None:
    table = Table(new_game(lexicon, "C??ERST", SECOND))
    table.lay("H8,I8,J8", "C??")
    assert table.referee.menu is not None and table.referee.menu.title == "Blank on I8"
    table.choose("A")
    assert table.referee.menu is not None and table.referee.menu.title == "Blank on J8"
    table.choose("T")
    table.press("ok")
    assert table.game.board_letters() == {"H8": "C", "I8": "a", "J8": "t"}


def test_a_cancelled_blank_is_asked_again_on_ok(table: Table) -> None:
    table.lay("H8,I8,J8", "CA?")
    table.press("back")
    assert table.referee.menu is None
    table.press("ok")
    assert table.referee.menu_action == "blank" and table.referee.menu is not None
    assert table.game.history == []


def test_lifting_the_blank_withdraws_its_question(table: Table) -> None:
    table.lay("H8,I8,J8", "CA?")
    table.lift("J8")
    assert table.referee.menu is None
    assert "CA 8: ok?" in table.oled()


# -- pieces that are not tiles ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("label", "reason"),
    [
        (None, "an unknown piece on H8: enrol its tag with tabletop enrol"),
        ("6-3:6", "H8 holds 6-3:6, not a letter tile"),
    ],
)
def test_a_piece_that_is_no_tile_is_refused_and_lifted(
    table: Table, label: str | None, reason: str
) -> None:
    table.put("H8", label)
    assert table.oled()[1] == f"No: {reason}"
    fixes = table.session.pending_fixes()
    assert [(f.action, f.cell) for f in fixes] == [("lift", "H8")]


def test_an_unreadable_tag_asks_to_lay_the_tile_again(table: Table) -> None:
    table.unread("H8")
    assert table.oled()[1] == "No: the tag on H8 cannot be read: lift the tile and lay it again"


def test_a_board_without_tag_readers_is_named_as_unfit(lexicon: Lexicon) -> None:
    table = Table(new_game(lexicon, FIRST, SECOND), rfid=False)
    table.lay("H8,I8", "AT")
    assert "tag readers" in table.referee.turn.problem
    table.press("ok")
    assert table.game.history == [] and table.referee.turn.note == "Fix the board first."


def test_a_played_tile_that_moves_must_go_back(table: Table) -> None:
    table.lay("H8,I8,J8", "CAT")
    table.press("ok")
    table.lift("I8")
    assert table.oled()[1:] == ["No: put A back on I8", "Put A on I8", "P1 10 P2 0"]
    table.put("I8", "A")
    assert table.session.pending_fixes() == [] and "Lay tiles, then ok." in table.oled()


def test_tile_labels_are_letters_or_blanks() -> None:
    assert [tile_letter(x) for x in ("e", " Q ", "?", "blank", "6-3:6", "AB", "")] == [
        "E",
        "Q",
        "?",
        "?",
        None,
        None,
        None,
    ]


# -- the back menu: pass, exchange, hint -------------------------------------------------
def test_pass_from_the_back_menu(table: Table) -> None:
    table.press("back")
    assert table.oled()[1] == "< pass >"
    table.choose("pass")
    assert table.game.history == [Pass()]
    assert table.oled()[1] == "P1 passes"


def test_exchange_takes_the_laid_tiles_and_asks_to_bag_them(table: Table) -> None:
    table.lay("A1,B1", "CT")
    table.press("back")
    table.choose("exchange")
    assert table.game.history == [Exchange(("C", "T"))]
    s = state(table)
    assert table.oled()[1:] == ["Put C T in the bag.", "Lift C from A1 (1/2)", "P1 0 P2 0"]
    assert s.extra["dealt"]["player"] == "player 1" and len(s.extra["dealt"]["tiles"]) == 2
    table.press("ok")
    assert table.game.history == [Exchange(("C", "T"))]
    table.lift("A1", "B1")
    assert state(table).fixes == [] and table.oled()[1] == "P1 exchanges C T"


def test_exchange_with_nothing_laid_says_how(table: Table) -> None:
    table.press("back")
    table.choose("exchange")
    assert table.game.history == []
    assert table.oled()[1] == "Lay the tiles to exchange on the board, then choose exchange."


def test_tiles_left_on_the_board_by_a_pass_are_taken_back(table: Table) -> None:
    table.lay("H8,I8", "AT")
    table.press("back")
    table.choose("pass")
    assert table.oled()[1:] == ["Take the laid tiles back.", "Lift A from H8 (1/2)", "P1 0 P2 0"]
    table.press("ok")
    assert table.game.history == [Pass()]


def test_long_ok_shows_the_generators_best_placement(table: Table) -> None:
    best = table.game.hint()
    assert best is not None
    table.press("ok", long=True)
    hint = state(table).extra["hint"]
    assert hint["tiles"] == [list(t) for t in best.tiles]
    assert hint["points"] == sum(w["points"] for w in hint["words"]) + (
        15 if len(best.tiles) == 7 else 0
    )
    assert table.oled()[1].startswith("Hint: ")
    assert table.oled()[1].endswith(f"+{hint['points']}")


def test_resign_from_a_long_back(table: Table) -> None:
    table.press("back", long=True)
    table.choose(True)
    assert table.game.history == [Resign(0)] and table.game.outcome is not None
    assert table.oled()[1:3] == ["P2 wins", "Player 1 resigned."]


# -- the end --------------------------------------------------------------------------------
def test_result_names_who_went_out_and_what_the_racks_cost(lexicon: Lexicon) -> None:
    game = Crosslet(
        2, random.Random(3), {"first": 1}, lexicon=lexicon, generator=generator_of(lexicon)
    )
    player = CrossletPlayer(game.generator, random.Random(3))
    while game.outcome is None:
        assert game.apply(player.choose(game)).accepted
    table = Table(game)
    lines = table.oled()
    out = next(p for p in range(2) if not game.rack(p))
    other = 1 - out
    assert lines[0] == "Game over bag 0"
    assert lines[2] == f"P{out + 1} went out."
    assert lines[3].startswith(f"Racks: P{out + 1} +") and f"P{other + 1} -" in lines[3]
    assert lines[4:] == ["ok: new game", f"P1 {game.scores()[0]} P2 {game.scores()[1]}"]


# -- the simulated hand -------------------------------------------------------------------
def test_a_word_is_laid_one_letter_a_cell(table: Table) -> None:
    referee = table.referee
    assert find_kit(referee.game.name).hand_for(referee).piece_labels(
        ["H8", "I8", "J8"], "ca?"
    ) == ["C", "A", "?"]
    assert find_kit(referee.game.name).hand_for(referee).piece_labels(["H8"], "hand") == ["hand"]
    with pytest.raises(ValueError, match="'place H8,I8,J8 CA\\?'"):
        find_kit(referee.game.name).hand_for(referee).piece_labels(["H8", "I8"], "CAT")


def test_the_computers_hand_lays_names_blanks_and_presses_ok(table: Table) -> None:
    referee: CrossletReferee = table.referee
    action = PlaceTiles((("H10", "?"), ("H8", "C"), ("H9", "A")), (("H10", "T"),))
    assert find_kit(referee.game.name).hand_for(referee).steps(action) == [
        ("place", "H8,H9,H10", "CA?"),
        ("wait", "0.3"),
        ("blank", "T", "H10"),
        ("press", "ok"),
    ]
    assert find_kit(referee.game.name).hand_for(referee).steps(Pass()) == [
        ("press", "back"),
        ("press", "ok"),
    ]
    assert find_kit(referee.game.name).hand_for(referee).steps(Exchange(("Q", "U"))) == [
        ("place", "A1,B1", "QU"),
        ("wait", "0.3"),
        ("press", "back"),
        ("press", "right"),
        ("press", "ok"),
        ("lift", "A1"),
        ("lift", "B1"),
    ]


def test_the_oled_names_the_first_of_many_words_and_how_many_more() -> None:
    assert few_words("HEWN 18, HAT 6") == "HEWN 18, HAT 6"
    assert few_words("UNEROTIC 14, MU 4, AN 2, all 7 +15") == "UNEROTIC 14, 2 more words, all 7 +15"


def test_the_hint_lights_its_words_squares_until_tiles_are_laid(table: Table) -> None:
    best = table.game.hint()
    assert best is not None
    table.press("ok", long=True)
    assert table.session.leds() == {cell: HINT for cell, _ in best.tiles}
    table.lay("H8,I8,J8", "CAT")
    assert table.session.leds() == {}
