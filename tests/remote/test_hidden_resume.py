"""A guest of a game of hidden pieces started again mid-game takes its game up from
its journal and the views the host sent it, kept beside the journal; a views file
that is damaged, or another game's, is refused with the reason, and neither it nor
the journal is changed."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from firmware_bridge.remote import kept_views, protocol
from firmware_bridge.remote.kept_views import ViewsUnreadable, views_path
from tests.remote.test_faults import Board, _boards
from tests.remote.test_two_boards import _export
from tests.spectate.tools import mosquitto, stop

KEY = "1@2026-12-03T10:00:00Z"


def _seen(number: int, key: str = KEY) -> protocol.Seen:
    view = {"to_move": 0, "hands": [[], ["0-1"]]}
    return protocol.Seen(key, number, view, protocol.value_digest(view))


def test_the_views_kept_are_read_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / "ann.sqlite.views"
    kept_views.write(path, KEY, "dominoes", {1}, [_seen(1), _seen(0)])
    assert kept_views.read(path, KEY, "dominoes", {1}) == [_seen(0), _seen(1)]


def _damaged(path: Path) -> dict[str, bytes]:
    good = path.read_bytes()
    value: dict[str, Any] = json.loads(good)
    bad_view = {**value, "views": [{**value["views"][0], "number": -1}]}
    twice = {**value, "views": [value["views"][0], value["views"][0]]}
    no_deal = {**value, "views": value["views"][1:]}
    return {
        "it is not a file of kept views": good[: len(good) // 2],
        "another game": msgspec.json.encode({**value, "game_key": "2@x"}),
        "view 1 is refused: its move number -1": msgspec.json.encode(bad_view),
        "after move 0 twice": msgspec.json.encode(twice),
        "no deal": msgspec.json.encode(no_deal),
        "not a file of kept views": msgspec.json.encode({**value, "extra": 1}),
    }


def test_a_damaged_views_file_is_refused_with_the_reason_and_left_as_it_is(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ann.sqlite.views"
    kept_views.write(path, KEY, "dominoes", {1}, [_seen(0), _seen(1)])
    for why, data in _damaged(path).items():
        damaged = tmp_path / "damaged.views"
        damaged.write_bytes(data)
        with pytest.raises(ViewsUnreadable, match=why) as refused:
            kept_views.read(damaged, KEY, "dominoes", {1})
        assert "Nothing was changed" in str(refused.value)
        assert damaged.read_bytes() == data
    with pytest.raises(ViewsUnreadable, match="no such file"):
        kept_views.read(tmp_path / "none.views", KEY, "dominoes", {1})
    with pytest.raises(ViewsUnreadable, match="another game"):
        kept_views.read(path, KEY, "dominoes", {0})  # the other seat's


def _rows(journal: Path) -> list[Any]:
    with sqlite3.connect(journal) as db:
        games = db.execute("SELECT * FROM games").fetchall()
        inputs = db.execute("SELECT * FROM inputs ORDER BY seq").fetchall()
    return [games, inputs]


def _wait_for(board: Board, number: int) -> None:
    end = time.monotonic() + 120
    while max([0, *board.numbers()]) < number:
        assert not board.ended(), board.report()
        assert time.monotonic() < end, board.report()
        time.sleep(0.02)


@pytest.mark.parametrize(("game", "at"), [("dominoes", 12), ("doublecross", 20)])
def test_a_guest_started_again_takes_its_hidden_game_up_and_a_damaged_file_stops_it(
    tmp_path: Path, game: str, at: int
) -> None:
    with mosquitto() as broker:
        host, guest = _boards(broker, game, tmp_path)
        journal = tmp_path / "ann.sqlite"
        try:
            host.start()
            guest.start()
            _wait_for(guest, at)
            guest.power_loss()  # and started again at once: it takes the game up
            _wait_for(guest, at + 10)
            assert guest.proc is not None
            stop(guest.proc)  # SIGTERM: what it had is kept
            kept = views_path(journal).read_bytes()
            rows = _rows(journal)
            views_path(journal).write_bytes(kept[: len(kept) // 2])
            guest.start()
            assert guest.proc.wait(60) == 2
            guest.readers[-1].join(10)
            said = "".join(guest.runs[-1][1])
            assert "cannot be taken up" in said and "Nothing was changed" in said, said
            assert views_path(journal).read_bytes() == kept[: len(kept) // 2]
            assert _rows(journal) == rows  # nothing lost, nothing added
            views_path(journal).write_bytes(kept)  # restored: the game goes on
            guest.start()
            for board in (host, guest):
                assert board.proc is not None
                assert board.proc.wait(240) == 0, board.report()
            for reader in host.readers + guest.readers:
                reader.join(10)
            bob, ann = _export(tmp_path / "bob.sqlite"), _export(journal)
            assert bob["outcome"] is not None and bob == ann
            printed = guest.numbers()
            assert len(printed) == len(set(printed)) and max(printed) == len(bob["moves"])
            resumed = [line for _, err in guest.runs for line in err if "resuming" in line]
            assert len(resumed) == 2, resumed  # after the power loss, and after the restore
            assert not views_path(journal).exists()  # the journal has the seed now

            # Stopped after its last move, before the host's table gave the seed: the
            # journal holds the game as ended, under no seed of its own. Started again,
            # it takes the seed from the host's table of that game and ends there.
            _unseal(journal, rows, kept)
            guest.start()
            assert guest.proc.wait(60) == 0, guest.report()
            guest.readers[-1].join(10)
            assert any("takes the seed" in line for line in guest.runs[-1][1]), guest.report()
            assert _export(journal) == bob and not views_path(journal).exists()
        finally:
            for board in (host, guest):
                if board.proc is not None:
                    stop(board.proc)


def _unseal(journal: Path, rows: list[Any], kept: bytes) -> None:
    """The journal as it was before it took the seed: its game's own seed (0) and
    options, as they were mid-game, and the views kept beside it."""
    with sqlite3.connect(journal) as db:
        names = [c[1] for c in db.execute("PRAGMA table_info(games)").fetchall()]
        mid = dict(zip(names, rows[0][0], strict=True))
        db.execute(
            "UPDATE games SET seed = ?, options = ? WHERE id = ?",
            (mid["seed"], mid["options"], mid["id"]),
        )
    views_path(journal).write_bytes(kept)
