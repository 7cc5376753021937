"""Boards publishing to a real Mosquitto, and the hub that shows them."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from firmware_bridge.spectate.club import Club
from firmware_bridge.spectate.follow import Follower

from .tools import free_port, get_json, mosquitto, stop, tabletop, wait_for_port


def _until(what: str, check: Any, timeout: float = 30.0, show: Any = None) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}" + (f": {show()}" if show else ""))


def _journal_moves(path: Path) -> list[dict[str, Any]]:
    follower = Follower(path)
    follower.poll()
    follower.close()
    return follower.moves


def test_hub_loses_no_move_while_the_broker_is_away(tmp_path: Path) -> None:
    with mosquitto() as broker:
        port = free_port()
        hub = tabletop("hub", "--broker", broker.url, "--listen", f"127.0.0.1:{port}")
        journals = {"t1": tmp_path / "t1.sqlite", "t2": tmp_path / "t2.sqlite"}
        games = {"t1": "double-take", "t2": "dominoes"}
        boards = [
            tabletop(
                "sim",
                "--game",
                games[name],
                "--broker",
                broker.url,
                "--board-name",
                name,
                "--realtime",
                "0.25",
                "--journal",
                str(journals[name]),
            )
            for name in journals
        ]
        try:
            wait_for_port(port, 30, hub)
            base = f"http://127.0.0.1:{port}"

            def index() -> dict[str, Any]:
                return {b["name"]: b for b in get_json(base + "/boards.json")["boards"]}

            _until(
                "both boards in the hub",
                lambda: all((index().get(n) or {}).get("moves_played", 0) >= 3 for n in journals),
                timeout=60,
                show=lambda: (index(), [p.poll() for p in boards]),
            )
            assert {n: b["game"] for n, b in index().items()} == games
            broker.stop()
            # The boards play on without their broker.
            before = {n: len(_journal_moves(j)) for n, j in journals.items()}
            _until(
                "moves played while the broker is away",
                lambda: all(len(_journal_moves(j)) >= before[n] + 3 for n, j in journals.items()),
            )
            broker.start()

            def caught_up() -> bool:
                for name, path in journals.items():
                    played = _journal_moves(path)
                    record = get_json(f"{base}/boards/{name}.json")
                    got = record["moves"]
                    if len(got) < before[name] + 3:
                        return False
                    if [m["n"] for m in got] != list(range(1, len(got) + 1)):
                        return False
                    assert [m["action"] for m in got] == [m["action"] for m in played[: len(got)]]
                return True

            _until("the hub to have every move again", caught_up, 60)
        finally:
            for proc in [*boards, hub]:
                stop(proc)


def _msg(club: Club, kind: str, data: dict[str, Any], board: str = "b") -> str | None:
    return club.take(f"tabletop/{board}/{kind}", json.dumps(data).encode())


def test_club_counts_a_move_sent_twice_once_and_notices_gaps() -> None:
    club = Club()
    assert _msg(club, "state", {"journal_game": 1, "moves_played": 3}) == "b"
    assert club.boards["b"].missing() == 1
    for n in (1, 2, 1):
        _msg(club, "moves", {"journal_game": 1, "n": n, "action": {"type": "x"}})
    board = club.boards["b"]
    assert sorted(board.moves) == [1, 2]
    assert board.missing() == 3
    _msg(club, "moves", {"journal_game": 1, "n": 3})
    assert board.missing() is None


def test_club_follows_a_new_game_and_ignores_the_old_ones() -> None:
    club = Club()
    _msg(club, "moves", {"journal_game": 2, "n": 1})
    assert _msg(club, "moves", {"journal_game": 1, "n": 2}) is None
    _msg(club, "moves", {"journal_game": 3, "n": 1})
    board = club.boards["b"]
    assert board.journal_game == 3
    assert list(board.moves) == [1]


def test_club_ignores_what_is_not_a_board_message() -> None:
    club = Club()
    assert club.take("tabletop/b/state", b"not json") is None
    assert club.take("tabletop/b/state", b"[1, 2]") is None
    assert club.take("tabletop/b/resend", b'{"from": 1}') is None
    assert club.take("elsewhere/b/state", b"{}") is None
    assert club.take("tabletop/b/state", b"") is None
    assert _msg(club, "moves", {"journal_game": 1, "n": "one"}) is None
    assert club.index()["count"] <= 1
