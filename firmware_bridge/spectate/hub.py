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

from .club import Club
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
DRAW_EVERY_S = 0.5
"""A board's card is drawn at most this often: a board sending ten states a second
costs the hub two drawings a second, and the others' cards are drawn in between."""
MAX_CARD_CELLS = 450
"""Cells of a plan drawn small in the grid (twice the largest board, 15 × 15); a plan
with more is shown on its card in words only, and whole on the board's own page."""
MAX_CARD_BYTES = 192 * 1024
"""A card's drawn size, at most: a full Crosslet board draws to about 148 KB. A card
that would be larger is shown without its board."""
THREADS = 32
"""Worker threads: 30 pages can stream at once (2 are kept for pages and JSON);
more pages than that get the news every few seconds instead (``events.py``)."""


class Hub:
    """The club as heard on the broker, each board's card drawn, and the changes the
    pages wait for.

    Messages arrive on paho's network thread, which parses and checks them outside
    the lock and takes the lock only to file them. Cards are drawn by a thread of
    their own (:meth:`_draw_loop`), once per change whatever the number of pages,
    at most every ``DRAW_EVERY_S`` for one board, outside the lock; the pages and
    their streams get the drawn cards. The lock guards the club, the drawn cards and
    the per-board changes.
    """

    def __init__(self, broker: BrokerSettings) -> None:
        self.broker = broker
        self.club = Club()
        if broker.username:
            self.club.reserved.add(broker.username)
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
        self.drawn: dict[str, tuple[int, str]] = {}
        """Each board's card as last drawn, with its version (goes up at every drawing)."""
        self.draws = 0
        self._wake = threading.Condition()
        self._due: dict[str, float] = {}
        """Boards changed since last drawn, and when each may be drawn (monotonic)."""
        self._last_drawn: dict[str, float] = {}
        self._stopping = False
        self._drawer: threading.Thread | None = None
        self._page_lock = threading.Lock()
        self._pages: dict[str, tuple[int, dict[str, str]]] = {}
        """Each board's page parts, drawn for the version of its card they were drawn at."""

    def start(self) -> None:
        self._drawer = threading.Thread(target=self._draw_loop, name="hub-drawer", daemon=True)
        self._drawer.start()
        self.client.connect_async(self.broker.host, self.broker.port, 30)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        with self._wake:
            self._stopping = True
            self._wake.notify_all()
        if self._drawer is not None:
            self._drawer.join(5)
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
        topic_name, payload = message.topic, message.payload
        with self.lock:
            self.messages += 1
            name = self.club.admit(topic_name, payload)
        if name is None:
            return
        checked = self.club.check(name, topic_name, payload)  # the costly part, unlocked
        with self.lock:
            taken = self.club.apply(checked, name)
            self._forget_dropped()
            if taken is None:
                return
            board = self.club.boards[taken]
            gap = board.missing()
            now = time.monotonic()
            if gap is not None and now - self._gaps.get(taken, 0.0) > RESEND_AFTER_S:
                self._gaps[taken] = now
                request = {"from": gap, "journal_game": board.journal_game}
                client.publish(topic(taken, "resend"), json.dumps(request), qos=1)
        self._changed(taken)

    def _changed(self, name: str) -> None:
        """Board ``name`` changed: draw it as soon as its quota of drawings allows."""
        with self._wake:
            if name not in self._due:
                since = self._last_drawn.get(name)
                now = time.monotonic()
                self._due[name] = now if since is None else max(now, since + DRAW_EVERY_S)
                self._wake.notify()

    def _forget_dropped(self) -> None:
        """Let go of what the hub kept for boards the club has pushed out."""
        if self.club.dropped == self._dropped:
            return
        self._dropped = self.club.dropped
        for name in [n for n in self.board_changes if n not in self.club.boards]:
            self.board_changes.pop(name).close()
        for name in [n for n in self.drawn if n not in self.club.boards]:
            del self.drawn[name]
        for name in [n for n in self._gaps if n not in self.club.boards]:
            self._gaps.pop(name, None)
            self._undrawable.discard(name)
        with self._wake:
            for name in [n for n in self._last_drawn if n not in self.club.boards]:
                del self._last_drawn[name]

    # -- drawing -------------------------------------------------------------------
    def _next_due(self) -> str | None:
        """The board to draw next (the one waiting longest), waiting for one; None on stop."""
        with self._wake:
            while not self._stopping:
                if self._due:
                    name, when = min(self._due.items(), key=lambda kv: kv[1])
                    wait = when - time.monotonic()
                    if wait <= 0:
                        del self._due[name]
                        return name
                    self._wake.wait(wait)
                else:
                    self._wake.wait()
            return None

    def _draw_loop(self) -> None:
        while (name := self._next_due()) is not None:
            try:
                self.draw(name)
            except Exception:
                log.exception("the card of %s could not be drawn", name)

    def draw_all(self) -> None:
        """Draw every board's card now (what the drawing thread does as they change)."""
        with self.lock:
            names = list(self.club.boards)
        for name in names:
            self.draw(name)

    def draw(self, name: str) -> None:
        """Draw board ``name``'s card outside the lock, then file it and tell the pages."""
        with self.lock:
            board = self.club.boards.get(name)
            if board is None:
                return
            state, plan, game = board.state, board.plan, board.journal_game
            small = board.plan_cells <= MAX_CARD_CELLS
        with self._wake:
            self._last_drawn[name] = time.monotonic()
        # A plan too big to draw small is not even parsed: its card is drawn in words.
        card = self._card(name, state, plan[1] if plan and plan[0] == game and small else None)
        with self.lock:
            if name not in self.club.boards:
                return
            self.draws += 1
            version = self.drawn.get(name, (0, ""))[0] + 1
            self.drawn[name] = (version, card)
            changes = self.board_changes.setdefault(name, Changes())
        changes.bump()
        self.changes.bump()

    def _card(self, name: str, state: bytes | None, plan: bytes | None) -> str:
        """A board's card in the grid, within its drawn size; one whose messages cannot
        be drawn says so rather than taking the whole grid down with it."""
        href = board_href(name)
        try:
            view = None if state is None else json.loads(state)
            geo = None if plan is None else json.loads(plan)["geometry"]
            if geo is not None and len(geo["cells"]) > MAX_CARD_CELLS:
                return card_html(name, view, None, href)
            card = card_html(name, view, geo, href)
            if len(card) > MAX_CARD_BYTES:
                return card_html(name, view, None, href)
            return card
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            self._cannot_draw(name, exc)
            return card_html(name, None, None, href, "cannot be drawn")

    def _cannot_draw(self, name: str, exc: Exception) -> None:
        if name not in self._undrawable:
            self._undrawable.add(name)
            log.warning("board %s sent a state or plan the pages cannot draw: %r", name, exc)

    def diagnostics(self) -> dict[str, Any]:
        with self.lock:
            return {"messages": self.messages, "draws": self.draws, **self.club.diagnostics()}

    def changes_of(self, name: str) -> Changes:
        """What a page of board ``name`` waits on: the board's own changes once it has
        been heard of; before that, every change of the club (it may be the board
        appearing). Only boards heard on the broker get a counter of their own, so
        pages asking for made-up names leave nothing behind in a hub up for months."""
        with self.lock:
            return self.board_changes.get(name, self.changes)

    def versions(self) -> dict[str, int]:
        """Each board's card version (it goes up each time the card is drawn)."""
        with self.lock:
            return {n: v for n, (v, _) in self.drawn.items()}

    # -- what the pages show -------------------------------------------------------
    def cards(self, names: list[str] | None = None) -> dict[str, str]:
        """The cards as drawn (a board heard of but not drawn yet is waited for)."""
        with self.lock:
            boards = self.club.boards
            chosen = sorted(boards) if names is None else [n for n in names if n in boards]
            return {
                card_id(n): self.drawn[n][1]
                if n in self.drawn
                else card_html(n, None, None, board_href(n))
                for n in chosen
            }

    def board_parts(self, name: str) -> dict[str, str]:
        """Board ``name``'s page: drawn once for each drawing of its card, outside the
        lock the network thread needs, however many pages ask."""
        with self._page_lock:
            with self.lock:
                board = self.club.boards.get(name)
                if board is None:
                    return parts(None, None, [], f"no board called {name} has been heard of")
                version = self.drawn.get(name, (0, ""))[0]
                kept = self._pages.get(name)
                if kept is not None and kept[0] == version:
                    return kept[1]
                state, plan, game = board.state, board.plan, board.journal_game
                moves = [board.moves[n] for n in sorted(board.moves)]
            try:
                view = None if state is None else json.loads(state)
                geo = json.loads(plan[1])["geometry"] if plan and plan[0] == game else None
                now = parts(view, geo, [json.loads(m) for m in moves])
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                self._cannot_draw(name, exc)
                now = parts(None, None, [], f"{name} sent what this hub cannot draw")
            self._pages[name] = (version, now)
            for gone in [n for n in self._pages if n not in self.club.boards]:
                del self._pages[gone]
            return now


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
            facts = hub.club.index()
        return json_reply(facts)

    def board_json(request: Request) -> Reply:
        name = request.params["name"]
        with hub.lock:
            board = hub.club.boards.get(name)
            if board is None:
                return json_reply({"error": f"no board called {name}"}, 404)
            kept = (board.index_entry(), board.state, [board.moves[n] for n in sorted(board.moves)])
        entry, state, moves = kept
        view = None if state is None else json.loads(state)
        return json_reply({**entry, "view": view, "moves": [json.loads(m) for m in moves]})

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
