"""Row-level damage to an unfinished game never stops the service: each kind is found at
start, the journal is set aside as for other damage, the log and the OLED say so, and a
new journal starts. The writers refuse what the readers refuse (text that is not UTF-8
among it, which SQLite's integrity check passes)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from firmware_bridge.apps.daemon import show_notice
from firmware_bridge.journal import Journal, JournalDamaged
from tests.firmware_bridge.test_journal_service import Frames, run_daemon_once

DAMAGE = {
    "an input not JSON": "UPDATE inputs SET payload = '{\"type\": ' WHERE seq = 3",
    "an input a JSON list": "UPDATE inputs SET payload = '[1, 2]' WHERE seq = 3",
    "an input not UTF-8": "UPDATE inputs SET payload = CAST(x'7b22ff223a317d' AS TEXT) "
    "WHERE seq = 3",
    "an input of no known kind": "UPDATE inputs SET kind = 'nonsense' WHERE seq = 3",
    "an input's time not text": "UPDATE inputs SET at = x'3132' WHERE seq = 3",
    "a move that does not replay": 'UPDATE inputs SET payload = \'{"type": "nonsense"}\' '
    "WHERE seq = 3",
    "a take-back of no move": "UPDATE inputs SET kind = 'takeback', payload = "
    "'{\"undo\": [999]}' WHERE seq = 3",
    "a game this tabletop does not know": "UPDATE games SET game = 'chess'",
    "a player count the game refuses": "UPDATE games SET players = 9",
    "options not a table": "UPDATE games SET options = '[1]'",
    "options not JSON": "UPDATE games SET options = '{'",
    "a profile not UTF-8": "UPDATE games SET profile = CAST(x'ff' AS TEXT)",
}
"""Each kind of damage to a row of the unfinished game, as SQL on a copy of the journal."""


@pytest.fixture(scope="module")
def unfinished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A journal holding an unfinished game of Double Take, its first moves played."""
    folder = tmp_path_factory.mktemp("played")
    record = folder / "record.sqlite"
    subprocess.run(
        [sys.executable, "-m", "firmware_bridge.apps.cli", "sim", "--game", "double-take",
         "--seed", "5", "--journal", str(record)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    with Journal(record, read_only=True) as source:
        game = source.games()[-1]
        actions = [e.payload for e in source.entries(game.id) if e.kind == "action"][:6]
    path = folder / "journal.sqlite"
    with Journal(path) as journal:
        new = journal.new_game(game.game, game.players, game.seed, game.options, game.profile)
        for action in actions:
            journal.append(new, "action", action)
    return path


def _config(folder: Path, journal: Path) -> Path:
    config = folder / "tabletop.toml"
    config.write_text(
        'profile = "double-take-gpio"\n'
        f'journal = "{journal}"\n'
        'game = "double-take"\nplayers = 2\nseed = 5\nlog_level = "WARNING"\n',
        encoding="utf-8",
    )
    return config


def _damaged(unfinished: Path, folder: Path, sql: str) -> Path:
    path = folder / "journal.sqlite"
    shutil.copyfile(unfinished, path)
    import sqlite3

    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()
    return path


def _rows(path: Path) -> list[tuple[object, ...]]:
    import sqlite3

    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    db.text_factory = bytes  # the rows as stored, whether UTF-8 or not
    try:
        return [
            *db.execute("SELECT * FROM games ORDER BY id"),
            *db.execute("SELECT * FROM inputs ORDER BY game_id, seq"),
        ]
    finally:
        db.close()


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_the_service_starts_on_every_kind_of_row_damage(
    damage: str, unfinished: Path, tmp_path: Path
) -> None:
    journal = _damaged(unfinished, tmp_path, DAMAGE[damage])
    before = _rows(journal)
    err = run_daemon_once(_config(tmp_path, journal), tmp_path / "frames")  # exits 0
    (aside,) = tmp_path.glob("journal.sqlite.damaged-*")
    assert _rows(aside) == before, "the damaged journal is kept, every row as it was"
    assert aside.name in err and "a new one was started" in err, err
    assert "Traceback" not in err
    with Journal(journal, read_only=True) as fresh:
        (game,) = fresh.games()
        assert game.game == "double-take" and game.finished is None
    # The first frame on the OLED is the notice.
    notice = (
        f"The journal's unfinished game cannot be resumed: it was kept as {aside.name}; "
        "a new one was started."
    )
    if notice not in err:
        notice = f"The journal was damaged: it was kept as {aside.name}; a new one was started."
    assert notice in err
    expected = Frames()
    show_notice(expected, notice)
    first = Image.open(sorted((tmp_path / "frames").glob("*.png"))[0]).convert("1")
    assert ImageChops.difference(first, expected.images[0]).getbbox() is None


def test_an_undamaged_unfinished_game_is_resumed_not_set_aside(
    unfinished: Path, tmp_path: Path
) -> None:
    journal = tmp_path / "journal.sqlite"
    shutil.copyfile(unfinished, journal)
    err = run_daemon_once(_config(tmp_path, journal), tmp_path / "frames")
    assert not list(tmp_path.glob("journal.sqlite.damaged-*")), err
    with Journal(journal, read_only=True) as same:
        (game,) = same.games()
        assert len(same.entries(game.id)) == 6


@pytest.mark.parametrize("damage", ["an input not UTF-8", "a profile not UTF-8"])
def test_a_writer_refuses_text_that_is_not_utf8_as_the_readers_do(
    damage: str, unfinished: Path, tmp_path: Path
) -> None:
    journal = _damaged(unfinished, tmp_path, DAMAGE[damage])
    before = journal.read_bytes()
    with Journal(journal, read_only=True) as reader, pytest.raises(JournalDamaged):
        reader.summaries()
    with pytest.raises(JournalDamaged) as refused:
        Journal(journal)
    assert str(journal) in str(refused.value)
    sim = subprocess.run(
        [sys.executable, "-m", "firmware_bridge.apps.cli", "sim", "--game", "double-take",
         "--journal", str(journal)],
        check=False, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert sim.returncode == 2, sim.stderr
    lines = sim.stderr.strip().splitlines()
    assert len(lines) == 1 and "is damaged" in lines[0] and str(journal) in lines[0]
    assert journal.read_bytes() == before, "nothing was written to it"
