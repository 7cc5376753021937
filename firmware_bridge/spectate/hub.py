"""``tabletop hub``: every board of a club live on one page, from the club's MQTT broker.

A grid of small boards (name, game, scores, turn) that change as moves arrive;
each links to the board's full view. ``/boards.json`` is the round's index and
``/boards/<name>.json`` one board's state and moves, for other spectator software.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from typing import Any
from urllib.parse import quote

import paho.mqtt.client as mqtt

from .club import Board, Club
from .events import Changes
from .mqtt import TOPIC_ROOT, BrokerSettings, topic
from .page import board_page, card_html, card_id, diagnostics_html, hub_page, parts
from .wsgi import Reply, Request, WebApp, html, json_reply, serve


def board_href(name: str) -> str:
    """A board's page, its name quoted for the URL (spaces and all)."""
    return "/board/" + quote(name, safe="")


log = logging.getLogger("tabletop.hub")

RESEND_AFTER_S = 1.0
"""How long a gap in a board's moves may last before the hub asks for them again."""
THREADS = 32
"""Worker threads: 30 pages can stream at once (2 are kept for pages and JSON);
more pages than that get the news every few seconds instead (``events.py``)."""


class Hub:
    """The club as heard on the broker, and the changes the pages wait for.

    Messages arrive on paho's network thread; the pages read on waitress's worker
    threads. The lock guards the club and the per-board changes.
    """

    def __init__(self, broker: BrokerSettings) -> None:
        self.broker = broker
        self.club = Club()
        self.lock = threading.Lock()
        self.changes = Changes()
        self.board_changes: dict[str, Changes] = {}
        self.client = broker.client(f"tabletop-hub-{os.getpid()}")
        self.client.reconnect_delay_set(1, 30)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self._gaps: dict[str, float] = {}
        self.messages = 0
        self._undrawable: set[str] = set()
        """Boards logged as impossible to draw (once each, not at every page)."""
        self._dropped = 0
        """The club's count of boards pushed out, when last looked at."""

    def start(self) -> None:
        self.client.connect_async(self.broker.host, self.broker.port, 30)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        with self.lock:
            every = [self.changes, *self.board_changes.values()]
        for changes in every:
            changes.close()

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if reason.is_failure:
            log.warning("broker %s refused the hub: %s", self.broker.url, reason)
            return
        client.subscribe([(f"{TOPIC_ROOT}/+/{kind}", 1) for kind in ("state", "moves", "board")])

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        # On paho's network thread: an exception here would end the thread, and the hub
        # would never hear a board again. The club refuses bad messages itself; this
        # guard only keeps a fault of the hub's own from silencing it.
        try:
            self._hear(client, message)
        except Exception:
            log.exception("a message on %s could not be taken", message.topic)

    def _hear(self, client: mqtt.Client, message: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.messages += 1
            name = self.club.take(message.topic, message.payload)
            self._forget_dropped()
            if name is None:
                return
            board = self.club.boards[name]
            gap = board.missing()
            now = time.monotonic()
            if gap is not None and now - self._gaps.get(name, 0.0) > RESEND_AFTER_S:
                self._gaps[name] = now
                request = {"from": gap, "journal_game": board.journal_game}
                client.publish(topic(name, "resend"), json.dumps(request), qos=1)
            changes = self.board_changes.setdefault(name, Changes())
        changes.bump()
        self.changes.bump()

    def _forget_dropped(self) -> None:
        """Let go of what the hub kept for boards the club has pushed out."""
        if self.club.dropped == self._dropped:
            return
        self._dropped = self.club.dropped
        for name in [n for n in self.board_changes if n not in self.club.boards]:
            self.board_changes.pop(name).close()
            self._gaps.pop(name, None)
            self._undrawable.discard(name)

    def diagnostics(self) -> dict[str, Any]:
        with self.lock:
            return {"messages": self.messages, **self.club.diagnostics()}

    def changes_of(self, name: str) -> Changes:
        """What a page of board ``name`` waits on: the board's own changes once it has
        been heard of; before that, every change of the club (it may be the board
        appearing). Only boards heard on the broker get a counter of their own, so
        pages asking for made-up names leave nothing behind in a hub up for months."""
        with self.lock:
            return self.board_changes.get(name, self.changes)

    def versions(self) -> dict[str, int]:
        with self.lock:
            return {n: c.version for n, c in self.board_changes.items()}

    # -- what the pages show -------------------------------------------------------
    def cards(self, names: list[str] | None = None) -> dict[str, str]:
        with self.lock:
            boards = self.club.boards
            chosen = sorted(boards) if names is None else [n for n in names if n in boards]
            return {card_id(n): self._card(boards[n]) for n in chosen}

    def _card(self, board: Board) -> str:
        """A board's card in the grid; one whose messages cannot be drawn says so
        rather than taking the whole grid down with it."""
        href = board_href(board.name)
        try:
            return card_html(board.name, board.view, board.geometry, href)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            self._cannot_draw(board.name, exc)
            return card_html(board.name, None, None, href, "cannot be drawn")

    def _cannot_draw(self, name: str, exc: Exception) -> None:
        if name not in self._undrawable:
            self._undrawable.add(name)
            log.warning("board %s sent a state or plan the pages cannot draw: %r", name, exc)

    def board_parts(self, name: str) -> dict[str, str]:
        with self.lock:
            board = self.club.boards.get(name)
            if board is None:
                return parts(None, None, [], f"no board called {name} has been heard of")
            try:
                return parts(board.view, board.geometry, board.move_list())
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                self._cannot_draw(name, exc)
                return parts(None, None, [], f"{name} sent what this hub cannot draw")


def hub_app(hub: Hub, threads: int = THREADS) -> WebApp:
    app: WebApp

    def grid(request: Request) -> Reply:
        cards = hub.cards()
        return html(hub_page("tabletop club", "/events", cards.items()))

    def events(request: Request) -> Reply:
        # The first message carries every card; later ones only those that changed.
        sent: dict[str, int] = {}

        def snapshot() -> dict[str, str]:
            versions = hub.versions()
            todo = [n for n, v in versions.items() if sent.get(n) != v]
            sent.update(versions)
            return hub.cards(todo)

        return app.events(request, hub.changes, snapshot)

    def index(request: Request) -> Reply:
        with hub.lock:
            return json_reply(hub.club.index())

    def board_json(request: Request) -> Reply:
        name = request.params["name"]
        with hub.lock:
            board = hub.club.boards.get(name)
            if board is None:
                return json_reply({"error": f"no board called {name}"}, 404)
            return json_reply(board.record())

    def diagnostics_json(request: Request) -> Reply:
        return json_reply(hub.diagnostics())

    def diagnostics_page(request: Request) -> Reply:
        return html(diagnostics_html(hub.diagnostics()))

    def board_view(request: Request) -> Reply:
        name = request.params["name"]
        now = hub.board_parts(name)
        return html(board_page(f"{name} — tabletop club", f"{board_href(name)}/events", now, "/"))

    def board_events(request: Request) -> Reply:
        name = request.params["name"]
        return app.events(request, hub.changes_of(name), lambda: hub.board_parts(name))

    app = WebApp(
        [
            ("/", grid),
            ("/events", events),
            ("/boards.json", index),
            ("/diagnostics", diagnostics_page),
            ("/diagnostics.json", diagnostics_json),
            ("/boards/{name}.json", board_json),
            ("/board/{name}", board_view),
            ("/board/{name}/events", board_events),
        ],
        threads,
        on_start=[hub.start],
        on_stop=[hub.stop],
    )
    return app


def run_hub(broker: BrokerSettings, listen: str) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    serve(hub_app(Hub(broker)), listen)
    return 0
