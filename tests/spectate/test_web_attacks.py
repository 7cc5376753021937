"""``tabletop web`` on a journal it cannot show: a row that is not JSON, options nested
deep, a FIFO where the journal or its live file should be. The real process stays up
and its page and JSON say what is wrong, naming the file."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.journal import Journal
from tests.spectate.test_hub_attacks import _get
from tests.spectate.tools import free_port, stop, tabletop, wait_for_port


def _journal(path: Path) -> Path:
    with Journal(path) as journal:
        game = journal.new_game("double-take", 2, 1, {}, "sim")
        journal.append(game, "action", {"type": "nonsense-but-stored"})
    return path


def _damage(path: Path, sql: str) -> None:
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


def _served(journal: Path) -> Any:
    port = free_port()
    proc = tabletop("web", "--journal", str(journal), "--listen", f"127.0.0.1:{port}")
    wait_for_port(port, 30, proc)
    return proc, f"http://127.0.0.1:{port}"


def _error(base: str, proc: Any) -> str:
    """What the view's page says is wrong (its panel's error)."""
    import html
    import re

    end = time.monotonic() + 20
    while time.monotonic() < end:
        assert proc.poll() is None, proc.communicate()
        status, _, page = _get(base + "/")
        assert status == 200
        found = re.search(r'<p class="error">(.*?)</p>', page)
        if found and "no game yet" not in found.group(1):
            return html.unescape(found.group(1))
        time.sleep(0.1)
    raise AssertionError("the view never said what is wrong")


@pytest.mark.parametrize(
    ("sql", "said"),
    [
        ("UPDATE inputs SET payload = '{\"type\": '", "entry 1 is not readable JSON"),
        ("UPDATE inputs SET payload = '[1, 2]'", "entry 1 is not a JSON object"),
        ("UPDATE games SET options = '" + "[" * 100_000 + "]" * 100_000 + "'", "nested too deep"),
        ("UPDATE inputs SET kind = 'takeback', payload = '{\"undo\": \"x\"}'", "malformed"),
    ],
)
def test_a_row_the_view_cannot_read_is_named_and_the_view_stays_up(
    sql: str, said: str, tmp_path: Path
) -> None:
    journal = _journal(tmp_path / "j.sqlite")
    _damage(journal, sql)
    proc, base = _served(journal)
    try:
        error = _error(base, proc)
        assert said in error and str(journal) in error, error
        assert _get(base + "/")[0] == 200
        assert proc.poll() is None
    finally:
        stop(proc)
    _, err = proc.communicate()
    assert "Traceback" not in err


def test_a_fifo_as_the_journal_or_its_live_file_never_hangs_the_view(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.sqlite"
    os.mkfifo(fifo)
    proc, base = _served(fifo)
    try:
        error = _error(base, proc)
        assert "is not a file" in error and str(fifo) in error
        assert _get(base + "/")[0] == 200
    finally:
        stop(proc)
    journal = _journal(tmp_path / "j.sqlite")
    from firmware_bridge.runtime.live import live_path

    os.mkfifo(live_path(journal))
    proc, base = _served(journal)
    try:
        status, _, body = _get(base + "/game.json")
        assert status in (200, 404), body
        assert _get(base + "/")[0] == 200
        assert proc.poll() is None
    finally:
        stop(proc)
