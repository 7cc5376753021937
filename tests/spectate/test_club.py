"""Boards publishing to a real Mosquitto, and the hub that shows them."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from firmware_bridge.spectate.club import Club
from firmware_bridge.spectate.follow import Follower
from tests.spectate.tools import board_state as _state
from tests.spectate.tools import free_port, get_json, mosquitto, stop, tabletop, wait_for_port


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
                lambda: all(
                    ((index().get(n) or {}).get("moves_played") or 0) >= 3 for n in journals
                ),
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
    assert _msg(club, "state", _state(moves_played=3)) == "b"
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


def test_pages_asking_for_boards_never_heard_of_leave_nothing_behind() -> None:
    from paho.mqtt.client import MQTTMessage

    from firmware_bridge.spectate.hub import Hub
    from firmware_bridge.spectate.mqtt import BrokerSettings

    hub = Hub(BrokerSettings.from_url("mqtt://127.0.0.1:1"))
    for n in range(200):
        assert hub.changes_of(f"nosuch{n}") is hub.changes
    assert hub.board_changes == {}
    assert hub.versions() == {}
    # A page opened before its board is heard of is woken when the board appears.
    waiting = hub.changes_of("b")
    seen = waiting.version
    assert "no board called b" in json.dumps(hub.board_parts("b"))
    message = MQTTMessage(topic=b"tabletop/b/state")
    message.payload = json.dumps(_state()).encode()
    hub._on_message(hub.client, None, message)
    hub.draw_all()  # what the hub's drawing thread does as boards change
    assert waiting.version != seen
    own = hub.changes_of("b")
    assert own is not hub.changes
    assert hub.board_changes == {"b": own}
    assert "no board called b" not in json.dumps(hub.board_parts("b"))


def test_club_keeps_the_last_good_state_when_a_board_sends_one_it_cannot_show() -> None:
    club = Club()
    assert _msg(club, "state", _state(moves_played=2)) == "b"
    bad = [
        {k: v for k, v in _state().items() if k != "title"},
        _state(seats="Red"),
        _state(seats=["Red", 3]),
        _state(scores=[0, 0]),
        _state(moves_played=-1),
        _state(moves_played="2"),
        _state(moves_played=True),
        _state(layout=["a1"]),
        _state(layout={"a1": "red"}),
    ]
    for state in bad:
        assert _msg(club, "state", state) is None, state
        assert club.boards["b"].view == _state(moves_played=2)


def test_a_board_the_pages_cannot_draw_is_named_and_the_others_still_shown() -> None:
    from firmware_bridge.kits import find_kit
    from firmware_bridge.spectate.geometry import geometry
    from firmware_bridge.spectate.hub import Hub
    from firmware_bridge.spectate.mqtt import BrokerSettings

    hub = Hub(BrokerSettings.from_url("mqtt://127.0.0.1:1"))
    game = find_kit("double-take").new_game(2, random.Random(1), {})
    state = _state(layout=game.state_dict()["layout"])
    geo = geometry(game)
    for name in ("good", "odd"):
        assert _msg(hub.club, "state", state, name) == name
    _msg(hub.club, "board", {"journal_game": 1, "geometry": geo}, "good")
    # A plan the schema refuses never reaches the pages: it is counted for its board.
    odd = {"journal_game": 1, "geometry": {**geo, "cols": "x"}}
    assert _msg(hub.club, "board", odd, "odd") is None
    assert hub.club.refused["odd"].count == 1
    hub.draw_all()
    assert "<svg" not in hub.cards()["card-odd"]
    # Should anything the pages cannot draw get past it, only its own card says so.
    hub.club.boards["odd"].plan = (1, json.dumps({"geometry": {**geo, "cols": "x"}}).encode())
    hub.draw_all()
    cards = hub.cards()
    assert "<svg" in cards["card-good"] and "Double Take" in cards["card-good"]
    assert "cannot be drawn" in cards["card-odd"] and "<svg" not in cards["card-odd"]
    assert "odd sent what this hub cannot draw" in hub.board_parts("odd")["panel"]
    assert "cannot draw" not in hub.board_parts("good")["panel"]
