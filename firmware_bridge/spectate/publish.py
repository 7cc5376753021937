"""Publish a board's game to the club's MQTT broker, following its journal.

Topics (``mqtt.topic``), all QoS 1:

- ``tabletop/<board>/state``  retained: the view now (scores, turn, layout, last move…).
- ``tabletop/<board>/moves``  one message per accepted action, numbered from 1.
- ``tabletop/<board>/board``  retained: the board's drawing plan for the current game.
- ``tabletop/<board>/resend`` (subscribed): a hub that missed moves asks for them again.

It runs beside the daemon, never inside it: it reads the journal, so a board with
no network plays on and the publisher catches up when the broker is back. It
counts the moves the broker acknowledged and, after a reconnection (with
back-off), sends again every move after the last acknowledged one.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from . import schema
from .follow import Follower
from .geometry import geometry
from .mqtt import BrokerSettings, check_board_name, topic

log = logging.getLogger("tabletop.publish")
RESEND_BYTES = 256
"""A resend request is a few dozen bytes; anything longer is not one."""

POLL_S = 0.2
KEEPALIVE_S = 30
BACKOFF_MIN_S = 1
BACKOFF_MAX_S = 30


LOGIN_REFUSED = (0x86, 0x87, 4, 5)
"""The CONNACK codes that refuse the login itself: bad user name or password, not
authorized (MQTT 5 reason codes 0x86, 0x87; MQTT 3.1.1 return codes 4, 5)."""


def refused_login(broker: BrokerSettings, reason: str) -> str:
    """What to do when the broker refuses the board's login (never echoing a password)."""
    who = f"the login {broker.username!r}" if broker.username else "a board with no login"
    return (
        f"the broker {broker.url} refused {who} ({reason}): give the board's login that "
        "'tabletop club init' wrote: a club config with username and password_file "
        "(publish --config FILE, sim --club-config FILE), or in the URL, "
        "mqtt://USER:PASSWORD@HOST"
    )


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


class Publisher:
    """Follows one journal and publishes it; ``start`` it, ``stop`` it.

    Only its own thread talks to paho; paho's callbacks (on paho's network thread)
    just note what happened, under a small lock, for that thread to act on.
    """

    def __init__(
        self, journal: Path, broker: BrokerSettings, board: str, poll_s: float = POLL_S
    ) -> None:
        self.board = check_board_name(board)
        self.broker = broker
        self.poll_s = poll_s
        self.follower = Follower(journal, board)
        self.client = broker.client(f"tabletop-{board}-{os.getpid()}")
        self.client.reconnect_delay_set(BACKOFF_MIN_S, BACKOFF_MAX_S)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tabletop-publish", daemon=True)
        self.connected = False
        self._fresh = False
        """Connected again since the last publishing: send the plan, unacknowledged moves."""
        self._resend_from: int | None = None
        self._game: int | None = None
        self._sent = 0
        """Moves handed to paho on this connection."""
        self._acked: set[int] = set()
        self.acked = 0
        """Every move up to this number is acknowledged by the broker."""
        self._inflight: dict[int, int] = {}
        self._early: set[int] = set()
        """Acknowledged message ids not yet known to be moves (paho may answer first)."""
        self.messages = 0
        self.bytes = 0
        self.refused: str | None = None
        """Why the broker will not take this login (set once; nothing is retried then)."""

    # -- life ----------------------------------------------------------------------
    def start(self) -> None:
        self.client.connect_async(self.broker.host, self.broker.port, KEEPALIVE_S)
        self.client.loop_start()
        self._thread.start()

    def stop(self, flush_s: float = 0.0) -> None:
        """Stop; first wait up to ``flush_s`` for the broker to take every move."""
        end = time.monotonic() + flush_s
        while time.monotonic() < end and not self.flushed():
            time.sleep(0.05)
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(5)
        with self._lock:
            self.connected = False  # a disconnection asked for is not a lost broker
        self.client.disconnect()
        self.client.loop_stop()
        self.follower.close()

    def flushed(self) -> bool:
        """Whether the broker has every move the game has had so far."""
        with self._lock:
            return (
                self.connected
                and self._game is not None
                and not self._fresh
                and self.acked >= len(self.follower.moves)
            )

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                changed = self.follower.poll()
                self._publish(changed)
            except Exception:
                log.exception("publishing failed; trying again")
            self._wake.wait(self.poll_s)
            self._wake.clear()

    # -- publishing ------------------------------------------------------------------
    def _send(self, kind: str, payload: Any, retain: bool, n: int = 0) -> None:
        """Publish one message; ``n`` is the move it carries (0 for none)."""
        data = _dumps(payload)
        info = self.client.publish(topic(self.board, kind), data, qos=1, retain=retain)
        self.messages += 1
        self.bytes += len(data)
        with self._lock:
            mid = int(info.mid)
            if mid in self._early:
                self._early.discard(mid)
                if n:
                    self._ack(n)
            else:
                self._inflight[mid] = n
            if n:
                self._sent = n

    def _publish(self, changed: bool) -> None:
        """Send what the broker has not had yet: a new game's plan, new moves, the state."""
        f = self.follower
        view = f.view()
        if view is None or f.game is None:
            return
        with self._lock:
            if not self.connected:
                return
            again = self._fresh
            self._fresh = False
            if f.game_id != self._game:
                self._game = f.game_id
                self._acked, self.acked = set(), 0
                self._inflight, self._early = {}, set()
                self._sent = 0
                again = True
            elif again:
                # Whatever was not acknowledged before is sent again.
                self._sent = self.acked
                self._inflight, self._early = {}, set()
            if self._resend_from is not None:
                self._sent = min(self._sent, self._resend_from - 1)
                self._resend_from = None
            first = self._sent
        if again:
            self._send("board", {"journal_game": f.game_id, "geometry": geometry(f.game)}, True)
        todo = f.moves[first:]
        for move in todo:
            payload = {"board": self.board, "journal_game": f.game_id, **move}
            self._send("moves", payload, False, move["n"])
        if changed or again or todo:
            self._send("state", view, True)

    def _ack(self, n: int) -> None:
        self._acked.add(n)
        while self.acked + 1 in self._acked:
            self.acked += 1
            self._acked.discard(self.acked)

    # -- paho callbacks (its network thread): note, never publish ------------------------
    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if reason.is_failure:
            if reason.value in LOGIN_REFUSED:
                # Retrying cannot help: the login is wrong, not the network.
                with self._lock:
                    self.refused = refused_login(self.broker, str(reason))
                client.disconnect()
                return
            log.warning("broker %s refused the connection: %s", self.broker.url, reason)
            return
        client.subscribe(topic(self.board, "resend"), qos=1)
        with self._lock:
            self.connected = True
            self._fresh = True
        self._wake.set()

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        with self._lock:
            if self.connected:
                log.warning("lost the broker %s (%s); reconnecting", self.broker.url, reason)
            self.connected = False

    def _on_publish(
        self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, props: Any
    ) -> None:
        with self._lock:
            n = self._inflight.pop(mid, None)
            if n is None:
                self._early.add(mid)
            elif n:
                self._ack(n)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            # Checked for size and depth first: a deeply nested message would end
            # paho's thread in the parser, and the board would stop publishing.
            request = schema.load(message.payload, limit=RESEND_BYTES)
            first = int(request["from"])
            game = request.get("journal_game")
        except (ValueError, KeyError, TypeError):
            log.warning("ignoring a bad resend request on %s", message.topic)
            return
        with self._lock:
            if game == self._game and first >= 1:
                self._resend_from = min(first, self._resend_from or first)
        self._wake.set()


def run_publish(journal: Path, broker: BrokerSettings, board: str) -> int:
    """Publish until interrupted."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    publisher = Publisher(journal, broker, board)
    publisher.start()
    try:
        while publisher.refused is None:
            time.sleep(0.2)
    finally:
        publisher.stop()
    raise ValueError(publisher.refused)
