"""What the hub takes from a board: the schema, the limits, and the caps on its memory."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.kits import find_kit
from firmware_bridge.screen.palette import COLOURS
from firmware_bridge.spectate import schema
from firmware_bridge.spectate.club import Club
from firmware_bridge.spectate.geometry import geometry
from firmware_bridge.spectate.project import view
from tests.spectate.tools import board_state as _state

GAMES = ("crosslet", "doublecross", "dominoes", "double-take", "doubles-wild")


def _send(club: Club, board: str, kind: str, data: Any) -> str | None:
    return club.take(f"tabletop/{board}/{kind}", json.dumps(data).encode())


@pytest.mark.parametrize("name", GAMES)
def test_every_games_state_and_plan_pass(name: str) -> None:
    game = find_kit(name).new_game(2, random.Random(3), {})
    club = Club()
    assert _send(club, "t", "board", {"journal_game": 1, "geometry": geometry(game)}) == "t"
    assert _send(club, "t", "state", view(game, 1, [], None, "t")) == "t"
    lit = dict(zip(game.cells(), sorted(COLOURS), strict=False))
    assert _send(club, "t", "state", {**view(game, 1, [], None, "t"), "leds": lit}) == "t"
    assert club.refused == {}
    assert club.boards["t"].geometry is not None


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"[" * 40 + b"]" * 40, "nested 40 deep"),
        (json.dumps(_state()).replace('"Red": 0', '"Red": NaN').encode(), "NaN"),
        (json.dumps(_state()).replace('"Red": 0', '"Red": Infinity').encode(), "Infinity"),
        (json.dumps(_state()).replace('"Red": 0', '"Red": 1e999').encode(), "1e999"),
        (json.dumps(_state()).replace('"Red": 0', '"Red": ' + "9" * 5000).encode(), "not JSON"),
        (json.dumps(_state(title="x" * 2000)).encode(), "text of 2,000 characters"),
        (json.dumps(_state(seats=["Red"] * 40)).encode(), "seats"),
        (json.dumps(_state(layout={"a1": {"owner": "<b>"}})).encode(), "owner"),
        (json.dumps(_state(journal_game=0)).encode(), "game number"),
        (json.dumps(_state(leds={"a1": "red"})).encode(), "not one of the colours"),
        (json.dumps(_state(leds={"a1": ["lift"]})).encode(), "not one of the colours"),
        (json.dumps(_state(leds=["a1"])).encode(), "lights are not a table"),
        (json.dumps(_state(leds={"": "lift"})).encode(), "a cell of its lights"),
        (b'{"journal_game": 1, "title": "x"' + b" " * 200_000 + b"}", "bytes long"),
        (b"\xff\xfe not json", "not JSON"),
    ],
)
def test_a_state_outside_the_schema_is_refused_and_counted(payload: bytes, reason: str) -> None:
    club = Club()
    assert club.take("tabletop/b/state", payload) is None
    assert "b" not in club.boards
    assert club.refused["b"].count == 1
    assert reason in club.refused["b"].last
    assert club.diagnostics()["by_board"]["b"]["refused"] == 1


@pytest.mark.parametrize(
    "change",
    [
        {"cols": 1e999},
        {"cols": 10_000},
        {"cols": "2"},
        {"cells": {"a1": [5, 0]}},
        {"cells": {"a1": "0,0"}},
        {"special": {"a1": {"fill": "red;stroke:url(x)"}}},
        {"special": {"a1": {"fill": '"/><script>alert(1)</script>'}}},
        {"special": {"a1": {"fill": "#fff", "text": "far too long a text"}}},
    ],
)
def test_a_plan_outside_the_schema_is_refused(change: dict[str, Any]) -> None:
    plan = {"cols": 2, "rows": 1, "cells": {"a1": [0, 0]}, "special": {}, **change}
    club = Club()
    _send(club, "b", "state", _state())
    assert _send(club, "b", "board", {"journal_game": 1, "geometry": plan}) is None
    assert club.boards["b"].geometry is None
    assert club.refused["b"].count == 1


def test_names_beyond_the_cap_push_out_the_boards_idle_longest() -> None:
    club = Club(max_boards=100)
    for n in range(5_000):
        _send(club, f"made-up-{n}", "state", _state())
        if n % 50 == 0:
            _send(club, "real", "state", _state(moves_played=n))
    assert len(club.boards) == 100
    assert "real" in club.boards and club.boards["real"].view is not None
    assert "made-up-4999" in club.boards and "made-up-0" not in club.boards
    assert club.dropped == 4_901


def test_names_that_are_not_board_names_are_refused() -> None:
    club = Club()
    for name in ("a\x00b", "a b", "bell\x07", "x" * 65, "\x9b"):
        assert _send(club, name, "state", _state()) is None
    assert club.boards == {}
    assert club.refused_total == 5
    assert _send(club, "<b>bold", "state", _state()) == "<b>bold"
    assert "<b>" not in "".join(_cards(club)) and "&lt;b&gt;bold" in "".join(_cards(club))


def _cards(club: Club) -> list[str]:
    from firmware_bridge.spectate.page import card_html

    return [card_html(b.name, b.view, b.geometry, "/board/x") for b in club.boards.values()]


def test_big_states_are_refused_and_moves_stop_at_the_boards_byte_cap() -> None:
    # A second between messages: within the board's quota of messages a second.
    club = Club(board_bytes=64 * 1024, clock=itertools.count().__next__)
    huge = _state(oled=["x" * 1000] * 2000)
    for n in range(20):
        assert _send(club, f"b{n}", "state", huge) is None
    assert club.boards == {}
    _send(club, "b", "state", _state(moves_played=500))
    action = {"type": "x", "pad": "y" * 900}
    for n in range(1, 501):
        _send(club, "b", "moves", {"journal_game": 1, "n": n, "text": "x", "action": action})
    board = club.boards["b"]
    assert board.size() <= 64 * 1024
    assert 50 < len(board.moves) < 80
    assert board.full and board.missing() is None
    assert "passed the hub's 65,536 bytes" in club.refused["b"].last


def test_a_stranger_cannot_pin_a_board_to_a_made_up_game() -> None:
    club = Club()
    _send(club, "b", "state", _state(moves_played=3))
    _send(club, "b", "state", _state(journal_game=999_999, moves_played=0))
    assert club.boards["b"].journal_game == 999_999
    # The board's own next state takes its game back.
    _send(club, "b", "state", _state(moves_played=4))
    assert club.boards["b"].journal_game == 1
    assert club.boards["b"].view == _state(moves_played=4)
    # A plan is drawn only with the game it was sent for.
    plan = {"cols": 1, "rows": 1, "cells": {"a1": [0, 0]}, "special": {}}
    _send(club, "b", "board", {"journal_game": 7, "geometry": plan})
    assert club.boards["b"].geometry is None
    _send(club, "b", "board", {"journal_game": 1, "geometry": plan})
    assert club.boards["b"].geometry == plan


def test_the_hub_lets_go_of_what_it_kept_for_boards_pushed_out() -> None:
    from paho.mqtt.client import MQTTMessage

    from firmware_bridge.spectate.hub import Hub
    from firmware_bridge.spectate.mqtt import BrokerSettings

    hub = Hub(BrokerSettings.from_url("mqtt://127.0.0.1:1"))
    hub.club.max_boards = 10
    for n in range(50):
        message = MQTTMessage(topic=f"tabletop/b{n}/state".encode())
        message.payload = json.dumps(_state(moves_played=1)).encode()
        hub._on_message(hub.client, None, message)
        hub.draw(f"b{n}")  # what the hub's drawing thread does as boards change
        hub.board_parts(f"b{n}")
    assert len(hub.club.boards) == 10
    assert set(hub.board_changes) == set(hub.club.boards)
    assert set(hub.drawn) == set(hub._last_drawn) == set(hub.club.boards)
    assert set(hub._pages) <= set(hub.club.boards)
    assert set(hub._gaps) <= set(hub.club.boards)


def test_a_message_the_hub_cannot_take_never_ends_its_network_thread() -> None:
    from paho.mqtt.client import MQTTMessage

    from firmware_bridge.spectate.hub import Hub
    from firmware_bridge.spectate.mqtt import BrokerSettings

    hub = Hub(BrokerSettings.from_url("mqtt://127.0.0.1:1"))
    for payload in (b"[" * 100_000 + b"]" * 100_000, b"[" * 5000 + b"]" * 5000):
        message = MQTTMessage(topic=b"tabletop/x/state")
        message.payload = payload
        hub._on_message(hub.client, None, message)  # raises nothing
    assert hub.club.refused["x"].count == 2
    # Brackets inside texts are no nesting.
    assert schema.load(b'["[[[", {"a": "]]"}]') == ["[[[", {"a": "]]"}]


def test_a_live_file_nested_deep_or_holding_nan_is_not_read(tmp_path: Path) -> None:
    from firmware_bridge.runtime.live import live_path, read_live

    journal = tmp_path / "j.sqlite"
    good = {"game_id": 1, "state": {"moves_played": 0, "scores": {"red": 0}}}
    live_path(journal).write_text(json.dumps(good), encoding="utf-8")
    assert read_live(journal) == (1, good["state"])
    for text in (
        "[" * 100_000 + "]" * 100_000,
        json.dumps(good).replace('"red": 0', '"red": NaN'),
        json.dumps(good).replace('"red": 0', '"red": 1e999'),
    ):
        live_path(journal).write_text(text, encoding="utf-8")
        assert read_live(journal) is None


def test_a_web_view_whose_live_state_cannot_be_drawn_says_so_and_stays_up(
    tmp_path: Path,
) -> None:
    from firmware_bridge.journal import Journal
    from firmware_bridge.runtime.live import live_path
    from firmware_bridge.spectate.follow import Follower
    from firmware_bridge.spectate.server import BoardView

    journal = tmp_path / "j.sqlite"
    with Journal(journal) as j:
        j.new_game("double-take", 2, 1, {}, "double-take-gpio")
    bad = {"moves_played": 0, "fixes": 5, "oled": 7, "layout": {}}
    live_path(journal).write_text(json.dumps({"game_id": 1, "state": bad}), encoding="utf-8")
    board = BoardView(Follower(journal))
    board.poll()
    try:
        shown = board.parts()
    finally:
        board.close()
    assert "cannot be drawn" in shown["panel"]
