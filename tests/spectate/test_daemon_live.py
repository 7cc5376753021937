"""The daemon's table writes the live file spectators read: fixes waited for, the OLED."""

from __future__ import annotations

from pathlib import Path

from firmware_bridge.apps.daemon import DaemonTable, choices
from firmware_bridge.journal import Journal
from firmware_bridge.runtime.live import read_live
from firmware_bridge.runtime.lobby import Lobby
from firmware_bridge.runtime.loop import Loop
from firmware_bridge.spectate.follow import Follower
from games.double_take.game import DoubleTake
from hardware.board import OCCUPIED, BoardSettled
from tests.boards import FakeBoard
from wiring.config import RunConfig
from wiring.loader import load_profile


def test_table_writes_what_the_board_waits_for_and_the_view_shows_it(
    tmp_path: Path, fake_board: FakeBoard
) -> None:
    cfg = RunConfig(
        profile=load_profile("double-take-gpio"),
        journal=tmp_path / "journal.sqlite",
        tags=tmp_path / "tags.json",
        game="double-take",
        players=2,
        seed=7,
    )
    board = fake_board
    with Journal(cfg.journal) as journal:
        loop = Loop(Lobby(choices(cfg.profile)), board)
        table = DaemonTable(cfg, journal, loop, None, None)
        table.start()
        loop.step(0.0)
        found = read_live(cfg.journal)
        assert found is not None
        game_id, state = found
        assert table.session is not None and game_id == table.session.game_id
        assert state["oled"][0] == "Set up the board"
        assert len(state["fixes"]) == len(DoubleTake().layout())
        follower = Follower(cfg.journal)
        follower.poll()
        view = follower.view()
        assert view is not None and view["fixes"] == state["fixes"]
        board.pending = [BoardSettled(dict.fromkeys(DoubleTake().layout(), OCCUPIED))]
        loop.step(0.1)
        assert follower.poll()
        view = follower.view()
        assert view is not None and view["fixes"] == []
        assert view["oled"][0].startswith("Red to move")
        follower.close()
