"""``tabletop hub``: every board of a club live on one page, from the club's MQTT broker.

A grid of small boards (name, game, scores, turn) that change as moves arrive;
each links to the board's full view. ``/boards.json`` is the round's index and
``/boards/<name>.json`` one board's state and moves, for other spectator software.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import paho.mqtt.client as mqtt
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from .club import Club
from .mqtt import TOPIC_ROOT, BrokerSettings, topic
from .page import board_page, card_html, card_id, hub_page, parts
from .server import Changes, event_stream, serve

log = logging.getLogger("tabletop.hub")

RESEND_AFTER_S = 1.0
"""How long a gap in a board's moves may last before the hub asks for them again."""


class Hub:
    """The club as heard on the broker, and the changes the pages wait for."""

    def __init__(self, broker: BrokerSettings) -> None:
        self.broker = broker
        self.club = Club()
        self.lock = threading.Lock()
        self.changes = Changes()
        self.board_changes: dict[str, Changes] = {}
        self.changed: set[str] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.client = broker.client(f"tabletop-hub-{os.getpid()}")
        self.client.reconnect_delay_set(1, 30)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self._gaps: dict[str, float] = {}
        self.messages = 0

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.client.connect_async(self.broker.host, self.broker.port, 30)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if reason.is_failure:
            log.warning("broker %s refused the hub: %s", self.broker.url, reason)
            return
        client.subscribe([(f"{TOPIC_ROOT}/+/{kind}", 1) for kind in ("state", "moves", "board")])

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.messages += 1
            name = self.club.take(message.topic, message.payload)
            if name is None:
                return
            board = self.club.boards[name]
            gap = board.missing()
            now = time.monotonic()
            if gap is not None and now - self._gaps.get(name, 0.0) > RESEND_AFTER_S:
                self._gaps[name] = now
                request = {"from": gap, "journal_game": board.journal_game}
                client.publish(topic(name, "resend"), json.dumps(request), qos=1)
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._changed, name)

    def _changed(self, name: str) -> None:
        self.changed.add(name)
        self.changes.bump()
        self.board_changes.setdefault(name, Changes()).bump()

    # -- what the pages show -------------------------------------------------------
    def cards(self, names: list[str] | None = None) -> dict[str, str]:
        with self.lock:
            boards = self.club.boards
            chosen = sorted(boards) if names is None else [n for n in names if n in boards]
            return {
                card_id(n): card_html(n, boards[n].view, boards[n].geometry, f"/board/{n}")
                for n in chosen
            }

    def board_parts(self, name: str) -> dict[str, str]:
        with self.lock:
            board = self.club.boards.get(name)
            if board is None:
                return parts(None, None, [], f"no board called {name} has been heard of")
            return parts(board.view, board.geometry, board.move_list())


def hub_app(hub: Hub) -> Starlette:
    async def grid(request: Request) -> Response:
        cards = hub.cards()
        return HTMLResponse(hub_page("tabletop club", "/events", cards.items()))

    async def events(request: Request) -> Response:
        # The first message carries every card; later ones only those that changed.
        sent: dict[str, int] = {}

        def snapshot() -> dict[str, str]:
            versions = {n: c.version for n, c in hub.board_changes.items()}
            todo = [n for n, v in versions.items() if sent.get(n) != v]
            sent.update(versions)
            return hub.cards(todo)

        return event_stream(request, hub.changes, snapshot)

    async def index(request: Request) -> Response:
        with hub.lock:
            return JSONResponse(hub.club.index())

    async def board_json(request: Request) -> Response:
        name = request.path_params["name"]
        with hub.lock:
            board = hub.club.boards.get(name)
            if board is None:
                return JSONResponse({"error": f"no board called {name}"}, 404)
            return JSONResponse(board.record())

    async def board_view(request: Request) -> Response:
        name = request.path_params["name"]
        now = hub.board_parts(name)
        return HTMLResponse(
            board_page(f"{name} — tabletop club", f"/board/{name}/events", now, "/")
        )

    async def board_events(request: Request) -> Response:
        name = request.path_params["name"]
        changes = hub.board_changes.setdefault(name, Changes())
        return event_stream(request, changes, lambda: hub.board_parts(name))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start(asyncio.get_running_loop())
        try:
            yield
        finally:
            hub.stop()

    return Starlette(
        routes=[
            Route("/", grid),
            Route("/events", events),
            Route("/boards.json", index),
            Route("/boards/{name}.json", board_json),
            Route("/board/{name}", board_view),
            Route("/board/{name}/events", board_events),
        ],
        lifespan=lifespan,
    )


def run_hub(broker: BrokerSettings, listen: str) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    serve(hub_app(Hub(broker)), listen)
    return 0
