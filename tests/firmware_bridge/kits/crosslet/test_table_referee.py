"""The Crosslet referee with the table's own bag: draw N, the count at the end, rack cells."""

from __future__ import annotations

import random

import pytest

from firmware_bridge.kits.crosslet.referee import CrossletReferee
from games.core import Pass
from games.crosslet.game import Crosslet, PlaceTiles, RevealRack, SetRack, TableBag
from games.lexicon import Lexicon
from tests.firmware_bridge.kits.crosslet.referee_helpers import Table, generator_of

RACKS = "rfid-15x15-racks-pico"
SEAT1 = "A16,B16,C16,D16,E16,F16,G16"
SEAT2 = "I16,J16,K16,L16,M16,N16,O16"


def table_game(lexicon: Lexicon, **options: object) -> Crosslet:
    options = {"first": 1, **options}
    generator = generator_of(lexicon)
    return Crosslet(2, random.Random(1), options, lexicon=lexicon, generator=generator)


@pytest.fixture
def table(lexicon: Lexicon) -> Table:
    """The table's bag on a board without rack cells."""
    return Table(table_game(lexicon, racks="table"))


@pytest.fixture
def racked(lexicon: Lexicon) -> Table:
    """A new game on the board with four racks of rack cells."""
    return Table(table_game(lexicon), profile=RACKS)


def pass_round(table: Table, turns: int = 4) -> None:
    for _ in range(turns):
        table.press("back")
        table.choose("pass")


# -- the table's bag without rack cells ------------------------------------------------------
def test_the_opening_asks_every_player_to_draw_seven(table: Table) -> None:
    assert table.oled() == [
        "P1 to play bag 86",
        "Each player: draw 7",
        "Rack: 7 tiles",
        "Lay tiles, then ok.",
        "P1 0 P2 0",
    ]


def test_after_a_play_the_oled_says_how_many_tiles_to_draw(table: Table) -> None:
    table.lay("H8,I8,J8", "CAT")
    table.press("ok")
    assert table.game.scores() == [10, 0]
    assert table.oled() == [
        "P2 to play bag 83",
        "P1: CAT 10 = 10",
        "P1: draw 3 tiles",
        "Rack: 7 tiles",
        "Lay tiles, then ok.",
        "P1 10 P2 0",
    ]
    state = table.session.state()
    assert state.extra["drawn"] == {"player": "player 1", "count": 3}
    assert state.extra["dealt"] is None
    assert state.extra["racks_mode"] == "table" and state.extra["rack_sizes"]["player 1"] == 7


def test_a_tile_the_bag_cannot_have_held_is_refused_with_fixes(table: Table) -> None:
    table.lay("H8,I8,J8", "QAT")
    table.press("ok")
    table.lay("G9,H9", "QI")
    table.press("ok")
    state = table.session.state()
    assert state.verdict["reason"] == "no Q can be on the rack: 1 in the set, 1 on the board"
    assert [f["cell"] for f in state.fixes] == ["G9", "H9"]


def test_the_count_asks_each_rack_in_turn_clears_it_then_shows_the_result(table: Table) -> None:
    table.lay("H8,I8,J8", "CAT")
    table.press("ok")
    pass_round(table)
    assert table.game.counting and table.game.waiting_for == [0, 1]
    assert table.oled() == [
        "Count: P1 bag 83",
        "Game over: the count",
        "P1: lay your 7 tiles",
        "on the board, then ok",
        "P1 10 P2 0",
    ]
    table.lay("A1,B1,C1,D1,E1,F1,G1", "QZJXKW?")
    assert "Laid J K Q W X Z ?: ok?" in table.oled()  # a blank is not asked about
    table.press("ok")
    assert table.game.history[-1] == RevealRack(0, tuple("QZJXKW?"))
    assert table.oled()[1:3] == ["Clear P1's tiles off.", "Lift Q from A1 (1/7)"]
    table.lift("A1", "B1", "C1", "D1", "E1", "F1", "G1")
    assert table.oled()[0] == "Count: P2 bag 83"
    table.lay("A1,B1,C1,D1,E1,F1,G1", "EEEEEEE")
    table.press("ok")
    assert table.game.outcome is not None
    assert table.oled()[:3] == ["Game over bag 83", "Clear P2's tiles off.", "Lift E from A1 (1/7)"]
    table.lift("A1", "B1", "C1", "D1", "E1", "F1", "G1")
    # QZJXKW? is 10+10+8+8+5+4+0 = 45, EEEEEEE is 7.
    assert table.game.scores() == [10 - 45, -7]
    assert table.oled() == [
        "Game over bag 83",
        "P2 wins",
        "Two scoreless rounds.",
        "Racks: P1 -45 P2 -7",
        "ok: new game",
        "P1 -35 P2 -7",
    ]


def test_a_reveal_the_pool_cannot_hold_is_refused(table: Table) -> None:
    table.lay("H8,I8,J8", "QAT")
    table.press("ok")
    pass_round(table)
    table.lay("A1,B1,C1,D1,E1,F1,G1", "QAAAAAA")
    table.press("ok")
    assert table.game.counting
    assert table.oled()[1] == "No: no Q can be on the rack: 1 in the set, 1 on the board"


def test_the_hint_needs_a_rack_the_board_can_see(table: Table) -> None:
    table.press("ok", long=True)
    assert table.oled()[1] == "Hint: the rack is not seen; it needs rack cells."


# -- rack cells ------------------------------------------------------------------------------
def test_a_new_game_on_a_board_with_rack_cells_plays_from_the_table_bag(racked: Table) -> None:
    assert racked.game.history == [TableBag()] and racked.game.racks_mode == "table"
    assert isinstance(racked.referee, CrossletReferee)
    assert racked.referee.rack_cells[1] == tuple(SEAT2.split(","))
    assert "Rack not seen: 7 tiles" in racked.oled()


def test_a_game_started_dealt_on_purpose_stays_dealt(lexicon: Lexicon) -> None:
    table = Table(table_game(lexicon, racks="dealt"), profile=RACKS)
    assert table.game.history == [] and table.game.racks_mode == "dealt"


def test_a_full_rack_on_its_cells_is_seen_and_never_counts_as_laid(racked: Table) -> None:
    racked.lay(SEAT1[:-4], "CATERS")
    assert racked.game.history == [TableBag()]  # six of seven: still being drawn
    racked.lay("G16", "?")
    assert racked.game.history[-1] == SetRack(0, tuple("ACERST?"))
    assert racked.oled()[1:4] == ["P1 rack seen", "Rack A C E R S T ?", "Lay tiles, then ok."]
    racked.press("ok", long=True)
    assert racked.oled()[1].startswith("Hint: ")


def test_tiles_laid_from_the_rack_are_judged_and_the_new_draw_is_seen(racked: Table) -> None:
    racked.lay(SEAT1, "CATERS?")
    racked.lift("A16", "B16", "C16")
    racked.lay("H8,I8,J8", "CAT")
    racked.press("ok")
    assert racked.game.history[-1] == PlaceTiles((("H8", "C"), ("I8", "A"), ("J8", "T")))
    assert racked.oled()[2] == "P1: draw 3 tiles"
    racked.lay("A16,B16,C16", "EEN")
    assert racked.game.history[-1:] == [SetRack(0, tuple("EEENRS?"))]
    assert racked.game.rack_known(0)


def test_a_rack_that_cannot_be_is_named_on_the_screen(racked: Table) -> None:
    racked.lay(SEAT2, "QQAAAAA")
    assert racked.game.history == [TableBag()]
    assert racked.oled()[1] == (
        "P2 rack: only 1 Q can be on the rack, not 2: 1 in the set, 0 on the board"
    )
    assert racked.session.state().fixes == []


def test_the_count_reads_racks_from_their_cells(racked: Table) -> None:
    racked.lay(SEAT1, "CATERS?")
    racked.lay(SEAT2, "DOGINQU")
    pass_round(racked)
    assert racked.game.history[-1] == Pass()
    outcome = racked.game.outcome
    assert outcome is not None and racked.game.scores() == [-8, -18]


def test_a_resumed_board_with_tiles_on_its_racks_is_set_up_once_the_board_matches(
    racked: Table,
) -> None:
    racked.lay(SEAT1, "CATERS?")
    racked.session.restoring = True
    racked.lay("A1", "Q")
    assert racked.session.restoring
    racked.lift("A1")
    assert not racked.session.restoring


def test_a_rack_drawn_after_the_end_is_revealed_from_its_cells(racked: Table) -> None:
    racked.lay(SEAT1, "CATERS?")
    racked.lay(SEAT2, "DOGINQU")
    racked.lift("A16")
    racked.lay("A1", "C")
    racked.press("back")
    racked.choose("exchange")
    racked.lift("A1")
    pass_round(racked, 3)
    assert racked.game.waiting_for == [0]
    racked.lay("A16", "Z")
    assert racked.game.history[-1] == RevealRack(0, tuple("AERSTZ?"))
    # ATERS?Z is 15, DOGINQU 18.
    assert racked.game.outcome is not None and racked.game.scores() == [-15, -18]
