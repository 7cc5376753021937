"""The Doubles Wild referee on its own: buttons, board changes, fixes, hands and frames."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from PIL import Image, ImageDraw

from firmware_bridge.kits import find_kit
from firmware_bridge.kits.doubles_wild.referee import DoublesWildReferee
from firmware_bridge.referees.referee import TAKE_BACK
from firmware_bridge.screen.dice_faces import (
    SIZE,
    BattlePicture,
    BattleRow,
    RollPicture,
    draw_die,
    pips,
)
from firmware_bridge.screen.layout import render
from firmware_bridge.screen.screens import Screen
from games.doubles_wild.game import Attack, BattleRoll, DoublesWild, Keep, Place, Roll
from hardware.board import OCCUPIED, BoardSettled
from hardware.buttons import ButtonEvent
from hardware.dice import DiceSource
from tests.firmware_bridge.test_oled_frames import check_frame
from tests.tables import on_table


class Table:
    """A session on an in-memory journal, with the board and the station in hand."""

    def __init__(self, game: DoublesWild) -> None:
        self.dice = DiceSource.seeded(1)
        self.session = on_table(game, journaled_as="doubles-wild-gpio", dice=self.dice)
        self.journal = self.session.journal
        self.game = game
        self.board = dict.fromkeys(game.layout(), OCCUPIED)
        self.settle()

    @property
    def referee(self) -> DoublesWildReferee:
        referee = self.session.referee
        assert isinstance(referee, DoublesWildReferee)
        return referee

    def settle(self) -> None:
        self.session.handle(BoardSettled(dict(self.board)))

    def place(self, cell: str) -> None:
        self.board[cell] = OCCUPIED
        self.settle()

    def lift(self, cell: str) -> None:
        del self.board[cell]
        self.settle()

    def press(self, *names: str, long: bool = False) -> None:
        for name in names:
            self.session.handle(ButtonEvent(name, long))

    def roll(self, *faces: int) -> None:
        self.dice.load(faces)
        self.press("roll")

    def fixes(self) -> list[tuple[str, str]]:
        return [(f["action"], f["cell"]) for f in self.session.state().fixes]

    def text(self) -> list[str]:
        return self.session.screen().text()


def table(board: Mapping[str, int | str] | None = None, to_move: int = 0) -> Table:
    if board is None:
        return Table(DoublesWild())
    return Table(DoublesWild.from_position(board, to_move=to_move))


RED_ON_ROW_7 = {"r7c3": "red", "r7c8": "red", "r11c11": "blue"}


# -- rolling ---------------------------------------------------------------------------
def test_roll_button_rolls_four_station_dice_and_journals_them() -> None:
    t = table()
    t.roll(3, 4, 2, 3)
    assert t.game.dice == ((3, 4), (2, 3))
    assert t.game.target() == {"r7c5"}
    entries = [e.payload for e in t.journal.entries(t.session.game_id)]
    assert entries[-1] == {"type": "roll", "red": [3, 4], "blue": [2, 3]}
    assert "red 3 4 (7), blue 2 3 (5)" in t.text()
    assert "Spot r7c5" in t.text()


def test_second_reroll_is_refused_and_rolls_no_dice() -> None:
    t = table()
    t.roll(3, 4, 2, 3)
    t.dice.load((5, 6))
    t.press("left")
    assert t.game.dice == ((5, 6), (2, 3)) and t.game.rerolled
    t.press("right")
    assert t.game.dice == ((5, 6), (2, 3))
    verdict = t.session.state().verdict
    assert verdict is not None and not verdict["accepted"]
    assert "L/R/roll: new" not in t.text()


def test_ball_played_on_the_named_spot_ends_the_turn() -> None:
    t = table()
    t.roll(3, 4, 2, 3)
    t.place("r7c5")
    assert t.game.history[-1] == Place("r7c5")
    assert t.game.turn == 1 and t.fixes() == []


def test_ball_on_a_spot_of_another_line_is_refused_until_lifted() -> None:
    t = table()
    t.roll(2, 2, 3, 4)  # red double: column 7 is wild
    t.place("r4c5")
    assert t.fixes() == [("lift", "r4c5")]
    assert any("r4c5 is not on col 7" in line for line in t.text())
    t.lift("r4c5")
    assert t.fixes() == [] and t.referee.turn.rejection == ""
    t.place("r4c7")
    assert t.game.history[-1] == Place("r4c7")


def test_ball_laid_before_the_roll_is_refused_with_the_rules_reason() -> None:
    t = table()
    t.place("r6c6")
    assert t.referee.turn.rejection == "roll first"
    last = t.session.last_verdict
    assert last is not None and not last.accepted
    assert last.reason == "cannot place a ball now: blue must roll the dice first"
    assert last.reason == t.game.judge(Place("r6c6")).reason


def test_ball_lifted_off_the_board_must_be_put_back() -> None:
    t = table({"r5c5": "red"})
    t.lift("r5c5")
    assert t.fixes() == [("place", "r5c5")]
    assert any("put it back" in line for line in t.text())
    t.roll(1, 2, 3, 4)
    assert t.game.dice is None, "no roll while the board is wrong"
    t.place("r5c5")
    t.roll(1, 2, 3, 4)
    assert t.game.dice == ((1, 2), (3, 4))


# -- attacking ---------------------------------------------------------------------------
def test_ok_attacks_the_one_named_spot_holding_an_opponent_ball() -> None:
    t = table({"r7c5": "red"})
    t.roll(3, 4, 2, 3)
    assert "ok: fight" in t.text()
    t.press("ok")
    assert t.game.history[-1] == Attack("r7c5")
    assert t.game.phase == "battle"


def test_wild_line_with_balls_to_attack_opens_a_chooser() -> None:
    t = table(RED_ON_ROW_7)
    t.roll(3, 4, 5, 5)  # blue double: row 7 is wild
    assert "Place, or ok to fight" in t.text()
    t.press("ok")
    assert t.referee.turn.choosing and "Fight r7c3?" in t.text()
    board = t.session.screen().board
    assert board is not None and board.framed == ("r7c3",)
    t.press("right")
    assert "Fight r7c8?" in t.text()
    t.press("right")
    assert "Fight r7c3?" in t.text(), "the chooser goes round"
    t.press("left", "ok")
    assert t.game.history[-1] == Attack("r7c8")


def test_back_leaves_the_chooser_and_a_ball_may_still_be_placed() -> None:
    t = table(RED_ON_ROW_7)
    t.roll(3, 4, 5, 5)
    t.press("ok", "back")
    assert not t.referee.turn.choosing
    t.place("r7c4")
    assert t.game.history[-1] == Place("r7c4")


def test_ok_ends_a_turn_whose_roll_allows_no_spot() -> None:
    t = table({"r7c5": "blue"})
    t.roll(3, 4, 2, 3)
    assert "r7c5 blocked" in t.text()
    t.press("ok")
    assert t.game.history[-1].type == "end-turn"
    assert t.game.turn == 1 and t.game.balls_left(0) == 23


def test_long_back_offers_a_take_back_but_no_resignation() -> None:
    t = table()
    t.press("back", long=True)
    menu = t.referee.menu
    assert menu is not None
    assert [value for _, value in menu.options] == [False, TAKE_BACK]
    t.press("ok")  # no, play on
    assert t.game.outcome is None and t.game.history == []


# -- battles --------------------------------------------------------------------------
def battle_table() -> Table:
    t = table({"r7c5": "red"})
    t.roll(3, 4, 2, 3)
    t.press("ok")
    t.roll(6, 5, 1)  # blue, the attacker
    t.roll(3, 3, 3)  # red
    return t


def test_keep_is_only_open_after_the_sides_first_roll() -> None:
    t = table({"r7c5": "red"})
    t.roll(3, 4, 2, 3)
    t.press("ok", "right", "ok")
    battle = t.game.battle
    assert battle is not None and battle.kept == ((False,) * 3, (False,) * 3)
    assert t.referee.turn.die_cursor == 0


def test_ok_keeps_and_frees_the_die_under_the_cursor() -> None:
    t = battle_table()
    t.press("ok", "right", "ok")
    battle = t.game.battle
    assert battle is not None and battle.kept[0] == (True, True, False)
    assert t.game.history[-1] == Keep((0, 1))
    t.press("ok")
    battle = t.game.battle
    assert battle is not None and battle.kept[0] == (True, False, False)
    t.roll(6, 6)  # one die for each not kept
    battle = t.game.battle
    assert battle is not None and battle.dice[0] == (6, 6, 6)


def test_won_battle_asks_for_the_swap_and_waits_to_see_the_spot_empty() -> None:
    t = battle_table()
    t.roll(6, 6, 6)
    t.roll(1, 1, 1)
    t.roll(6, 6, 6)
    t.roll(1, 1, 1)
    assert t.game.owner("r7c5") == 0
    assert any("Blue wins 18 to 3" in line for line in t.text())
    assert t.fixes() == [("lift", "r7c5"), ("place", "r7c5")]
    t.settle()  # the board as it stands changes nothing
    assert t.fixes() == [("lift", "r7c5"), ("place", "r7c5")]
    t.lift("r7c5")
    assert t.fixes() == [("place", "r7c5")]
    t.place("r7c5")
    assert t.fixes() == [] and t.referee.turn.swap is None
    t.roll(1, 2, 3, 4)
    assert isinstance(t.game.history[-1], Roll)


def test_restart_after_a_won_battle_asks_for_the_swap_again() -> None:
    t = battle_table()
    for faces in ((6, 6, 6), (1, 1, 1), (6, 6, 6), (1, 1, 1)):
        t.roll(*faces)
    again = on_table(t.game, journal=t.journal, game_id=t.session.game_id)
    referee = again.referee
    assert isinstance(referee, DoublesWildReferee)
    assert referee.turn.swap is not None and referee.turn.swap.cell == "r7c5"


# -- the computer's hand ----------------------------------------------------------------------
def test_hand_for_keep_moves_the_cursor_and_presses_ok_per_change() -> None:
    t = battle_table()
    assert find_kit(t.referee.game.name).hand_for(t.referee).steps(Keep((0, 2))) == [
        ("press", "ok"),
        ("press", "right"),
        ("press", "right"),
        ("press", "ok"),
    ]
    t.press(
        *(step[1] for step in find_kit(t.referee.game.name).hand_for(t.referee).steps(Keep((0, 2))))
    )
    battle = t.game.battle
    assert battle is not None and battle.kept[0] == (True, False, True)


def test_hand_for_attack_on_a_wild_line_uses_the_chooser() -> None:
    t = table(RED_ON_ROW_7)
    t.roll(3, 4, 5, 5)
    steps = find_kit(t.referee.game.name).hand_for(t.referee).steps(Attack("r7c8"))
    assert steps == [("press", "ok"), ("press", "right"), ("press", "ok")]
    t.press(*(step[1] for step in steps))
    assert t.game.history[-1] == Attack("r7c8")


def test_hand_puts_the_board_right_before_rolling() -> None:
    t = battle_table()
    for faces in ((6, 6, 6), (1, 1, 1), (6, 6, 6), (1, 1, 1)):
        t.roll(*faces)
    assert find_kit(t.referee.game.name).hand_for(t.referee).steps(Roll((1, 1), (1, 1))) == [
        ("lift", "r7c5"),
        ("place", "r7c5", "blue"),
        ("press", "roll"),
    ]
    assert find_kit(t.referee.game.name).hand_for(t.referee).steps(BattleRoll((1,))) == [
        ("lift", "r7c5"),
        ("place", "r7c5", "blue"),
        ("press", "roll"),
    ]


def test_state_reports_lines_per_colour() -> None:
    t = table({"r3c3": "blue", "r3c4": "blue", "r3c5": "blue", "r4c4": "red"})
    state = t.session.state()
    assert state.extra["lines"] == {"blue": 1, "red": 0}
    assert state.scores == {"blue": 1, "red": 0}
    assert state.extra["balls_left"] == {"blue": 21, "red": 23}
    assert t.session.screen().scores == ("B1", "R0")
    assert t.session.state().oled[0] == "Blue's turn B1 R0", "the scores share the bar"


# -- dice faces ------------------------------------------------------------------------
@pytest.mark.parametrize("face", range(1, 7))
def test_a_die_shows_as_many_pips_as_its_face(face: int) -> None:
    image = Image.new("1", (SIZE, SIZE), 0)
    draw_die(ImageDraw.Draw(image), 0, 0, face)
    inside = image.crop((2, 2, SIZE - 2, SIZE - 2))
    lit = inside.histogram()[255]
    assert lit == 4 * face == 4 * len(pips(face))


def test_a_face_off_the_die_is_refused() -> None:
    with pytest.raises(ValueError, match="1 to 6"):
        pips(7)


def test_red_and_blue_pairs_are_drawn_apart() -> None:
    red = render(Screen("x", picture=RollPicture((3, 4), (3, 4))))
    box = red.crop((1, 13, 1 + SIZE, 13 + SIZE))
    other = red.crop((41, 13, 41 + SIZE, 13 + SIZE))
    assert box.histogram()[255] > other.histogram()[255], "red dice are filled, blue outlined"


# -- frames --------------------------------------------------------------------------------
def test_roll_frame(update_golden: bool) -> None:
    t = table({"r5c4": "red", "r9c9": "blue"})
    t.roll(3, 4, 2, 3)
    check_frame(render(t.session.screen()), "dw_roll", update_golden)


def test_wild_chooser_frame(update_golden: bool) -> None:
    t = table(RED_ON_ROW_7)
    t.roll(3, 4, 5, 5)
    t.press("ok", "right")
    check_frame(render(t.session.screen()), "dw_chooser", update_golden)


def test_battle_frame(update_golden: bool) -> None:
    t = battle_table()
    t.press("ok", "right", "ok", "right")
    check_frame(render(t.session.screen()), "dw_battle", update_golden)


def test_battle_result_frame(update_golden: bool) -> None:
    t = battle_table()
    for faces in ((6, 6, 6), (1, 1, 1), (6, 6, 6), (1, 1, 1)):
        t.roll(*faces)
    check_frame(render(t.session.screen()), "dw_battle_result", update_golden)


def test_battle_picture_words_name_kept_dice() -> None:
    rows = (
        BattleRow("Blue", (6, 5, 1), (True, False, True), 1),
        BattleRow("Red", (None, None, None), (False,) * 3, 0),
    )
    assert BattlePicture(rows, 0, 1).words() == (
        "Blue 6 5 1 =12 (1/3) keeps 1,3",
        "Red - - - =0 (0/3)",
    )


# -- the end ---------------------------------------------------------------------------
def test_tied_game_asks_for_a_cleared_board_before_the_play_off() -> None:
    t = Table(DoublesWild.from_position({"r3c3": "blue", "r9c9": "red"}, balls=[1, 1]))
    t.roll(1, 2, 1, 3)
    t.place("r3c4")
    t.roll(5, 6, 5, 6)
    t.place("r11c11")
    assert t.game.playoff == (0, 1) and t.game.board() == {}
    assert t.fixes() == [("lift", c) for c in ("r3c3", "r3c4", "r9c9", "r11c11")]
    assert "Tie: clear for play-off" in t.text()
    t.roll(1, 2, 3, 4)
    assert t.game.dice is None, "the play-off starts on a cleared board"
    for cell in ("r3c3", "r3c4", "r9c9", "r11c11"):
        t.lift(cell)
    assert any("Play-off" in line for line in t.text())
    t.roll(1, 2, 3, 4)
    assert t.game.dice == ((1, 2), (3, 4))


def test_game_over_screen_names_the_winner() -> None:
    t = Table(DoublesWild.from_position({"r3c3": "blue", "r3c4": "blue"}, balls=[1, 1]))
    t.roll(1, 2, 2, 3)
    t.place("r3c5")
    t.roll(5, 6, 5, 6)
    t.place("r11c11")
    assert t.game.outcome is not None and t.game.outcome.winners == (0,)
    text = t.text()
    assert text[0] == "Game over" and "Blue wins" in text and text[-1] == "B1 R0"
    assert t.session.state().oled[0] == "Game over B1 R0"
