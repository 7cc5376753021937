"""The Doubles Wild referee on a tag board: ball colours read by tag, the swap seen."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from firmware_bridge.kits import find_kit
from firmware_bridge.kits.doubles_wild.hand import SWEEP_WAIT_S
from firmware_bridge.kits.doubles_wild.referee import DoublesWildReferee
from firmware_bridge.screen.layout import render
from games.core import Piece
from games.doubles_wild.game import COLOURS, DoublesWild, Place, Roll
from hardware.board import OCCUPIED, BoardSettled
from hardware.buttons import ButtonEvent
from hardware.dice import DiceSource
from tests.firmware_bridge.test_oled_frames import check_frame
from tests.tables import on_table
from wiring.loader import load_profile

TAGS = {f"0000000{i + 1}": colour for i, colour in enumerate(COLOURS)}
"""One enrolled tag per colour (the simulated board reads each ball's own tag)."""
TAG = {colour: tag for tag, colour in TAGS.items()}
UNKNOWN = "DEADBEEF"
DOMINO = "0000000A"
LABELS = {**TAGS, DOMINO: "6-3:6"}


class TagTable:
    """A session on the RFID profile whose board reports each ball's tag."""

    def __init__(self, game: DoublesWild, profile: str = "doubles-wild-rfid-pico") -> None:
        self.dice = DiceSource.seeded(1)
        self.session = on_table(
            game,
            journaled_as=profile,
            labels=LABELS.get,
            dice=self.dice,
            profile=load_profile(profile),
        )
        self.journal = self.session.journal
        self.game = game
        self.board = {cell: TAG[piece.label] for cell, piece in game.layout().items()}
        self.settle()

    @property
    def referee(self) -> DoublesWildReferee:
        referee = self.session.referee
        assert isinstance(referee, DoublesWildReferee)
        return referee

    def settle(self) -> None:
        self.session.handle(BoardSettled(dict(self.board)))

    def place(self, cell: str, colour: str) -> None:
        self.board[cell] = TAG.get(colour, colour)
        self.settle()

    def lift(self, cell: str) -> None:
        del self.board[cell]
        self.settle()

    def press(self, *names: str) -> None:
        for name in names:
            self.session.handle(ButtonEvent(name, False))

    def roll(self, *faces: int) -> None:
        self.dice.load(faces)
        self.press("roll")

    def fixes(self) -> list[str]:
        return [f["text"] for f in self.session.state().fixes]

    def reason(self) -> str:
        verdict = self.session.state().verdict
        assert verdict is not None and not verdict["accepted"]
        return str(verdict["reason"])

    def text(self) -> list[str]:
        return self.session.screen().text()


def tag_table(board: Mapping[str, str] | None = None) -> TagTable:
    return TagTable(DoublesWild.from_position(board or {}))


def won_battle() -> TagTable:
    """Blue has attacked red's ball on r7c5 and won 18:3; the swap is still to do."""
    t = tag_table({"r7c5": "red"})
    t.roll(3, 4, 2, 3)
    t.press("ok")
    for faces in ((6, 5, 1), (3, 3, 3), (6, 6, 6), (1, 1, 1), (6, 6, 6), (1, 1, 1)):
        t.roll(*faces)
    assert t.game.owner("r7c5") == 0 and t.referee.turn.swap is not None
    return t


# -- what a tag shows -------------------------------------------------------------------
def test_matches_compares_the_colour_its_tag_was_enrolled_as() -> None:
    referee = tag_table().referee
    blue = Piece("ball", "blue", 0)
    assert referee.matches(blue, TAG["blue"])
    assert not referee.matches(blue, TAG["red"])
    assert not referee.matches(blue, UNKNOWN), "an unknown tag is never taken for a ball"
    assert referee.matches(blue, OCCUPIED), "a piece without a read tag stands for any ball"


def test_the_profile_says_the_board_reads_tags() -> None:
    assert tag_table().referee.reads_tags()
    assert not TagTable(DoublesWild(), "doubles-wild-gpio").referee.reads_tags()


# -- the wrong colour ----------------------------------------------------------------------
def test_ball_of_the_wrong_colour_on_the_named_spot_is_refused_with_its_fix() -> None:
    t = tag_table()
    t.roll(3, 4, 2, 3)
    t.place("r7c5", "red")
    assert t.reason() == "that is a red ball; blue is to play"
    assert t.fixes() == ["Lift the red piece on r7c5"]
    assert "No: a red ball; blue plays" in t.text()
    assert isinstance(t.game.history[-1], Roll) and t.game.turn == 0
    t.lift("r7c5")
    assert t.fixes() == [] and t.referee.turn.rejection == ""
    t.place("r7c5", "blue")
    assert t.game.history[-1:] == [Place("r7c5")] and t.game.turn == 1


def test_ball_of_the_wrong_colour_is_refused_before_the_spot_is_judged() -> None:
    t = tag_table()
    t.roll(3, 4, 2, 3)
    t.place("r4c5", "purple")
    assert t.reason() == "that is a purple ball; blue is to play"
    assert t.fixes() == ["Lift the purple piece on r4c5"]


def test_ball_that_stays_must_keep_its_colour() -> None:
    t = tag_table({"r5c5": "red"})
    t.place("r5c5", "blue")  # red's ball swapped for a blue one with no battle
    assert "put it back" in t.reason()
    assert t.fixes() == ["Lift the blue piece on r5c5", "Put red on r5c5"]
    t.roll(1, 2, 3, 4)
    assert t.game.dice is None, "no roll while the board is wrong"
    t.place("r5c5", "red")
    assert t.fixes() == []
    t.roll(1, 2, 3, 4)
    assert t.game.dice == ((1, 2), (3, 4))


# -- tags that show no ball -----------------------------------------------------------------
def test_unknown_tag_is_shown_as_unknown_with_a_fix_to_lift_it() -> None:
    t = tag_table()
    t.roll(3, 4, 2, 3)
    t.place("r7c5", UNKNOWN)
    assert t.game.history[-1] == Roll((3, 4), (2, 3)), "an unknown tag is never played"
    assert "the tag on r7c5 is unknown: lift it" in t.reason()
    assert "tabletop enrol" in t.reason()
    assert t.fixes() == ["Lift the unknown piece on r7c5"]
    assert "No: unknown tag on r7c5" in t.text()
    t.lift("r7c5")
    assert t.fixes() == [] and t.referee.turn.rejection == ""
    t.place("r7c5", "blue")
    assert t.game.history[-1:] == [Place("r7c5")]


def test_unknown_tag_before_the_roll_stops_the_roll() -> None:
    t = tag_table()
    t.place("r9c9", UNKNOWN)
    assert "unknown" in t.reason()
    t.roll(3, 4, 2, 3)
    assert t.game.dice is None
    assert "fix the board" in t.reason()


def test_tag_enrolled_as_something_else_is_no_ball() -> None:
    t = tag_table()
    t.roll(3, 4, 2, 3)
    t.place("r7c5", DOMINO)
    assert t.reason() == "r7c5 holds 6-3:6, not a ball: lift it"
    assert t.fixes() == ["Lift the 6-3:6 piece on r7c5"]
    assert isinstance(t.game.history[-1], Roll)


# -- the swap after a won battle ----------------------------------------------------------------
def test_swap_after_a_won_battle_is_seen_when_the_spots_tag_changes_colour() -> None:
    t = won_battle()
    assert t.fixes() == ["Lift the red piece on r7c5", "Put blue on r7c5"]
    t.place("r7c5", "blue")  # swapped within one settle: the spot is never seen empty
    assert t.referee.turn.swap is None and t.fixes() == []
    t.roll(1, 2, 3, 4)
    assert isinstance(t.game.history[-1], Roll)


def test_swap_lifted_first_still_ends_when_the_attackers_colour_is_read() -> None:
    t = won_battle()
    t.lift("r7c5")
    assert t.fixes() == ["Put blue on r7c5"]
    t.place("r7c5", "purple")
    assert t.referee.turn.swap is not None
    assert t.fixes() == ["Lift the purple piece on r7c5", "Put blue on r7c5"]
    assert any("Blue won r7c5" in line for line in t.text())
    t.place("r7c5", "blue")
    assert t.referee.turn.swap is None and t.fixes() == []


def test_restart_after_a_won_battle_sees_the_swap_already_done() -> None:
    t = won_battle()
    t.place("r7c5", "blue")
    again = on_table(
        t.game,
        journal=t.journal,
        game_id=t.session.game_id,
        labels=LABELS.get,
        profile=load_profile("doubles-wild-rfid-pico"),
    )
    referee = again.referee
    assert isinstance(referee, DoublesWildReferee) and referee.turn.swap is not None
    again.handle(BoardSettled(dict(t.board)))
    assert referee.turn.swap is None and again.state().fixes == []


# -- the simulated hand ---------------------------------------------------------------------
def test_script_lays_a_ball_by_its_colour() -> None:
    referee = tag_table().referee
    assert find_kit(referee.game.name).hand_for(referee).piece_labels(["r7c5"], "blue") == ["blue"]
    assert find_kit(referee.game.name).hand_for(referee).piece_labels(["r7c5"], "Red") == ["red"]
    assert find_kit(referee.game.name).hand_for(referee).piece_labels(["r7c5"], "piece") == [
        "piece"
    ], "a bare place: a stray piece"
    with pytest.raises(ValueError, match=r"'place r7c5 blue'.*not 'bleu'"):
        find_kit(referee.game.name).hand_for(referee).piece_labels(["r7c5"], "bleu")


def test_hand_waits_for_the_reader_sweep_after_each_ball_it_lays() -> None:
    t = won_battle()
    wait = ("wait", str(SWEEP_WAIT_S))
    assert find_kit(t.referee.game.name).hand_for(t.referee).steps(Roll((1, 2), (3, 4))) == [
        ("lift", "r7c5"),
        ("place", "r7c5", "blue"),
        wait,
        ("press", "roll"),
    ]
    t.place("r7c5", "blue")
    t.roll(3, 4, 2, 4)
    assert find_kit(t.referee.game.name).hand_for(t.referee).steps(Place("r7c6")) == [
        ("place", "r7c6", "red"),
        wait,
    ]


def test_hand_on_the_occupancy_board_does_not_wait() -> None:
    t = TagTable(DoublesWild(), "doubles-wild-gpio")
    t.roll(3, 4, 2, 3)
    assert find_kit(t.referee.game.name).hand_for(t.referee).steps(Place("r7c5")) == [
        ("place", "r7c5", "blue")
    ]


# -- frames -----------------------------------------------------------------------------------
def test_wrong_colour_frame(update_golden: bool) -> None:
    t = tag_table({"r5c4": "red", "r9c9": "blue"})
    t.roll(3, 4, 2, 3)
    t.place("r7c5", "red")
    check_frame(render(t.session.screen()), "dw_rfid_wrong_colour", update_golden)
