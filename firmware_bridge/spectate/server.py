"""``tabletop web``: one board's game live in a browser, served beside the daemon.

A Starlette app run by uvicorn. It follows the journal read-only (``follow.py``),
polling a few times a second, and pushes the changed parts of the page to every
open page by server-sent events. ``/state.json`` is the ``--json`` projection now
and ``/game.json`` the whole record.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from .follow import Follower
from .geometry import Geometry, geometry
from .page import board_page, parts

POLL_S = 0.2
KEEPALIVE_S = 15.0
DEFAULT_LISTEN = "127.0.0.1:8080"


class Changes:
    """A version number, and a way to wait until it moves on. Used on the event loop only."""

    def __init__(self) -> None:
        self.version = 0
        self._event = asyncio.Event()

    def bump(self) -> None:
        self.version += 1
        self._event.set()
        self._event = asyncio.Event()

    async def wait(self, seen: int, timeout: float) -> None:
        if self.version != seen:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._event.wait(), timeout)


def event_stream(
    request: Request, changes: Changes, snapshot: Callable[[], dict[str, Any]]
) -> StreamingResponse:
    """Server-sent events: the snapshot now, then again after every change."""

    async def stream() -> AsyncIterator[str]:
        seen = -1
        while not await request.is_disconnected():
            if changes.version != seen:
                seen = changes.version
                data = json.dumps({"version": seen, "parts": snapshot()}, separators=(",", ":"))
                yield f"data: {data}\n\n"
            else:
                yield ": still here\n\n"
            await changes.wait(seen, KEEPALIVE_S)

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``:PORT`` for 127.0.0.1) as a host and a port number."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(
            f"--listen {text!r} should look like HOST:PORT, e.g. 127.0.0.1:8080 "
            "(0.0.0.0:8080 to let the whole network watch)"
        )
    return (host.strip("[]") or "127.0.0.1"), int(port)


class BoardView:
    """What one followed journal shows: the follower, its geometry and its change count."""

    def __init__(self, follower: Follower) -> None:
        self.follower = follower
        self.changes = Changes()
        self._geo: Geometry | None = None
        self._geo_game: int | None = None

    def poll(self) -> bool:
        changed = self.follower.poll()
        if changed:
            self.changes.bump()
        return changed

    def geometry(self) -> Geometry | None:
        f = self.follower
        if f.game is None:
            return None
        if self._geo is None or self._geo_game != f.game_id:
            self._geo = geometry(f.game)
            self._geo_game = f.game_id
        return self._geo

    def parts(self) -> dict[str, str]:
        f = self.follower
        return parts(f.view(), self.geometry(), f.moves, f.error)

    def title(self) -> str:
        view = self.follower.view()
        return "tabletop" if view is None else f"{view['title']} — tabletop"


def web_app(board: BoardView, poll_s: float = POLL_S) -> Starlette:
    async def page(request: Request) -> Response:
        return HTMLResponse(board_page(board.title(), "events", board.parts()))

    async def events(request: Request) -> Response:
        return event_stream(request, board.changes, board.parts)

    async def state(request: Request) -> Response:
        now = board.follower.state()
        if now is None:
            return JSONResponse({"error": board.follower.error or "no game yet"}, 404)
        return JSONResponse(now)

    async def game(request: Request) -> Response:
        record = board.follower.record()
        if record is None:
            return JSONResponse({"error": board.follower.error or "no game yet"}, 404)
        return JSONResponse(record)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def follow() -> None:
            while True:
                board.poll()
                await asyncio.sleep(poll_s)

        board.poll()
        task = asyncio.create_task(follow())
        try:
            yield
        finally:
            task.cancel()
            board.follower.close()

    return Starlette(
        routes=[
            Route("/", page),
            Route("/events", events),
            Route("/state.json", state),
            Route("/game.json", game),
        ],
        lifespan=lifespan,
    )


def serve(app: Starlette, listen: str) -> None:
    """Run ``app`` on ``HOST:PORT`` until interrupted."""
    import uvicorn

    host, port = parse_listen(listen)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=1,
        lifespan="on",
        # Server-sent events only: no websocket library to load.
        ws="none",
    )
    try:
        uvicorn.Server(config).run()
    except OSError as exc:
        raise RuntimeError(f"cannot listen on {host}:{port}: {exc.strerror}") from exc


def run_web(journal: Path, listen: str) -> int:
    parse_listen(listen)
    serve(web_app(BoardView(Follower(journal))), listen)
    return 0
