"""A press whose meaning depends on the board waits until the board has been read since.

The loop holds such a press (and every press after it) until the board reports the
barrier it asked for; board events before the barrier go first; the OLED says it is
reading the board after 150 ms; a board that does not answer gets nothing judged.
"""

from __future__ import annotations

from typing import Any

from firmware_bridge.referees.events import BoardWait, ButtonEvent, Event
from firmware_bridge.runtime.loop import READING_AFTER_S, Loop
from firmware_bridge.runtime.session import Session
from games.double_take.game import DoubleTake
from hardware.board import (
    OCCUPIED,
    BoardEvent,
    BoardSettled,
    BoardSynced,
    BoardSyncFailed,
)
from tests.boards import FakeBoard
from tests.tables import on_table


class SyncingBoard(FakeBoard):
    """A board whose poll returns what the test queued, and which counts sync requests."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[float] = []

    def sync(self, now: float) -> int:
        self.asked.append(now)
        return len(self.asked)


class Recorder:
    """A handler that records what it is handed; ok, back and roll wait for the board."""

    now = 0.0

    def __init__(self) -> None:
        self.seen: list[Event] = []

    def handle(self, event: Event) -> None:
        self.seen.append(event)

    def wants_ticks(self) -> bool:
        return False

    def waits_for_board(self, event: ButtonEvent) -> bool:
        return event.name in ("ok", "back", "roll")


def make() -> tuple[Loop, SyncingBoard, Recorder]:
    board = SyncingBoard()
    handler = Recorder()
    return Loop(handler, board), board, handler


def test_ok_waits_for_the_barrier_and_comes_after_the_board_events_before_it() -> None:
    loop, board, handler = make()
    loop.put(ButtonEvent("ok", False))
    loop.step(1.0)
    assert handler.seen == [] and board.asked == [1.0] and loop.waiting
    board.pending = [BoardSettled({"H8": "04A1"}), BoardSettled({"H8": "04A1", "I8": "04A2"})]
    loop.step(1.05)
    assert handler.seen == [
        BoardSettled({"H8": "04A1"}),
        BoardSettled({"H8": "04A1", "I8": "04A2"}),
    ]
    board.pending = [BoardSettled({"H8": "04A1", "I8": "04A2", "J8": "04A3"}), BoardSynced(1)]
    loop.step(1.1)
    assert handler.seen[2:] == [
        BoardSettled({"H8": "04A1", "I8": "04A2", "J8": "04A3"}),
        BoardWait(reading=False),
        ButtonEvent("ok", False),
    ]
    assert not loop.waiting


def test_presses_made_while_waiting_are_kept_in_order_and_each_waits_its_own_barrier() -> None:
    loop, board, handler = make()
    loop.put(ButtonEvent("ok", False))
    loop.step(1.0)
    for name in ("right", "right", "ok", "left"):
        loop.put(ButtonEvent(name, False))
    loop.step(1.02)
    assert handler.seen == [] and board.asked == [1.0]
    board.pending = [BoardSynced(1)]
    loop.step(1.04)
    # The first ok and the menu moves after it; the second ok asks for a barrier of
    # its own, and the left press after it waits behind it.
    assert [e.name for e in handler.seen if isinstance(e, ButtonEvent)] == [
        "ok",
        "right",
        "right",
    ]
    assert board.asked == [1.0, 1.04]
    board.pending = [BoardSynced(2)]
    loop.step(1.06)
    assert [e.name for e in handler.seen if isinstance(e, ButtonEvent)] == [
        "ok",
        "right",
        "right",
        "ok",
        "left",
    ]


def test_left_and_right_alone_do_not_wait() -> None:
    loop, board, handler = make()
    loop.put(ButtonEvent("right", False))
    loop.step(1.0)
    assert handler.seen == [ButtonEvent("right", False)] and board.asked == []


def test_the_oled_is_told_after_150_ms_of_waiting() -> None:
    loop, board, handler = make()
    loop.put(ButtonEvent("ok", True))
    loop.step(2.0)
    loop.step(2.0 + READING_AFTER_S - 0.01)
    assert handler.seen == []
    loop.step(2.0 + READING_AFTER_S)
    assert handler.seen == [BoardWait(reading=True)]
    loop.step(2.3)
    assert handler.seen == [BoardWait(reading=True)], "said once"
    board.pending = [BoardSynced(1)]
    loop.step(2.4)
    assert handler.seen[1:] == [BoardWait(reading=False), ButtonEvent("ok", True)]


def test_a_board_that_does_not_answer_gets_nothing_judged() -> None:
    loop, board, handler = make()
    loop.put(ButtonEvent("ok", False))
    loop.step(1.0)
    loop.put(ButtonEvent("back", False))
    loop.step(1.1)
    board.pending = [BoardSyncFailed(1, "The board is not answering: check the cable")]
    loop.step(3.0)
    assert [e for e in handler.seen if not isinstance(e, BoardWait) or e.failure] == [
        BoardWait(reading=False, failure="The board is not answering: check the cable")
    ]
    assert not loop.waiting
    # A later answer to the barrier given up on changes nothing.
    board.pending = [BoardSynced(1)]
    loop.step(3.1)
    assert not any(isinstance(e, ButtonEvent) for e in handler.seen)


def test_a_board_without_barriers_hands_presses_on_at_once() -> None:
    class Plain:
        cells: tuple[str, ...] = ()

        def poll(self, now: float) -> list[BoardEvent]:
            return [BoardSettled({"a1": OCCUPIED})]

        def close(self) -> None:
            pass

    handler = Recorder()
    loop = Loop(handler, Plain())
    loop.put(ButtonEvent("ok", False))
    loop.step(1.0)
    seen: list[Any] = handler.seen
    assert seen == [ButtonEvent("ok", False), BoardSettled({"a1": OCCUPIED})]


def session() -> Session[DoubleTake]:
    return on_table(DoubleTake())


def test_the_session_says_it_is_reading_the_board_then_shows_the_game_again() -> None:
    table = session()
    table.handle(BoardSettled({}))
    before = table.screen()
    table.handle(BoardWait(reading=True))
    assert table.screen().lines == ("Reading the board…", *before.lines)
    table.handle(BoardWait(reading=False))
    assert table.screen() == before


def test_the_session_says_nothing_was_judged_and_what_to_check() -> None:
    table = session()
    table.handle(BoardSettled({}))
    message = "The board is not answering: check the USB cable to the Pico"
    table.handle(BoardWait(reading=False, failure=message))
    screen = table.screen()
    assert screen.header == "Not judged" and screen.lines[0] == message
    assert table.waits_for_board(ButtonEvent("ok", False))
    assert not table.waits_for_board(ButtonEvent("left", False))
    # The next press handed on (after a barrier reached) clears it.
    table.handle(ButtonEvent("right", False))
    assert table.screen().header != "Not judged"
