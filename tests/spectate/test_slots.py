"""Connection slots one address family cannot fill for long, and request bodies capped:
20 addresses holding 30 idle connections each against the real ``tabletop hub``, and a
400 MB body announced on a GET."""

from __future__ import annotations

import contextlib
import socket
import time
import urllib.request
from collections.abc import Iterator

from firmware_bridge.spectate.wsgi import IDLE_S, MAX_BODY
from tests.spectate.tools import free_port, stop, tabletop, wait_for_port

ADDRESSES = [f"127.0.0.{n}" for n in range(2, 22)]
"""Twenty loopback addresses (Linux answers on all of 127.0.0.0/8)."""


@contextlib.contextmanager
def idle(port: int, each: int) -> Iterator[list[socket.socket]]:
    socks: list[socket.socket] = []
    try:
        for address in ADDRESSES:
            for _ in range(each):
                s = socket.socket()
                s.bind((address, 0))
                s.settimeout(5)
                s.connect(("127.0.0.1", port))
                socks.append(s)
        yield socks
    finally:
        for s in socks:
            s.close()


def _page_s(port: int) -> float:
    start = time.monotonic()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=IDLE_S / 3) as r:
        assert r.status == 200
        r.read()
    return time.monotonic() - start


def test_600_idle_connections_from_20_addresses_keep_no_page_waiting() -> None:
    port = free_port()
    hub = tabletop("hub", "--broker", f"mqtt://127.0.0.1:{free_port()}", "--listen",
                   f"127.0.0.1:{port}")  # fmt: skip
    try:
        wait_for_port(port, 30, hub)
        with idle(port, 30):
            time.sleep(1.0)  # every one of them accepted or waiting to be
            # Before, a page waited about 30 s (IDLE_S) for an idle connection to time
            # out; each page here must answer within a third of that.
            times = [_page_s(port) for _ in range(3)]
        print(f"page with 600 idle connections from 20 addresses: {times}")
        assert hub.poll() is None
    finally:
        stop(hub)


def test_a_huge_body_on_a_get_is_refused_unread() -> None:
    port = free_port()
    hub = tabletop("hub", "--broker", f"mqtt://127.0.0.1:{free_port()}", "--listen",
                   f"127.0.0.1:{port}")  # fmt: skip
    try:
        wait_for_port(port, 30, hub)
        with socket.create_connection(("127.0.0.1", port), 10) as s:
            s.sendall(
                b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 400000000\r\n\r\n" + b"x" * 65536
            )
            reply = s.recv(200)
        assert reply.startswith(b"HTTP/1.1 413"), reply
        assert MAX_BODY < 65536
        assert hub.poll() is None
    finally:
        stop(hub)
