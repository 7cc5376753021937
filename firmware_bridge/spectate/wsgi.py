"""The spectators' web server: routes, replies, and serving them with waitress.

A small WSGI application served by waitress, a threaded server in pure Python:
it needs no event loop and no ``asyncio`` (which loads OpenSSL), so the view
stays small beside the daemon. Each request runs on one of a fixed number of
worker threads; a page's event stream keeps its thread while the page is open
(``events.py`` says what happens when more pages come than there are threads).
SIGTERM and Ctrl-C end every stream and stop the server cleanly.
"""

from __future__ import annotations

import json
import re
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from types import FrameType
from typing import Any

from msgspec import Struct, field

from .events import Changes, StreamSlots, stream, stream_headers
from .page import SCRIPT, STYLE

Environ = dict[str, Any]
StartResponse = Callable[[str, list[tuple[str, str]]], Any]

RESERVED_THREADS = 2
"""Worker threads never given to event streams: the pages and the JSON always get one."""

REQUEST_S = 10
"""A request must arrive whole within this many seconds of its first byte: a client
sending its headers a line at a time is cut off, however often it sends one."""
IDLE_S = 30
"""A connection with no request in progress is closed after this long without a byte."""
PER_ADDRESS = 32
"""Connections one client address may hold open at once (the hub's pages stream
on 30 at most); more are closed at once, so one address cannot use up the server."""
CONNECTIONS = 512
"""Connections open at once, all addresses together."""
PRESSURE = CONNECTIONS // 4
"""Beyond this many connections open at once the server is under pressure: an idle
connection is then closed after ``IDLE_UNDER_PRESSURE_S`` instead of ``IDLE_S``, so that
many addresses holding idle connections cannot keep a real page waiting for a slot."""
IDLE_UNDER_PRESSURE_S = 1.0
MAX_BODY = 16 * 1024
"""Bytes of a request's body, at most: every route is a GET; a larger body is answered
413 at once, never read into memory or spooled to disk."""
OUT_HIGH_WATER = 1024 * 1024
"""Bytes waiting to go to one client before its stream waits for it (a client that
never reads costs at most this much, in memory, until it is closed as idle)."""

SECURITY_HEADERS = (
    # No inline script, no inline style, no frames, nothing from elsewhere: the page's
    # only script is /app.js and its only style sheet /app.css, so markup a board slipped
    # into a page could neither run, restyle it, nor frame another page.
    (
        "Content-Security-Policy",
        "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "style-src 'self'; frame-src 'none'; child-src 'none'; object-src 'none'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
)

_REASONS = {200: "OK", 404: "Not Found", 405: "Method Not Allowed", 503: "Service Unavailable"}


class Reply(Struct, frozen=True):
    status: int
    body: bytes | Iterable[bytes]
    headers: list[tuple[str, str]] = field(default_factory=list)


def html(text: str, status: int = 200) -> Reply:
    return Reply(status, text.encode(), [("Content-Type", "text/html; charset=utf-8")])


def json_reply(data: Any, status: int = 200) -> Reply:
    body = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return Reply(status, body.encode(), [("Content-Type", "application/json")])


def plain(text: str, status: int) -> Reply:
    return Reply(status, text.encode(), [("Content-Type", "text/plain; charset=utf-8")])


class Request(Struct, frozen=True):
    environ: Environ
    params: dict[str, str]

    def gone(self) -> bool:
        """Whether the browser has closed the connection (waitress tells)."""
        check = self.environ.get("waitress.client_disconnected")
        return bool(check()) if check is not None else False


Handler = Callable[[Request], Reply]


def _pattern(route: str) -> re.Pattern[str]:
    """``/board/{name}`` as a regular expression; a ``{name}`` is one path segment."""
    out = ""
    for i, piece in enumerate(re.split(r"\{(\w+)\}", route)):
        out += f"(?P<{piece}>[^/]+)" if i % 2 else re.escape(piece)
    return re.compile(out)


class WebApp:
    """Routes to handlers, the worker threads to serve them with, and start/stop hooks."""

    def __init__(
        self,
        routes: Sequence[tuple[str, Handler]],
        threads: int,
        on_start: Sequence[Callable[[], None]] = (),
        on_stop: Sequence[Callable[[], None]] = (),
    ) -> None:
        routes = [*routes, ("/app.js", _script), ("/app.css", _style)]
        self.routes = [(_pattern(route), handler) for route, handler in routes]
        self.threads = threads
        self.slots = StreamSlots(max(1, threads - RESERVED_THREADS))
        self.stopping = threading.Event()
        self._on_start = list(on_start)
        self._on_stop = list(on_stop)

    def start(self) -> None:
        for hook in self._on_start:
            hook()

    def stop(self) -> None:
        """End every stream and run the stop hooks (once)."""
        if self.stopping.is_set():
            return
        self.stopping.set()
        for hook in self._on_stop:
            hook()

    def events(
        self, request: Request, changes: Changes, snapshot: Callable[[], dict[str, str]]
    ) -> Reply:
        """A page's event stream: ``snapshot()`` now and after every change."""

        def gone() -> bool:
            return self.stopping.is_set() or request.gone()

        return Reply(200, stream(changes, snapshot, self.slots, gone), stream_headers())

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        # WSGI hands the path over as latin-1; browsers send UTF-8.
        path = environ.get("PATH_INFO", "").encode("latin-1").decode("utf-8", "replace")
        reply = plain("Not Found", 404)
        for pattern, handler in self.routes:
            found = pattern.fullmatch(path)
            if found is None:
                continue
            if environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
                reply = handler(Request(environ, found.groupdict()))
            else:
                reply = plain("Method Not Allowed", 405)
                reply.headers.append(("Allow", "GET, HEAD"))
            break
        headers = [*reply.headers, *SECURITY_HEADERS]
        body = reply.body
        if isinstance(body, bytes):
            headers = [*headers, ("Content-Length", str(len(body)))]
        start_response(f"{reply.status} {_REASONS.get(reply.status, '')}".strip(), headers)
        if environ.get("REQUEST_METHOD") == "HEAD":
            return []
        return [body] if isinstance(body, bytes) else body


def _script(request: Request) -> Reply:
    return Reply(200, SCRIPT.encode(), [("Content-Type", "text/javascript; charset=utf-8")])


def _style(request: Request) -> Reply:
    return Reply(200, STYLE.encode(), [("Content-Type", "text/css; charset=utf-8")])


def parse_listen(text: str, option: str = "--listen") -> tuple[str, int]:
    """``HOST:PORT`` (or ``:PORT`` for 127.0.0.1) as a host and a port number;
    ``option`` names the flag it came from in the error."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(
            f"{option} {text!r} should look like HOST:PORT, e.g. 127.0.0.1:8080 "
            "(0.0.0.0:8080 to let the whole network watch)"
        )
    return (host.strip("[]") or "127.0.0.1"), int(port)


def serve(app: WebApp, listen: str) -> None:
    """Run ``app`` on ``HOST:PORT`` until SIGTERM or Ctrl-C."""
    from waitress.server import create_server

    host, port = parse_listen(listen)
    try:
        server = create_server(
            app,
            host=host,
            port=port,
            threads=app.threads,
            # Keep reading each connection, so a stream notices its page has gone.
            channel_request_lookahead=1,
            ident="tabletop",
            connection_limit=CONNECTIONS,
            channel_timeout=IDLE_S,
            cleanup_interval=5,
            max_request_body_size=MAX_BODY,
            outbuf_high_watermark=OUT_HIGH_WATER,
            # Never spooled to a temporary file below the high-water mark.
            outbuf_overflow=2 * OUT_HIGH_WATER,
        )
        server.channel_class = guarded_channel()
    except OSError as exc:
        raise RuntimeError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another port "
            "or stop what uses it"
        ) from None
    except ValueError:
        raise RuntimeError(
            f"cannot listen on {host}:{port}: no such address; give one of this computer's "
            "addresses, e.g. 127.0.0.1:8080, or 0.0.0.0:8080 for every network"
        ) from None

    interrupted: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        interrupted.append(signum)
        app.stop()
        raise KeyboardInterrupt

    main = threading.current_thread() is threading.main_thread()
    before = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)} if main else {}
    try:
        app.start()
        # Returns when a signal's KeyboardInterrupt ends its loop; waitress then waits
        # for the worker threads, which the ended streams have let go.
        server.run()
    finally:
        app.stop()
        server.close()
        for sig, handler in before.items():
            signal.signal(sig, handler)
    if signal.SIGINT in interrupted:
        raise KeyboardInterrupt  # Ctrl-C ends as every command's interruption does


def guarded_channel() -> type:
    """Waitress's connection, with a deadline for each request and a limit per address.

    Waitress closes a connection only after ``channel_timeout`` without a byte, so a
    client sending one header line every few seconds could hold a connection for
    ever, and 100 of them (waitress's limit) would shut everyone else out.
    """
    from waitress.channel import HTTPChannel

    class GuardedChannel(HTTPChannel):  # type: ignore[misc]
        began: float | None = None
        """When the request being received sent its first byte."""

        def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
            super().__init__(server, sock, addr, adj, map)
            host = addr[0] if isinstance(addr, tuple) else addr
            same = sum(
                1
                for ch in list(server.active_channels.values())
                if isinstance(ch.addr, tuple) and ch.addr[0] == host
            )
            if same > PER_ADDRESS:
                self.will_close = True

        def received(self, data: bytes) -> bool:
            if self.request is None and data:
                self.began = time.monotonic()
            done = bool(super().received(data))
            if self.request is None:
                self.began = None
            return done

        def readable(self) -> bool:
            if self.began is not None and time.monotonic() - self.began > REQUEST_S:
                self.will_close = True  # writable() now says so, and the loop closes it
            elif (
                self.request is None
                and not self.requests
                and not self.total_outbufs_len
                and len(self.server.active_channels) > PRESSURE
                and time.time() - self.last_activity > IDLE_UNDER_PRESSURE_S
            ):
                self.will_close = True  # idle while others wait for a slot
            return bool(super().readable())

    return GuardedChannel
