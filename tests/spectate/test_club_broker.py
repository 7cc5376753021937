"""``tabletop club init`` run for real, and a real Mosquitto with what it wrote: a board
may speak only for itself, strangers not at all, and the hub hears only the truth."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.spectate.broker_config import hash_password
from tests.spectate.tools import MOSQUITTO, free_port, get_json, need, stop, tabletop, wait_for_port


def _state(**changes: Any) -> bytes:
    state = {
        "journal_game": 1,
        "moves_played": 0,
        "title": "Double Take",
        "seats": ["Red", "Green"],
        "scores": {"Red": 0, "Green": 0},
        "layout": {},
    }
    return json.dumps({**state, **changes}).encode()


@contextlib.contextmanager
def _folder() -> Iterator[Path]:
    """A folder the broker can read after it drops to its own user (pytest's are 0700)."""
    path = Path(tempfile.mkdtemp(prefix="tabletop-club-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path)


class Client:
    def __init__(self, port: int, user: str | None, password: str | None) -> None:
        self.heard: list[tuple[str, bytes]] = []
        self.refused: str | None = None
        self.ready = False
        c = self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"t-{user}-{id(self)}")
        if user is not None:
            c.username_pw_set(user, password)
        c.on_connect = self._connected
        c.on_message = lambda c, u, m: self.heard.append((m.topic, m.payload))
        c.connect("127.0.0.1", port)
        c.loop_start()
        end = time.monotonic() + 10
        while not (self.ready or self.refused) and time.monotonic() < end:
            time.sleep(0.05)

    def _connected(self, c: Any, u: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self.refused = str(reason)
        else:
            self.ready = True

    def publish(self, topic: str, payload: bytes) -> None:
        self.c.publish(topic, payload, qos=1, retain=True).wait_for_publish(10)

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def test_passwords_are_hashed_in_mosquittos_format_with_a_salt_of_their_own() -> None:
    # $7$ITERATIONS$SALT$HASH, base64 (the broker test below logs in with them).
    line = hash_password("secret", bytes(12))
    assert line.startswith("$7$101$AAAAAAAAAAAAAAAA$")
    assert len(line.rsplit("$", 1)[1]) == 88
    assert hash_password("secret") != hash_password("secret")


def test_a_board_cannot_publish_as_another_and_strangers_are_refused() -> None:
    exe = need(MOSQUITTO, "mosquitto")
    port = free_port()
    with _folder() as folder:
        done = subprocess.run(
            [
                *tabletop_cmd(), "club", "init", "--boards", "table-1,table-2",
                "--folder", str(folder), "--listen", f"127.0.0.1:{port}",
            ],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        conf = (folder / "mosquitto.conf").read_text(encoding="utf-8")
        assert "allow_anonymous false" in conf and f"listener {port} 127.0.0.1" in conf
        assert oct((folder / "credentials" / "table-1").stat().st_mode & 0o777) == "0o600"
        password = {
            u: (folder / "credentials" / u).read_text(encoding="utf-8").strip()
            for u in ("table-1", "table-2", "hub")
        }
        broker = subprocess.Popen(
            [exe, "-c", str(folder / "mosquitto.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        web = free_port()
        hub_conf = folder / "hub.toml"
        hub_conf.write_text(
            f'broker = "mqtt://127.0.0.1:{port}"\nusername = "hub"\n'
            'password_file = "credentials/hub"\n',
            encoding="utf-8",
        )
        hub = None
        clients: list[Client] = []
        try:
            wait_for_port(port, 10, broker)
            stranger = Client(port, None, None)
            wrong = Client(port, "table-1", "not its password")
            clients += [stranger, wrong]
            assert stranger.refused and wrong.refused
            hub = tabletop("hub", "--config", str(hub_conf), "--listen", f"127.0.0.1:{web}")
            wait_for_port(web, 30, hub)
            one = Client(port, "table-1", password["table-1"])
            two = Client(port, "table-2", password["table-2"])
            spy = Client(port, "hub", password["hub"])
            clients += [one, two, spy]
            assert one.ready and two.ready and spy.ready
            two.c.subscribe("tabletop/#", 1)
            spy.c.subscribe("tabletop/#", 1)
            time.sleep(0.5)  # the subscriptions reach the broker before the messages
            two.publish("tabletop/table-2/state", _state(moves_played=5))
            one.publish("tabletop/table-1/state", _state(moves_played=3))
            # table-1 speaks as table-2, with a game number far ahead: the broker drops it.
            one.publish("tabletop/table-2/state", _state(journal_game=999_999))
            # The hub's user may read, not write a board's state.
            spy.publish("tabletop/table-1/state", _state(journal_game=999_999))
            end = time.monotonic() + 20
            while time.monotonic() < end:
                index = get_json(f"http://127.0.0.1:{web}/boards.json")
                boards = {b["name"]: b for b in index["boards"]}
                if set(boards) == {"table-1", "table-2"}:
                    break
                time.sleep(0.1)
            assert {n: (b["journal_game"], b["moves_played"]) for n, b in boards.items()} == {
                "table-1": (1, 3),
                "table-2": (1, 5),
            }
            heard = [t for t, p in spy.heard]
            assert heard.count("tabletop/table-2/state") == 1
            assert all(b"999999" not in p for _, p in spy.heard)
            # A board hears no other board.
            assert {t for t, _ in two.heard} <= {"tabletop/table-2/resend"}
        finally:
            for c in clients:
                c.close()
            if hub is not None:
                stop(hub)
            stop(broker)


def tabletop_cmd() -> list[str]:
    return [sys.executable, "-m", "firmware_bridge.apps.cli"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--boards", "a/b"], "cannot use 'a/b'"),
        (["--boards", "t1,t1"], "t1 given twice"),
        (["--boards", "hub"], "hub given twice"),
        (["--boards", "t1"], "give the club's certificates"),
        (["--boards", "t1", "--tls-ca", "/nope"], "all three"),
    ],
)
def test_club_init_refuses_what_it_cannot_set_up(
    args: list[str], message: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [*tabletop_cmd(), "club", "init", "--folder", str(tmp_path / "c"), *args],
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert not (tmp_path / "c" / "passwd").exists()
