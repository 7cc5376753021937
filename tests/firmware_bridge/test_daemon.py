"""What the daemon puts on the table: a resumed game, the configured one, or the lobby."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from msgspec.structs import replace

from firmware_bridge.apps.daemon import DaemonTable, choices
from firmware_bridge.journal import Journal, JournalError
from firmware_bridge.referees.events import ButtonEvent
from firmware_bridge.runtime.lobby import Lobby
from firmware_bridge.runtime.loop import Loop
from firmware_bridge.runtime.session import Session
from games.core import Resign
from games.double_take.game import DoubleTake, Step
from hardware.board import OCCUPIED, BoardSettled
from tests.boards import FakeBoard
from wiring.config import RunConfig
from wiring.loader import load_profile


def config(tmp_path: Path, game: str | None = "double-take") -> RunConfig:
    return RunConfig(
        profile=load_profile("double-take-gpio"),
        journal=tmp_path / "journal.sqlite",
        tags=tmp_path / "tags.json",
        game=game,
        players=2,
        seed=7,
    )


def table_for(cfg: RunConfig, journal: Journal) -> tuple[DaemonTable, Loop, FakeBoard]:
    board = FakeBoard()
    loop = Loop(Lobby(choices(cfg.profile)), board)
    return DaemonTable(cfg, journal, loop, None, None), loop, board


def opening() -> dict[str, str]:
    return dict.fromkeys(DoubleTake().layout(), OCCUPIED)


def test_configured_game_starts_and_asks_for_the_board_to_be_set_up(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    with Journal(cfg.journal) as journal:
        table, loop, board = table_for(cfg, journal)
        table.start()
        session = table.session
        assert session is not None and session.game.name == "double-take"
        assert journal.game(session.game_id).seed == 7
        loop.step(0.0)
        assert session.restoring and session.state().oled[0] == "Set up the board"
        board.pending = [BoardSettled(opening())]
        loop.step(0.1)
        assert not session.restoring
        assert session.state().oled[0].startswith("Red to move")


def test_unfinished_game_is_resumed(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    with Journal(cfg.journal) as journal:
        game_id = journal.new_game("double-take", 2, 3, {}, "double-take-gpio")
        game = DoubleTake(2, random.Random(3))
        for move in (Step("a3", "b4"), Step("b7", "a6")):
            assert game.apply(move).accepted
            journal.append(game_id, "action", move.to_dict())
    with Journal(cfg.journal) as journal:
        table, _, _ = table_for(cfg, journal)
        table.start()
        assert table.session is not None and table.session.game_id == game_id
        assert table.session.restoring
        assert table.session.game.layout() == game.layout()


def test_without_a_configured_game_the_lobby_asks(tmp_path: Path) -> None:
    cfg = replace(config(tmp_path, game=None), profile=load_profile("doubles-wild-gpio"))
    with Journal(cfg.journal) as journal:
        table, loop, _ = table_for(cfg, journal)
        table.start()
        assert table.session is None and table.lobby is not None
        assert table.lobby.screen().lines[0] == "< Doubles Wild >"
        # game; players 4; seats: blue, red a person, then green the computer, yellow;
        # balls (default); ready.
        presses = ("ok", "right", "right", "ok", "ok", "ok", "right", "ok", "ok", "ok", "ok")
        for name in presses:
            loop.put(ButtonEvent(name, False))
        loop.step(0.0)
        table.after_step()
        assert table.session is not None
        assert table.session.game.name == "doubles-wild"
        assert table.session.game.players == 4
        assert journal.game(table.session.game_id).players == 4
        computer = table.session.computer
        assert computer is not None and computer.seats == {2}
        assert (tmp_path / f"{cfg.journal.stem}.lobby.json").exists()


def test_a_new_game_learns_the_board_as_it_stands(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    with Journal(cfg.journal) as journal:
        table, loop, board = table_for(cfg, journal)
        table.start()
        board.pending = [BoardSettled(opening())]
        loop.step(0.0)
        first = table.session
        assert isinstance(first, Session)
        first.commit(Resign(0))
        loop.put(ButtonEvent("ok", False))
        loop.step(0.1)
        table.after_step()
        assert table.lobby is not None and table.lobby.game.name == "double-take"
        for _ in range(6):  # the game, two seats, two options, ready
            loop.put(ButtonEvent("ok", False))
        loop.step(0.2)
        table.after_step()
        second = table.session
        assert second is not None and second is not first
        # The pieces still stand as they were: the new game already knows it.
        assert second.observation == opening()
        assert not second.restoring


def fail() -> None:
    raise KeyError("a bug in the referee")


def started(tmp_path: Path, journal: Journal) -> tuple[DaemonTable, Loop, FakeBoard, Session]:
    """The configured game, its board set up, with the daemon's handling of failed events."""
    table, loop, board = table_for(config(tmp_path), journal)
    loop.on_error = table.event_failed
    table.start()
    board.pending = [BoardSettled(opening())]
    loop.step(0.0)
    assert isinstance(table.session, Session) and not table.session.restoring
    return table, loop, board, table.session


def test_a_bad_event_is_logged_and_play_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        _, loop, board, session = started(tmp_path, journal)
        monkeypatch.setattr(session.referee, "on_board", fail)
        board.pending = [BoardSettled({**opening(), "a5": OCCUPIED})]
        loop.put(ButtonEvent("back", True))
        loop.step(0.1)
        assert "could not handle BoardSettled" in caplog.text
        assert session.referee.menu is not None, "the event after the bad one is handled"


def test_a_journal_that_cannot_be_written_stops_the_daemon(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite")
    _, loop, board, _ = started(tmp_path, journal)
    journal.close()
    moved = opening()
    del moved["a3"]
    board.pending = [BoardSettled({**moved, "b4": OCCUPIED})]
    with pytest.raises(JournalError, match=r"journal\.sqlite is closed"):
        loop.step(0.1)


def test_a_failure_after_journaling_stops_the_daemon_to_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        _, loop, board, session = started(tmp_path, journal)
        monkeypatch.setattr(session.game, "apply", lambda action: fail())
        moved = opening()
        del moved["a3"]
        board.pending = [BoardSettled({**moved, "b4": OCCUPIED})]
        with pytest.raises(JournalError, match="no longer matches its journal"):
            loop.step(0.1)
