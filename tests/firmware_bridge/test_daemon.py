"""The daemon's start: resume the unfinished game, or start the configured one."""

from __future__ import annotations

import random
from pathlib import Path

from firmware_bridge.daemon import start_session
from firmware_bridge.journal import Journal
from games.double_take import DoubleTake, Step
from wiring.config import RunConfig
from wiring.loader import load_profile


def config(tmp_path: Path) -> RunConfig:
    return RunConfig(
        profile=load_profile("double-take-gpio"),
        journal=tmp_path / "journal.sqlite",
        tags=tmp_path / "tags.json",
        game="double-take",
        players=2,
        seed=7,
    )


def test_starts_the_configured_game_when_nothing_is_unfinished(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    with Journal(cfg.journal) as journal:
        session = start_session(cfg, journal, None, None)
        assert session.game.name == "double-take"
        assert not session.restoring
        record = journal.game(session.game_id)
        assert record.seed == 7 and record.finished is None


def test_resumes_the_unfinished_game_and_checks_the_board_first(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    with Journal(cfg.journal) as journal:
        game_id = journal.new_game("double-take", 2, 3, {}, "double-take-gpio")
        game = DoubleTake(2, random.Random(3))
        for move in (Step("a3", "b4"), Step("b7", "a6")):
            assert game.play(move).accepted
            journal.append(game_id, "action", move.to_dict())
    with Journal(cfg.journal) as journal:
        session = start_session(cfg, journal, None, None)
        assert session.game_id == game_id
        assert session.restoring, "the board is checked against the journal before play"
        assert session.game.layout() == game.layout()
        assert len(session.game.history) == 2
