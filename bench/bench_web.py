"""The web view's memory and its processor time while idle.

``tabletop web`` runs beside the daemon on the board's own computer, so what it
holds is taken from the daemon's. This plays a simulated game into a journal,
starts ``tabletop web`` on it, fetches the page, ``/game.json`` and
``/state.json`` (so that everything a visitor causes is loaded), then reads the
process's resident memory (RSS), the part of it no other process shares
(private), and the processor time it takes over a few idle seconds.

The floor under the RSS is the web server itself: a WSGI application of one
page under waitress, with as many worker threads as the view, measured the same
way, is the last figure.

    python bench/bench_web.py [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

RSS_TARGET_MB = 30.0
IDLE_S = 3.0

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


def tabletop() -> list[str]:
    script = Path(sys.executable).parent / "tabletop"
    return [str(script)] if script.exists() else [sys.executable, "-m", "firmware_bridge.cli"]


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
    floor = []
    for _ in range(runs):
        port = _free_port()
        floor.append(measure([sys.executable, "-c", HELLO, str(port)], port, ("/",))["rss"])
    figures.append(_fig("one-page WSGI app under waitress (the floor)", "MB", None, floor))
    return figures


def _fig(figure: str, unit: str, target: float | None, samples: list[float]) -> dict[str, Any]:
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
