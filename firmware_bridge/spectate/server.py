"""``tabletop web``: one board's game live in a browser, served beside the daemon.

One thread follows the journal read-only (``follow.py``), polling a few times a
second; the pages, ``/events``, ``/state.json`` and ``/game.json`` are served by
waitress's worker threads (``wsgi.py``), which read what the follower holds
under its lock. Every open page gets the changed parts of the page pushed by
server-sent events (``events.py``). ``/state.json`` is the ``--json`` projection
now and ``/game.json`` the whole record.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from .events import Changes
from .follow import Follower
from .geometry import Geometry, geometry
from .page import board_page, parts
from .wsgi import Reply, Request, WebApp, html, json_reply, parse_listen, serve

POLL_S = 0.2
THREADS = 8
"""Worker threads: 6 pages can stream at once (2 are kept for pages and JSON);
more pages than that get the state every few seconds instead (``events.py``)."""


class BoardView:
    """What one followed journal shows: the follower, its geometry and its changes.

    ``poll`` is called by one thread; everything else may be called by any worker
    thread. The lock keeps them from seeing the follower half-way through a poll
    (re-entrant: a signal's stop may come while the main thread polls).
    """

    def __init__(self, follower: Follower) -> None:
        self.follower = follower
        self.changes = Changes()
        self.lock = threading.RLock()
        self._geo: Geometry | None = None
        self._geo_game: int | None = None
        self._parts: tuple[int, dict[str, str]] | None = None

    def poll(self) -> bool:
        with self.lock:
            changed = self.follower.poll()
        if changed:
            self.changes.bump()
        return changed

    def close(self) -> None:
        self.changes.close()
        with self.lock:
            self.follower.close()

    def _geometry(self) -> Geometry | None:
        f = self.follower
        if f.game is None:
            return None
        if self._geo is None or self._geo_game != f.game_id:
            self._geo = geometry(f.game)
            self._geo_game = f.game_id
        return self._geo

    def parts(self) -> dict[str, str]:
        """The page's parts now; drawn once per change, however many pages ask."""
        with self.lock:
            f = self.follower
            if self._parts is None or self._parts[0] != f.version:
                try:
                    now = parts(f.view(), self._geometry(), f.moves, f.error)
                except (KeyError, TypeError, ValueError, AttributeError) as exc:
                    # A live file the pages cannot draw: the page says so, and stays up.
                    now = parts(None, None, [], f"the board's state cannot be drawn: {exc!r}")
                self._parts = (f.version, now)
            return self._parts[1]

    def title(self) -> str:
        with self.lock:
            view = self.follower.view()
        return "tabletop" if view is None else f"{view['title']} — tabletop"

    def state(self) -> dict[str, Any] | None:
        with self.lock:
            return self.follower.state()

    def record(self) -> dict[str, Any] | None:
        with self.lock:
            return self.follower.record()

    def error(self) -> str:
        with self.lock:
            return self.follower.error or "no game yet"


class Poller(threading.Thread):
    """Polls the board's journal every ``poll_s`` seconds until stopped."""

    def __init__(self, board: BoardView, poll_s: float) -> None:
        super().__init__(name="tabletop-follow", daemon=True)
        self.board = board
        self.poll_s = poll_s
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.wait(self.poll_s):
            self.board.poll()

    def stop(self) -> None:
        self.stopping.set()
        if self.is_alive():
            self.join()


def web_app(board: BoardView, poll_s: float = POLL_S, threads: int = THREADS) -> WebApp:
    app: WebApp

    def page(request: Request) -> Reply:
        return html(board_page(board.title(), "events", board.parts()))

    def events(request: Request) -> Reply:
        return app.events(request, board.changes, board.parts)

    def state(request: Request) -> Reply:
        now = board.state()
        return json_reply({"error": board.error()}, 404) if now is None else json_reply(now)

    def game(request: Request) -> Reply:
        record = board.record()
        return json_reply({"error": board.error()}, 404) if record is None else json_reply(record)

    poller = Poller(board, poll_s)

    def start() -> None:
        board.poll()
        poller.start()

    def stop() -> None:
        poller.stop()
        board.close()

    app = WebApp(
        [("/", page), ("/events", events), ("/state.json", state), ("/game.json", game)],
        threads,
        on_start=[start],
        on_stop=[stop],
    )
    return app


def run_web(journal: Path, listen: str) -> int:
    parse_listen(listen)
    serve(web_app(BoardView(Follower(journal))), listen)
    return 0
