"""What the games' screens say and mark, beyond fitting the OLED (test_screen_fit)."""

from __future__ import annotations

from firmware_bridge.referees.events import Tick
from firmware_bridge.screen.layout import PAGE_S
from firmware_bridge.screen.screens import Mark
from games.double_take.game import GREEN, RED, DoubleTake, Step
from games.doubles_wild.game import DoublesWild
from hardware.board import OCCUPIED, BoardSettled
from tests.firmware_bridge.kits.doubles_wild.test_referee import Table
from tests.firmware_bridge.test_oled_frames import session_for

BALLS = {"r3c3": "blue", "r3c4": "red", "r3c5": "purple", "r3c6": "green"}


def test_each_seats_balls_keep_their_own_pattern_whoever_is_to_move() -> None:
    t = Table(DoublesWild.from_position(BALLS, players=4))
    before = t.session.screen().board
    assert before is not None
    patterns = [Mark.SOLID, Mark.HOLLOW, Mark.CROSS, Mark.CHECK]
    assert [before.marks[c] for c in BALLS] == patterns
    t.roll(3, 4, 2, 3)
    t.place("r7c5")
    assert t.game.turn == 1, "red is to move now"
    after = t.session.screen().board
    assert after is not None
    assert [after.marks[c] for c in BALLS] == patterns and after.marks["r7c5"] is Mark.SOLID


def test_a_wild_row_is_outlined_and_the_prompts_are_in_words() -> None:
    t = Table(DoublesWild.from_position(BALLS, players=4))
    t.roll(3, 4, 5, 5)  # blue double: row 7 is wild
    screen = t.session.screen()
    assert screen.board is not None
    assert screen.board.lit == frozenset(f"r7c{c}" for c in range(3, 12))
    assert screen.prompt == "Place a ball"
    assert "Or re-roll: left red, right blue, roll both" in screen.lines
    assert screen.scores == ("B0", "R0", "P0", "G0")
    assert t.session.state().oled[0] == "Blue B0 R0 P0 G0", "the scores share the bar"


def test_double_take_says_a_run_of_passes_once() -> None:
    pieces = dict.fromkeys(("h3", "e6", "f5", "a2", "f3"), GREEN)
    game = DoubleTake.from_position(pieces, RED)
    session, board = session_for(game)
    assert session.screen().lines[0] == "Red cannot move: passes"
    for _ in range(2):
        step = next(a for a in game.legal_actions() if isinstance(a, Step) and not a.captures)
        del board[step.frm]
        board[step.to] = OCCUPIED
        session.handle(BoardSettled(dict(board)))
        assert game.history[-1] == game.history[-3], "red passed again"
        screen = session.screen()
        assert "Red cannot move: passes" not in screen.lines
        assert screen.lines[0] == f"Last: {step.frm}-{step.to}"
        assert screen.scores == ("Far row: Red 0", f"Green {game.scores()[1]}")
        assert f"Left: Red 0, Green {len(pieces)}" in screen.lines


def test_double_take_game_over_asks_for_ok_and_names_each_count() -> None:
    red = {"a9": 0, "c9": 0, "e9": 0, "f8": 0}
    green = {"b3": 1, "d3": 1, "f3": 1, "h3": 1}
    session, board = session_for(DoubleTake.from_position(red | green, to_move=0))
    del board["f8"]
    board["g9"] = OCCUPIED
    session.handle(BoardSettled(dict(board)))
    screen = session.screen()
    assert screen.lines[0] == "Red wins" and screen.prompt == "ok: new game"
    assert screen.scores == ("Far row: Red 4", "Green 0"), "the score is the far row's"
    assert "Left: Red 4, Green 4" in screen.lines
    assert "Red has four pieces on the far row" in screen.lines, "why it ended"


def test_every_cell_a_capture_names_is_framed() -> None:
    red = {"a5": 0, "e5": 0, "c3": 0, "a1": 0}
    green = {"b5": 1, "d5": 1, "h9": 1, "f9": 1}
    session, board = session_for(DoubleTake.from_position(red | green, to_move=0))
    del board["c3"]
    board["c5"] = OCCUPIED
    session.handle(BoardSettled(dict(board)))
    screen = session.screen()
    assert screen.prompt == "Lift b5 d5 to capture, or ok: no capture"
    assert screen.board is not None and screen.board.framed == ("b5", "d5")


def test_a_screen_that_does_not_fit_turns_its_page_on_the_clock() -> None:
    t = Table(DoublesWild())
    t.roll(3, 4, 2, 3)
    first = t.session.state().oled
    assert "Spot r7c5" in first and "Place a ball" in first
    assert not t.session.wants_ticks(), "no tick until the next page is due"
    t.session.now = PAGE_S
    assert t.session.wants_ticks()
    t.session.handle(Tick(PAGE_S))
    second = t.session.state().oled
    assert "Spot r7c5" not in second and second[-1] == "Place a ball", "the prompt stays"
    assert " ".join(second).startswith("Blue's turn B0 R0 red 3 4 (7), blue 2 3 (5) Or re-roll:")
    layout = t.session.layout
    assert layout is not None and layout.page == 1 and layout.pages >= 2
