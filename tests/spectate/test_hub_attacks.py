"""The hub against a hostile broker: the messages of a probe, sent as they were, to a real
Mosquitto and a real ``tabletop hub``, beside a real board playing on."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tests.spectate.tools import board_state as _state
from tests.spectate.tools import free_port, get_json, mosquitto, stop, tabletop, wait_for_port

EVIL_PLAN = (
    b'{"journal_game":1,"geometry":{"cols":2,"rows":1,"cells":{"a1":[0,0]},'
    b'"special":{"a1":{"fill":"\\"/><foreignObject><img src=x onerror=alert(document.domain)>'
    b'</foreignObject><rect x=\\""}}}}'
)
DEEP = b"[" * 100_000 + b"]" * 100_000
"""About 200 KB of nested lists: once, enough to end paho's thread."""
DEEP_SMALL = b"[" * 5_000 + b"]" * 5_000
"""Deep nesting that fits under the size limit: refused for its depth."""


def _publish(url: str, messages: list[tuple[str, bytes]]) -> None:
    """Send ``messages`` retained, as a stranger on the broker would, and wait for each."""
    port = int(url.rsplit(":", 1)[1])
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="stranger")
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        for topic, payload in messages:
            client.publish(topic, payload, qos=1, retain=True).wait_for_publish(10)
    finally:
        client.disconnect()
        client.loop_stop()


def _get(url: str) -> tuple[int, dict[str, str], str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


def _until(what: str, check: Any, timeout: float = 60.0) -> Any:
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        last = check()
        if last:
            return last
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}: {last!r}")


def test_a_hostile_broker_cannot_inject_silence_break_or_hide(tmp_path: Path) -> None:
    with mosquitto() as broker:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        hub = tabletop("hub", "--broker", broker.url, "--listen", f"127.0.0.1:{port}")
        board = tabletop(
            "sim", "--game", "doubles-wild", "--broker", broker.url, "--board-name", "real",
            "--realtime", "0.3", "--journal", str(tmp_path / "real.sqlite"),
        )  # fmt: skip
        try:
            wait_for_port(port, 30, hub)

            def real() -> dict[str, Any]:
                boards = {b["name"]: b for b in get_json(base + "/boards.json")["boards"]}
                return boards.get("real") or {}

            _until("the real board", lambda: (real().get("moves_played") or 0) >= 2)
            nan_state = json.dumps(_state()).replace('"Red": 0', '"Red": NaN').encode()
            _publish(
                broker.url,
                [
                    ("tabletop/evil/board", EVIL_PLAN),
                    ("tabletop/evil/state", json.dumps(_state()).encode()),
                    ("tabletop/x/state", DEEP),
                    ("tabletop/y/state", DEEP_SMALL),
                    ("tabletop/nan/state", nan_state),
                    ("tabletop/big/state", json.dumps(_state()).encode()),
                    (
                        "tabletop/big/board",
                        b'{"journal_game":1,"geometry":{"cols":1e999,'
                        b'"rows":1,"cells":{"a1":[0,0]}}}',
                    ),
                    # A stranger's state for the real board, with a game number far ahead.
                    ("tabletop/real/state", json.dumps(_state(journal_game=999_999)).encode()),
                ],
            )
            diag = _until(
                "the refusals counted",
                lambda: (d := get_json(base + "/diagnostics.json"))["refused"] >= 5 and d,
            )
            by = diag["by_board"]
            assert {"evil", "x", "y", "nan", "big"} <= set(by), by
            assert "fill" in by["evil"]["last"]
            assert "bytes long" in by["x"]["last"]
            assert "nested" in by["y"]["last"]
            assert "NaN" in by["nan"]["last"]
            assert "1e999" in by["big"]["last"]
            # The hub still hears the real board, which takes its own game back.
            seen = real().get("moves_played") or 0
            _until(
                "the real board's own game again",
                lambda: (
                    real().get("journal_game") == 1 and (real().get("moves_played") or 0) > seen
                ),
            )
            for _ in range(2):
                status, headers, page = _get(base + "/")
                assert status == 200
                assert "foreignObject" not in page and "onerror" not in page
                assert "<script>" not in page and 'src="/app.js"' in page
                policy = headers["Content-Security-Policy"]
                assert (
                    "script-src 'self'" in policy
                    and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
                )
                assert _get(base + "/boards.json")[0] == 200
                for name in ("evil", "nan", "big", "real"):
                    assert _get(f"{base}/board/{name}")[0] == 200
                # The retained messages come back after a restart: still nothing breaks.
                stop(hub)
                hub = tabletop("hub", "--broker", broker.url, "--listen", f"127.0.0.1:{port}")
                wait_for_port(port, 30, hub)
                _until("the retained messages", lambda: real().get("name") == "real")
            # After the restart the retained messages come in any order: the refusal of
            # evil's may come after the real board's state.
            _until(
                "evil's refusal on the diagnostics page",
                lambda: (
                    (got := _get(base + "/diagnostics"))[0] == 200
                    and "evil" in got[2]
                    and "fill" in got[2]
                ),
            )
        finally:
            stop(board)
            stop(hub)
