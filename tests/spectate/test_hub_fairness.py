"""One club board cannot take the hub from the others: a lone surrogate in its title, or
a big plan and a 30 KB state ten times a second, through a real Mosquitto to a real
``tabletop hub``, beside a calm board."""

from __future__ import annotations

import json
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.spectate import schema
from firmware_bridge.spectate.club import Club
from firmware_bridge.spectate.hub import DRAW_EVERY_S
from firmware_bridge.spectate.page import card_id
from tests.spectate.test_hub_attacks import _get, _until
from tests.spectate.tools import board_state, free_port, get_json, mosquitto, stop, tabletop

SURROGATE = json.dumps(board_state(title="\ud800")).encode()
"""The probe's state: its title ``"\\ud800"``, a lone surrogate (JSON allows the escape)."""


def _big_plan() -> bytes:
    cells = {f"r{y}c{x}": [x, y] for y in range(44) for x in range(45)}  # 1,980 cells
    return json.dumps({"journal_game": 1, "geometry": {"cols": 45, "rows": 44, "cells": cells}})\
        .encode()  # fmt: skip


def _big_state(n: int) -> bytes:
    layout = {f"r{i // 45}c{i % 45}": {"kind": "disc", "label": f"p{n}", "owner": i % 2}
              for i in range(600)}  # fmt: skip
    return json.dumps(board_state(moves_played=n, layout=layout)).encode()


def test_every_string_is_checked_as_valid_unicode_wherever_it_is() -> None:
    club = Club()
    for payload in (
        SURROGATE,
        json.dumps(board_state(seats=["Red", "\udfff"])).encode(),
        json.dumps(board_state(oled=["fine", "\ud83d"])).encode(),
        json.dumps(board_state(layout={"\ud800": {"kind": "disc"}})).encode(),
    ):
        assert club.take("tabletop/t/state", payload) is None
        assert "not valid Unicode" in club.refused["t"].last
    # A pair of surrogates is one character, and welcome.
    assert club.take("tabletop/t/state", json.dumps(board_state(title="\U0001f600")).encode())
    assert club.boards["t"].view is not None
    assert club.boards["t"].view["title"] == "\U0001f600"
    assert len(json.dumps(board_state(title="\ud800"))) < schema.MAX_PAYLOAD


def test_card_ids_never_share_a_card() -> None:
    names = ["t.1", "t_1", "t-1", "t 1", "t/1", "té1"]
    assert len({card_id(n) for n in names}) == len(names)
    assert card_id("table-3") == "card-table-3"


def test_a_board_over_its_quota_is_refused_until_it_slows_down() -> None:
    now = [0.0]
    club = Club(clock=lambda: now[0])
    state = _big_state(1)  # about 30 KB
    taken = sum(club.take("tabletop/loud/state", state) is not None for _ in range(100))
    # Its burst of bytes (1 MB) lets some 30 through at once, then no more.
    assert 25 < taken < 40
    assert "KB a second" in club.refused["loud"].last
    assert club.boards["loud"].over_quota == 100 - taken
    now[0] += 1.0  # a second later: 128 KB more, four such states
    assert sum(club.take("tabletop/loud/state", state) is not None for _ in range(10)) == 4
    # Another board is not charged for it.
    assert club.take("tabletop/calm/state", json.dumps(board_state()).encode()) == "calm"


def test_many_boards_over_their_share_wait_and_a_calm_one_is_always_taken() -> None:
    from firmware_bridge.spectate.club import HUB_BURST_BYTES, HUB_RATE_BYTES

    now = [0.0]
    club = Club(clock=lambda: now[0])
    state = _big_state(1)
    calm_taken = loud_bytes = 0
    for tick in range(100):  # ten seconds, 150 boards sending ten states a second
        now[0] = tick / 10
        for n in range(150):
            if club.take(f"tabletop/loud{n}/state", state) is not None:
                loud_bytes += len(state)
        if tick % 10 == 0:
            calm = json.dumps(board_state(moves_played=tick // 10 + 1)).encode()
            calm_taken += club.take("tabletop/calm/state", calm) == "calm"
    assert calm_taken == 10, "the calm board's every move was taken"
    assert loud_bytes <= HUB_BURST_BYTES + HUB_RATE_BYTES * 10
    assert "its share" in club.refused["loud0"].last


def _client(port: int, name: str) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=name)
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client


def test_one_board_cannot_fail_the_pages_nor_bury_the_other_boards() -> None:
    with mosquitto() as broker:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        hub = tabletop("hub", "--broker", broker.url, "--listen", f"127.0.0.1:{port}")
        clients: list[mqtt.Client] = []
        try:
            from tests.spectate.tools import wait_for_port

            wait_for_port(port, 30, hub)
            loud, calm = _client(broker.port, "loud"), _client(broker.port, "calm")
            clients = [loud, calm]
            loud.publish("tabletop/odd/state", SURROGATE, qos=1).wait_for_publish(10)
            loud.publish("tabletop/loud/board", _big_plan(), qos=1).wait_for_publish(10)
            calm.publish("tabletop/calm/state", json.dumps(board_state()), qos=1)
            _until("the surrogate refused", lambda: "odd" in get_json(
                base + "/diagnostics.json")["by_board"])  # fmt: skip
            facts = get_json(base + "/diagnostics.json")
            assert "not valid Unicode" in facts["by_board"]["odd"]["last"]
            draws_before = facts["draws"]
            # Ten seconds of a 30 KB state ten times a second; the calm board moves
            # once a second meanwhile.
            start = time.monotonic()
            for tick in range(100):
                loud.publish("tabletop/loud/state", _big_state(tick), qos=0)
                if tick % 10 == 9:
                    calm.publish(
                        "tabletop/calm/state",
                        json.dumps(board_state(moves_played=tick // 10 + 1)),
                        qos=1,
                    )
                time.sleep(max(0.0, start + (tick + 1) * 0.1 - time.monotonic()))
            for path in ("/", "/boards.json", "/board/loud", "/board/calm", "/diagnostics"):
                assert _get(base + path)[0] == 200, path

            def calm_at_10() -> Any:
                boards = {b["name"]: b for b in get_json(base + "/boards.json")["boards"]}
                return (boards.get("calm") or {}).get("moves_played") == 10

            _until("the calm board's tenth move", calm_at_10, 30)
            status, _, page = _get(base + "/")
            assert status == 200 and "calm" in page and "move 10" in page
            facts = get_json(base + "/diagnostics.json")
            elapsed = time.monotonic() - start
            # The loud board's quota: most of its states refused, counted against it ...
            assert facts["by_board"]["loud"]["refused"] >= 10
            assert "a second" in facts["by_board"]["loud"]["last"]
            # ... and its card drawn at most once per DRAW_EVERY_S, whatever it sends
            # (the calm board's eleven drawings besides).
            assert facts["draws"] - draws_before <= elapsed / DRAW_EVERY_S + 2 + 11
            # A plan too big to draw small shows in words on its card, not as 1,980 cells.
            card = page[page.index(f'id="{card_id("loud")}"') :]
            card = card[: card.index("</div>")]
            assert "<svg" not in card and "Double Take" in card
            assert len(page) < 20_000
        finally:
            for c in clients:
                c.disconnect()
                c.loop_stop()
            stop(hub)
