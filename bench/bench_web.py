"""The web view's memory and its processor time while idle.

``tabletop web`` runs beside the daemon on the board's own computer, so what it
holds is taken from the daemon's. This plays a simulated game into a journal,
starts ``tabletop web`` on it, fetches the page, ``/game.json`` and
``/state.json`` (so that everything a visitor causes is loaded), then reads the
process's resident memory (RSS), the part of it no other process shares
(private), and the processor time it takes over a few idle seconds. Then a game
is played into a journal that ``tabletop web`` follows, a move every 0.3 s, and
each move is timed from its commit to the journal to its event reaching an open
page.

The floor under the RSS is the web server itself: a WSGI application of one
page under waitress, with as many worker threads as the view, measured the same
way, is the last figure.

    python bench/bench_web.py [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

RSS_TARGET_MB = 30.0
IDLE_S = 3.0
LATENCY_TARGET_S = 1.0
PACE_S = 0.3
"""Between the moves of the game whose moves are timed to the page."""

HELLO = """
import sys
from waitress import serve

def page(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
    return [b"hello"]

serve(page, host="127.0.0.1", port=int(sys.argv[1]), threads=8)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(port: int, path: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as reply:
                reply.read()
            return
        except OSError:
            if time.monotonic() > end:
                raise RuntimeError(f"nothing answers on port {port}") from None
            time.sleep(0.05)


def _status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1])
    raise RuntimeError(f"/proc/{pid}/status has no {key}")


def _private_kb(pid: int) -> int:
    total = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith(("Private_Clean:", "Private_Dirty:")):
            total += int(line.split()[1])
    return total


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(cmd: list[str], port: int, paths: Sequence[str]) -> dict[str, float]:
    """RSS and private MB of the server ``cmd`` once ``paths`` were fetched, and its
    idle processor time in per cent of a core."""
    with subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as server:
        try:
            for path in paths:
                _get(port, path)
            time.sleep(0.5)
            rss = _status_kb(server.pid, "VmRSS") / 1024
            private = _private_kb(server.pid) / 1024
            before = _cpu_s(server.pid)
            time.sleep(IDLE_S)
            idle = (_cpu_s(server.pid) - before) / IDLE_S * 100
        finally:
            server.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(timeout=10)
            if server.poll() is None:
                server.kill()
    return {"rss": rss, "private": private, "idle": idle}


def _journal(game: str, folder: Path) -> Path:
    from firmware_bridge.sim.runner import SimOptions, Simulation

    path = folder / f"{game}.sqlite"
    sim = Simulation(SimOptions(game=game, seed=4, journal=path))
    try:
        sim.start()
        sim.play_computer()
    finally:
        sim.close()
    return path


class PageReader(threading.Thread):
    """An open page's event stream: when each number of moves first reached it."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", "/events")
        self.reply = self.conn.getresponse()
        self.arrived: dict[int, float] = {}

    def run(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            while line := self.reply.readline():
                if line.startswith(b"data: "):
                    now = time.monotonic()
                    moves = json.loads(line[6:])["parts"]["moves"].count("<li")
                    self.arrived.setdefault(moves, now)


def latencies(game: str, folder: Path, moves: int, pace_s: float) -> list[float]:
    """Seconds from each move's commit to the journal to its event reaching an open
    page, with a move every ``pace_s`` seconds."""
    from firmware_bridge.sim.runner import SimOptions, Simulation

    path = folder / f"{game}-live.sqlite"
    sim = Simulation(SimOptions(game=game, seed=5, journal=path))
    committed: dict[int, float] = {}

    def commit(played: object) -> None:
        n = len(sim.session.game.history)
        committed.setdefault(n, time.monotonic())
        if n >= moves:
            raise _Enough
        time.sleep(pace_s)

    sim.commits.append(commit)
    port = _free_port()
    try:
        sim.start()
        cmd = [*tabletop(), "web", "--journal", str(path), "--listen", f"127.0.0.1:{port}"]
        with subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as server:
            try:
                _get(port, "/")
                page = PageReader(port)
                page.start()
                with contextlib.suppress(_Enough):
                    sim.play_computer()
                time.sleep(1.0)
            finally:
                server.terminate()
                server.wait(timeout=10)
    finally:
        sim.close()
    return [page.arrived[n] - t for n, t in committed.items() if n in page.arrived]


class _Enough(Exception):
    """Stops the measured game after enough moves."""


def tabletop() -> list[str]:
    script = Path(sys.executable).parent / "tabletop"
    return [str(script)] if script.exists() else [sys.executable, "-m", "firmware_bridge.apps.cli"]


def run(quick: bool) -> list[dict[str, Any]]:
    games = ["double-take"] if quick else ["double-take", "crosslet"]
    runs = 1 if quick else 3
    figures: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            journal = _journal(game, Path(tmp))
            got: dict[str, list[float]] = {"rss": [], "private": [], "idle": []}
            for _ in range(runs):
                port = _free_port()
                cmd = [
                    *tabletop(),
                    "web",
                    "--journal",
                    str(journal),
                    "--listen",
                    f"127.0.0.1:{port}",
                ]
                for key, value in measure(cmd, port, ("/", "/game.json", "/state.json")).items():
                    got[key].append(value)
            figures.append(_fig(f"web view memory (RSS), {game}", "MB", RSS_TARGET_MB, got["rss"]))
            figures.append(_fig(f"  its own (private), {game}", "MB", None, got["private"]))
            figures.append(_fig(f"  processor while idle, {game}", "% core", None, got["idle"]))
    with tempfile.TemporaryDirectory() as tmp:
        moves = 10 if quick else 40
        got_s = latencies("double-take", Path(tmp), moves, PACE_S)
        figures.append(
            _fig("move → open page, double-take", "s", LATENCY_TARGET_S, got_s, len(got_s), moves)
        )
    floor = []
    for _ in range(runs):
        port = _free_port()
        floor.append(measure([sys.executable, "-c", HELLO, str(port)], port, ("/",))["rss"])
    figures.append(_fig("one-page WSGI app under waitress (the floor)", "MB", None, floor))
    return figures


def _fig(
    figure: str,
    unit: str,
    target: float | None,
    samples: list[float],
    got: int | None = None,
    wanted: int | None = None,
) -> dict[str, Any]:
    if got is not None and got < (wanted or 0):
        raise RuntimeError(f"{figure}: only {got} of {wanted} moves reached the page")
    return {"figure": figure, "unit": unit, "target": target, "better": "lower", "samples": samples}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Double Take only, one run")
    args = parser.parse_args(argv)
    for fig in run(args.quick):
        samples = fig["samples"]
        target = "" if fig["target"] is None else f"  (target ≤ {fig['target']:g})"
        print(
            f"{fig['figure']:<52} median {statistics.median(samples):7.2f} {fig['unit']:<6} "
            f"min {min(samples):7.2f}  max {max(samples):7.2f}{target}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
