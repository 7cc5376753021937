"""One board's connection to the club's broker for a game played with another board.

The session persists (MQTT ``clean_session`` off, a client id fixed by the board's
name and role), so the broker keeps the board's subscriptions and the QoS 1
messages sent to it while it is away; every message is sent with QoS 1. The board
says it is on line in a retained presence message, and its last will says it is
not when the broker loses it.

paho's callbacks run on paho's network thread: they only put what arrived in
:attr:`Link.inbox`, which the board's own thread drains.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from msgspec import Struct
from paho.mqtt.enums import CallbackAPIVersion

from ..spectate.mqtt import BrokerSettings
from ..spectate.publish import LOGIN_REFUSED, refused_login
from . import protocol

log = logging.getLogger("tabletop.remote")

KEEPALIVE_S = 10
"""How often an idle connection is checked: the broker gives a board up (and sends
its last will) after one and a half of these without a word from it."""
BACKOFF_MIN_S = 1
BACKOFF_MAX_S = 10


class Link:
    """The board ``board``'s connection for the game hosted by ``host``."""

    def __init__(
        self,
        broker: BrokerSettings,
        board: str,
        host: str,
        role: str,
        topics: list[str],
        clean: bool = False,
    ) -> None:
        """``clean``: a session the broker forgets when the board leaves (the start
        menu's: an invitation sent while the board was away is not for it now)."""
        self.broker = broker
        self.board = board
        self.host = host
        self.topics = topics
        self.inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"tabletop-remote-{role}-{board}",
            protocol=mqtt.MQTTv311,
            clean_session=clean,
        )
        if broker.username is not None:
            self.client.username_pw_set(broker.username, broker.password)
        if broker.tls:
            self.client.tls_set(
                ca_certs=str(broker.ca_file) if broker.ca_file else None,
                certfile=str(broker.cert_file) if broker.cert_file else None,
                keyfile=str(broker.key_file) if broker.key_file else None,
            )
        gone = protocol.Presence(board=board, online=False)
        self.presence_topic = protocol.presence_topic(host, board)
        self.client.will_set(self.presence_topic, protocol.encode(gone), qos=1, retain=True)
        self.client.reconnect_delay_set(BACKOFF_MIN_S, BACKOFF_MAX_S)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish
        self._lock = threading.Lock()
        self.connected = threading.Event()
        self.refused: str | None = None
        """Why the broker will not take this board's login (nothing is retried then)."""
        self.connects = 0
        """Connections made so far (a new one after the broker was lost)."""
        self.sent_messages = 0
        self.sent_bytes = 0
        self._unacked: set[int] = set()
        """Message ids the broker has not acknowledged yet."""
        self._early: set[int] = set()
        """Acknowledged ids not yet noted as sent (paho may answer first)."""

    def start(self, timeout_s: float = 30.0) -> None:
        """Connect (paho keeps reconnecting afterwards); raise ValueError when the
        broker refuses the login or is not there within ``timeout_s``."""
        self.client.connect_async(self.broker.host, self.broker.port, KEEPALIVE_S)
        self.client.loop_start()
        end = time.monotonic() + timeout_s
        while not self.connected.wait(0.1):
            if self.refused is not None:
                self.stop()
                raise ValueError(self.refused)
            if time.monotonic() > end:
                self.stop()
                raise ValueError(
                    f"the broker {self.broker.url} did not answer within {timeout_s:g} s: "
                    "check --broker and that the broker runs"
                )

    def publish(self, topic: str, message: protocol.Message | Struct, retain: bool = False) -> None:
        """Send ``message`` with QoS 1. Off line, paho keeps it and sends it when the
        broker is back (it has a message id all the same)."""
        data = protocol.encode(message)
        info = self.client.publish(topic, data, qos=1, retain=retain)
        with self._lock:
            self.sent_messages += 1
            self.sent_bytes += len(data)
            if info.mid in self._early:
                self._early.discard(info.mid)  # acknowledged before this line ran
            else:
                self._unacked.add(info.mid)

    def flush(self, timeout_s: float = 10.0) -> bool:
        """Wait up to ``timeout_s`` for the broker to acknowledge everything published."""
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            with self._lock:
                if not self._unacked:
                    return True
            time.sleep(0.02)
        return False

    def stop(self) -> None:
        """Say the board leaves (its presence: off line), then disconnect."""
        if self.connected.is_set():
            gone = protocol.Presence(board=self.board, online=False)
            self.publish(self.presence_topic, gone, retain=True)
            self.flush(5.0)
        self.connected.clear()  # a disconnection asked for is not a lost broker
        self.client.disconnect()
        self.client.loop_stop()

    # -- paho's thread -------------------------------------------------------------
    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if reason.is_failure:
            if reason.value in LOGIN_REFUSED:
                self.refused = refused_login(self.broker, str(reason))
                client.disconnect()
            else:
                log.warning("broker %s refused the connection: %s", self.broker.url, reason)
            return
        for topic in self.topics:
            client.subscribe(topic, qos=1)
        here = protocol.Presence(board=self.board, online=True)
        client.publish(self.presence_topic, protocol.encode(here), qos=1, retain=True)
        with self._lock:
            self.connects += 1
        self.connected.set()

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if self.connected.is_set():
            log.warning("lost the broker %s (%s); reconnecting", self.broker.url, reason)
        self.connected.clear()

    def _on_publish(
        self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, props: Any
    ) -> None:
        with self._lock:
            if mid in self._unacked:
                self._unacked.discard(mid)
            else:
                self._early.add(mid)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self.inbox.put((message.topic, bytes(message.payload)))
