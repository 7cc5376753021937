"""``tabletop enrol`` gives up on a board that never answers, with a message."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.apps.enrol import run_enrol
from firmware_bridge.apps.errors import BoardSilent
from hardware.board import BoardEvent, BoardStatus
from hardware.clock import FakeClock


class SilentBoard:
    cells = ("A1",)

    def poll(self, now: float) -> list[BoardEvent]:
        return [BoardStatus(False, "Board disconnected: check the USB cable")]

    def close(self) -> None:
        pass


def test_a_board_that_never_reports_times_out(tmp_path: Path) -> None:
    clock = FakeClock()
    shown: list[str] = []
    with pytest.raises(BoardSilent, match=r"/dev/ttyACM7 has not answered in 5 s"):
        run_enrol(
            SilentBoard(),
            ["A"],
            tmp_path / "tags.json",
            clock,
            shown.append,
            idle=clock.advance,
            connect_timeout_s=5,
            where="/dev/ttyACM7",
        )
    assert 5 < clock.now() < 6
    assert not (tmp_path / "tags.json").exists()
