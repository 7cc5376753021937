"""Journals of older versions: Crosslet's ``first`` counted seats from 0 before version 2."""

from __future__ import annotations

import io
import json
import sqlite3
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.apps.export import export_game
from firmware_bridge.journal import SCHEMA_VERSION, Journal, current_options
from firmware_bridge.spectate.follow import Follower


def play(path: Path, game: str, *options: str) -> None:
    argv = ["sim", "--game", game, "--seed", "3", "--journal", str(path), "--json"]
    for option in options:
        argv += ["--option", option]
    err = io.StringIO()
    with redirect_stderr(err):
        assert main(argv, io.StringIO()) == 0, err.getvalue()


def written_as_version_1(path: Path) -> None:
    """Rewrite ``path`` as version 1 wrote it: Crosslet's ``first`` counted from 0."""
    db = sqlite3.connect(path)
    with db:
        for game_id, game, text in db.execute("SELECT id, game, options FROM games").fetchall():
            options = json.loads(text)
            if game == "crosslet" and "first" in options:
                options["first"] -= 1
                db.execute(
                    "UPDATE games SET options = ? WHERE id = ?", (json.dumps(options), game_id)
                )
        db.execute("PRAGMA user_version = 1")
    db.close()


def raw(path: Path) -> tuple[int, list[tuple[str, dict[str, object]]]]:
    db = sqlite3.connect(path)
    (version,) = db.execute("PRAGMA user_version").fetchone()
    rows = [(g, json.loads(o)) for g, o in db.execute("SELECT game, options FROM games")]
    db.close()
    return version, rows


@pytest.fixture(scope="module")
def journal_today(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two finished games: Crosslet with seat 2 starting, then DoubleCross with seat 2."""
    path = tmp_path_factory.mktemp("journal") / "today.sqlite"
    play(path, "crosslet", "first=2")
    play(path, "doublecross", "first=2", "start_word=CAT")
    return path


def old_copy(journal_today: Path, tmp_path: Path) -> Path:
    old = tmp_path / "old.sqlite"
    old.write_bytes(journal_today.read_bytes())
    written_as_version_1(old)
    return old


def test_crosslet_counts_the_first_seat_from_1_like_every_seat_number(journal_today: Path) -> None:
    version, rows = raw(journal_today)
    assert version == SCHEMA_VERSION == 2
    assert [(g, o["first"]) for g, o in rows] == [("crosslet", 2), ("doublecross", 2)]
    record = export_game(journal_today, 1)
    assert record["options"]["first"] == 2
    assert record["moves"][0]["player"] == "player 2"


def test_an_older_journal_reads_and_replays_as_it_was_played(
    journal_today: Path, tmp_path: Path
) -> None:
    old = old_copy(journal_today, tmp_path)
    assert raw(old) == (1, [("crosslet", {"first": 1}), raw(journal_today)[1][1]])
    before = old.read_bytes()
    for game_id in (1, 2):
        assert export_game(old, game_id) == export_game(journal_today, game_id)
    with Journal(old, read_only=True) as journal:
        assert journal.version == 1
        assert [r.options.get("first") for r in journal.games()] == [2, 2]
    assert old.read_bytes() == before  # reading changed nothing


def test_an_older_journal_opened_for_play_is_rewritten_in_this_version(
    journal_today: Path, tmp_path: Path
) -> None:
    old = old_copy(journal_today, tmp_path)
    Journal(old).close()
    assert raw(old) == raw(journal_today)
    Journal(old).close()  # a second opening changes nothing more
    assert raw(old) == raw(journal_today)


def test_a_spectator_follows_an_older_crosslet_journal_from_the_right_seat(
    journal_today: Path, tmp_path: Path
) -> None:
    old = tmp_path / "crosslet.sqlite"
    old.write_bytes(journal_today.read_bytes())
    db = sqlite3.connect(old)
    with db:
        db.execute("DELETE FROM inputs WHERE game_id = 2")
        db.execute("DELETE FROM games WHERE id = 2")
    db.close()
    written_as_version_1(old)
    follower = Follower(old)
    try:
        assert follower.poll() and follower.error is None and follower.game is not None
        assert follower.game.options["first"] == 2
        assert len(follower.moves) == len(export_game(journal_today, 1)["moves"])
    finally:
        follower.close()


def test_current_options_change_only_crosslet_first_of_older_versions() -> None:
    assert current_options("crosslet", {"first": 0, "racks": "table"}, 1) == {
        "first": 1,
        "racks": "table",
    }
    assert current_options("crosslet", {"first": 0}, 0) == {"first": 1}
    assert current_options("crosslet", {"first": 2}, 2) == {"first": 2}
    assert current_options("doublecross", {"first": 1}, 1) == {"first": 1}
    assert current_options("crosslet", {"racks": "dealt"}, 1) == {"racks": "dealt"}
