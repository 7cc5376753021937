"""Slow clients against the real ``tabletop web`` and ``tabletop hub``: 200 half-open
connections from one address never shut another address out, and a request sent a
header line at a time is cut off."""

from __future__ import annotations

import contextlib
import select
import socket
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.spectate.wsgi import PER_ADDRESS, REQUEST_S
from tests.spectate.tools import free_port, stop, tabletop, wait_for_port

ATTACKER = "127.0.0.2"
"""Another loopback address: Linux answers on all of 127.0.0.0/8."""


@contextlib.contextmanager
def half_open(port: int, count: int) -> Iterator[list[socket.socket]]:
    """``count`` connections from ATTACKER, each with a request begun and never ended."""
    socks: list[socket.socket] = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind((ATTACKER, 0))
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            socks.append(s)
        yield socks
    finally:
        for s in socks:
            s.close()


def _closed(s: socket.socket) -> bool:
    """Whether the server has closed ``s`` (never blocks)."""
    ready, _, _ = select.select([s], [], [], 0)
    if not ready:
        return False
    try:
        return s.recv(4096) == b""
    except OSError:
        return True


def _page(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
        r.read()
        return int(r.status)


def _until(check: object, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.2)
    return False


@pytest.mark.parametrize("command", [pytest.param("web", marks=pytest.mark.slow), "hub"])
def test_two_hundred_half_open_connections_leave_the_page_to_others(
    command: str, tmp_path: Path
) -> None:
    port = free_port()
    source = (
        ["--journal", str(tmp_path / "none.sqlite")]
        if command == "web"
        else ["--broker", f"mqtt://127.0.0.1:{free_port()}"]
    )
    server = tabletop(command, *source, "--listen", f"127.0.0.1:{port}")
    try:
        wait_for_port(port, 30, server)
        with half_open(port, 200) as socks:
            assert _page(port) == 200
            # Beyond its share, an address's connections are closed at once.
            assert _until(lambda: sum(map(_closed, socks)) >= 200 - PER_ADDRESS, 10)
            assert _page(port) == 200
            if command == "web":
                # A header line every second does not keep a request open past its deadline.
                end = time.monotonic() + REQUEST_S + 10
                while time.monotonic() < end and not all(map(_closed, socks)):
                    for s in socks:
                        with contextlib.suppress(OSError):
                            s.sendall(b"X-Slow: 1\r\n")
                    time.sleep(1)
                assert all(map(_closed, socks))
    finally:
        stop(server)
