"""Two boards, one game: how soon a move made at one board is shown on the other's OLED,
and what each move costs on the wire.

Real parts throughout: a private Mosquitto on loopback, and two real ``tabletop sim``
processes (``--host-remote 2=ann`` and ``--join bob``, ``--json``: one state per line,
as each board's OLED changes) playing a whole game, the computer moving each board's
own seats. Each board reaches the broker through a counting TCP relay, so the bytes
are those MQTT puts on the wire (headers, topics, acknowledgements, pings; not TCP/IP's
own headers). Prints, per direction (host → guest, guest → host):

- move-to-OLED latency, median and p95: from the state in which the moving board
  committed move *n* (the move before it made at the other board, which is then idle,
  waiting) to the first state the other board shows after it, the arrived move on its
  OLED; timed by this process as each line arrives (wall clock);
- bytes on the wire per move, each board's sent and received, over the whole game.

    python bench/bench_remote.py [--quick]

``run(quick)``: Double Take, Crosslet and Doubles Wild (seed 1); quick: Double Take.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MOSQUITTO = "/usr/sbin/mosquitto"
GAMES = ("double-take", "crosslet", "doubles-wild")
GAME_TIMEOUT_S = 300.0
LATENCY_TARGET_S = 0.5
"""A move should be on the other board's OLED before its players look up: half a second
on loopback leaves the rest of a second for a club's network."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for_port(port: int, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {timeout} s")


@contextlib.contextmanager
def _mosquitto() -> Iterator[int]:
    if not os.access(MOSQUITTO, os.X_OK):
        raise RuntimeError(f"{MOSQUITTO} is missing: apt-get install mosquitto")
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="bench-remote-") as tmp:
        conf = Path(tmp) / "mosquitto.conf"
        conf.write_text(
            f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n",
            encoding="utf-8",
        )
        proc = subprocess.Popen(
            [MOSQUITTO, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            _wait_for_port(port)
            yield port
        finally:
            proc.terminate()
            proc.wait(10)


class Relay:
    """A TCP relay from a port of its own to the broker, counting the bytes each way."""

    def __init__(self, broker_port: int) -> None:
        self.broker_port = broker_port
        self.up = 0
        """Bytes from the board to the broker."""
        self.down = 0
        """Bytes from the broker to the board."""
        self._lock = threading.Lock()
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.server.getsockname()[1])
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                board, _ = self.server.accept()
            except OSError:
                return
            broker = socket.create_connection(("127.0.0.1", self.broker_port))
            for a, b, up in ((board, broker, True), (broker, board, False)):
                threading.Thread(target=self._pump, args=(a, b, up), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, up: bool) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                with self._lock:
                    if up:
                        self.up += len(data)
                    else:
                        self.down += len(data)
                dst.sendall(data)
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.server.close()


def _board(args: list[str], port: int, lines: list[tuple[float, str]]) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.apps.cli", "sim", *args, "--json",
         "--broker", f"mqtt://127.0.0.1:{port}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append((time.monotonic(), line))

    threading.Thread(target=read, daemon=True).start()
    return proc


def _states(lines: list[tuple[float, str]]) -> list[tuple[float, dict[str, Any]]]:
    out = []
    for at, line in lines:
        with contextlib.suppress(ValueError):
            state = json.loads(line)
            if isinstance(state, dict) and "moves_played" in state:
                out.append((at, state))
    return out


def _committed(states: list[tuple[float, dict[str, Any]]]) -> dict[int, float]:
    """When each move was committed at a board (its first state with that many moves)."""
    out: dict[int, float] = {}
    for at, state in states:
        out.setdefault(int(state["moves_played"]), at)
    return out


def _latencies(
    mover: list[tuple[float, dict[str, Any]]], other: list[tuple[float, dict[str, Any]]]
) -> list[float]:
    """For each move the mover made just after the other board's move: the time from the
    mover's commit to the other board's first state after it (still before that move)."""
    made, seen = _committed(mover), _committed(other)
    out = []
    for n, at in made.items():
        before = made.get(n - 1)
        if n < 2 or before is None or seen.get(n - 1, at) >= before:
            continue  # the move before it was the mover's own: not the other's to wait on
        shown = [t for t, s in other if t >= at and int(s["moves_played"]) == n - 1]
        if shown:
            out.append(shown[0] - at)
    return out


def play(game: str) -> dict[str, Any]:
    """One whole game board to board: the latencies each way, and the bytes each board
    sent and received, per move."""
    with _mosquitto() as port, tempfile.TemporaryDirectory(prefix="bench-remote-") as tmp:
        relays = {name: Relay(port) for name in ("bob", "ann")}
        lines: dict[str, list[tuple[float, str]]] = {"bob": [], "ann": []}
        host = _board(
            ["--game", game, "--host-remote", "2=ann", "--board-name", "bob",
             "--journal", f"{tmp}/bob.sqlite"],
            relays["bob"].port, lines["bob"],
        )  # fmt: skip
        guest = _board(
            ["--join", "bob", "--board-name", "ann", "--journal", f"{tmp}/ann.sqlite"],
            relays["ann"].port, lines["ann"],
        )  # fmt: skip
        try:
            for proc in (host, guest):
                if proc.wait(GAME_TIMEOUT_S) != 0:
                    assert proc.stderr is not None
                    raise RuntimeError(f"a board of the {game} game failed: {proc.stderr.read()}")
            time.sleep(0.2)  # the last lines read
        finally:
            for proc in (host, guest):
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(10)
            for relay in relays.values():
                relay.close()
        bob, ann = _states(lines["bob"]), _states(lines["ann"])
        moves = max(int(s["moves_played"]) for _, s in bob)
        return {
            "moves": moves,
            "host_to_guest": _latencies(bob, ann),
            "guest_to_host": _latencies(ann, bob),
            "host_sent": relays["bob"].up / moves,
            "host_received": relays["bob"].down / moves,
            "guest_sent": relays["ann"].up / moves,
            "guest_received": relays["ann"].down / moves,
        }


def _p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def run(quick: bool) -> list[dict[str, Any]]:
    games = [play(game) for game in (GAMES[:1] if quick else GAMES)]
    figures: list[dict[str, Any]] = []
    for way, words in (("host_to_guest", "host → guest"), ("guest_to_host", "guest → host")):
        every = [s for g in games for s in g[way]]
        figures += [
            {
                "figure": f"move to the other board's OLED, {words}, median",
                "unit": "s",
                "target": LATENCY_TARGET_S,
                "better": "lower",
                "samples": every,
            },
            {
                "figure": f"move to the other board's OLED, {words}, p95",
                "unit": "s",
                "target": LATENCY_TARGET_S,
                "better": "lower",
                "samples": [_p95(g[way]) for g in games],
            },
        ]
    for key, words in (
        ("host_sent", "host board sends"),
        ("host_received", "host board receives"),
        ("guest_sent", "guest board sends"),
        ("guest_received", "guest board receives"),
    ):
        figures.append(
            {
                "figure": f"bytes on the wire a move, the {words}",
                "unit": "B",
                "target": None,
                "better": "lower",
                "samples": [g[key] for g in games],
            }
        )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Double Take only")
    args = parser.parse_args()
    for game in GAMES[:1] if args.quick else GAMES:
        result = play(game)
        print(f"{game}: {result['moves']} moves")
        for way in ("host_to_guest", "guest_to_host"):
            samples = result[way]
            print(
                f"  {way.replace('_', ' ')}: median {statistics.median(samples) * 1000:.1f} ms, "
                f"p95 {_p95(samples) * 1000:.1f} ms, max {max(samples) * 1000:.1f} ms "
                f"({len(samples)} moves)"
            )
        for key in ("host_sent", "host_received", "guest_sent", "guest_received"):
            print(f"  {key.replace('_', ' ')}: {result[key]:.0f} bytes a move")


if __name__ == "__main__":
    main()
