"""The loop: board events, queued events in order, and ticks only while wanted."""

from __future__ import annotations

from typing import Any

from firmware_bridge.kits.double_take.referee import DoubleTakeReferee
from firmware_bridge.referees.events import ButtonEvent, Tick
from firmware_bridge.referees.facts import Facts
from firmware_bridge.runtime.loop import Loop
from games.double_take.game import DoubleTake
from hardware.board import OCCUPIED, BoardSettled
from tests.boards import FakeBoard
from tests.tables import on_table


class TickingReferee(DoubleTakeReferee):
    def __init__(self, game: DoubleTake, facts: Facts, turn: Any, view: Any) -> None:
        super().__init__(game, facts, turn, view)
        self.animating_until = 0.0
        self.ticks: list[float] = []

    def wants_ticks(self, now: float) -> bool:
        return now < self.animating_until or not self.ticks

    def on_tick(self, now: float) -> None:
        self.ticks.append(now)


def make_loop() -> tuple[Loop, FakeBoard, TickingReferee]:
    session = on_table(DoubleTake(), referee=TickingReferee)
    board = FakeBoard()
    referee = session.referee
    assert isinstance(referee, TickingReferee)
    return Loop(session, board), board, referee


def test_events_are_handled_in_the_order_they_arrived() -> None:
    loop, board, _ = make_loop()
    seen: list[Any] = []
    loop.handler.handle = seen.append  # type: ignore[method-assign]
    board.pending = [BoardSettled({"a1": OCCUPIED})]
    loop.put(ButtonEvent("ok", False))
    loop.step(1.0)
    # The button was queued before this poll read the board.
    assert seen[:2] == [ButtonEvent("ok", False), BoardSettled({"a1": OCCUPIED})]


def test_ticks_come_only_while_the_referee_wants_them() -> None:
    loop, _, referee = make_loop()
    loop.step(0.0)
    assert referee.ticks == [0.0]
    for now in (0.1, 0.2, 0.3):
        loop.step(now)
    assert referee.ticks == [0.0], "an idle referee gets no ticks"
    referee.animating_until = 0.45
    loop.handler.handle(Tick(0.3))
    for now in (0.4, 0.5, 0.6):
        loop.step(now)
    assert referee.ticks == [0.0, 0.3, 0.4]
