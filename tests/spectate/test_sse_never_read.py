"""A page whose event stream is never read costs the hub a bounded amount: what waits
for it stays in memory under the high-water mark, no temporary file is spooled, and
the other pages are served meanwhile (a real Mosquitto and ``tabletop hub``)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.spectate.wsgi import OUT_HIGH_WATER
from tests.spectate.test_hub_attacks import _get, _until
from tests.spectate.tools import (
    board_state,
    free_port,
    get_json,
    mosquitto,
    stop,
    tabletop,
    wait_for_port,
)

pytestmark = pytest.mark.slow  # 30 s of a busy board


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _spooled(pid: int) -> list[str]:
    """The hub's open files that are temporary files (waitress spools to them)."""
    out = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("/tmp/") and "(deleted)" in target:
            out.append(target)
    return out


def test_a_stream_nobody_reads_is_bounded_and_costs_the_others_nothing() -> None:
    with mosquitto() as broker:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        hub = tabletop("hub", "--broker", broker.url, "--listen", f"127.0.0.1:{port}")
        board = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="busy")
        reader = socket.socket()
        try:
            wait_for_port(port, 30, hub)
            board.connect("127.0.0.1", broker.port)
            board.loop_start()
            cells = {f"r{y}c{x}": [x, y] for y in range(15) for x in range(15)}
            plan = {"journal_game": 1, "geometry": {"cols": 15, "rows": 15, "cells": cells}}
            board.publish("tabletop/busy/board", json.dumps(plan), qos=1, retain=True)
            first = json.dumps(board_state())
            board.publish("tabletop/busy/state", first, qos=1).wait_for_publish(10)
            _until("the board's card", lambda: "busy" in _get(base + "/")[2])
            # A page that opens the stream and never reads a byte of it.
            reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            reader.connect(("127.0.0.1", port))
            request = b"GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
            reader.sendall(request)
            # And one that reads: what the one that does not would have waiting for it.
            watcher = socket.create_connection(("127.0.0.1", port))
            watcher.sendall(request)
            watcher.settimeout(0.01)
            received = 0
            before = _rss_kb(hub.pid)
            start = time.monotonic()
            layout = {f"r{i // 15}c{i % 15}": {"kind": "disc", "label": "ball", "owner": i % 4}
                      for i in range(225)}  # fmt: skip
            for n in range(300):  # 30 s of a changing state, 10 a second
                state = board_state(moves_played=n + 1, layout=layout, title=f"game {n}")
                board.publish("tabletop/busy/state", json.dumps(state), qos=0)
                while time.monotonic() < start + (n + 1) * 0.1:
                    with contextlib.suppress(TimeoutError):
                        received += len(watcher.recv(65536))
                if n % 100 == 99:
                    assert not _spooled(hub.pid), "a temporary file was spooled"
            watcher.close()
            assert received > 2 * OUT_HIGH_WATER, f"the stream sent only {received} bytes"
            status, _, page = _get(base + "/")
            assert status == 200 and "busy" in page, "the other pages are served"
            grown = _rss_kb(hub.pid) - before
            assert grown < 2 * OUT_HIGH_WATER // 1024 + 16_384, f"the hub grew {grown} KB"
            assert not _spooled(hub.pid)
            assert get_json(base + "/boards.json")["boards"][0]["name"] == "busy"
        finally:
            reader.close()
            board.disconnect()
            board.loop_stop()
            stop(hub)
