"""A fair hub: boards sending big plans and big states fast, and what the others then get.

Real parts: a private Mosquitto and the real ``tabletop hub``. Calm boards each send a
state with one more move every second; while they do, flooding boards send a plan of
1,980 cells and a state of about 30 KB ten times a second. Prints, for one flooding
board and for 195 (each with its 40 KB plan and a 30 KB state: 70 KB a board; 200
boards in all with the calm ones, as many as the hub keeps):

- the calm boards' move-to-page time: from a state's publishing to the hub's page
  stream (``/events``) showing its move; target under 2 s (median and worst),
- the grid page's and ``/boards.json``'s answer times, and the grid page's size,
- the hub's memory: RSS at the end and its peak (VmHWM), against its unit's 256 MB.

    python bench/bench_fair_hub.py [--quick]

quick: 5 s of flooding and 50 flooding boards instead of 195.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_hostile import _state, broker
from bench.bench_hub import _cpu_s, _free_port, _rss_mb, _stop, _tabletop, _wait_port

LATENCY_TARGET_S = 2.0
CALM = 5
"""Boards playing at human pace beside the flood."""


def big_plan() -> bytes:
    """A plan of 45 × 44 = 1,980 cells (about 40 KB)."""
    cells = {f"r{y}c{x}": [x, y] for y in range(44) for x in range(45)}
    return json.dumps({"journal_game": 1, "geometry": {"cols": 45, "rows": 44, "cells": cells}},
                      separators=(",", ":")).encode()  # fmt: skip


def big_state(n: int) -> bytes:
    """A state of about 30 KB: 600 pieces on the big plan."""
    layout = {f"r{i // 45}c{i % 45}": {"kind": "disc", "label": f"p{n % 10}", "owner": i % 2}
              for i in range(600)}  # fmt: skip
    return json.dumps(_state(moves_played=n, layout=layout), separators=(",", ":")).encode()


class Watcher(threading.Thread):
    """When each calm board's move number shows on the hub page's event stream."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.shown: dict[tuple[str, int], float] = {}

    def run(self) -> None:
        import re

        move = re.compile(r"move (\d+)</p>")
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        conn.request("GET", "/events")
        for raw in conn.getresponse():
            line = raw.decode()
            if not line.startswith("data: "):
                continue
            now = time.time()
            for card, html in json.loads(line[6:])["parts"].items():
                if card.startswith("card-calm") and (m := move.search(html)):
                    self.shown.setdefault((card[5:], int(m.group(1))), now)


def _client(port: int, name: str) -> Any:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-{name}")
    client.max_queued_messages_set(50)
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client


def _timed(port: int, path: str) -> tuple[float, int]:
    t = time.perf_counter()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=120) as r:
        size = len(r.read())
    return time.perf_counter() - t, size


def _loud(mqtt_port: int, flooders: int, seconds: float) -> None:
    """The flooding boards, in a process of their own (the calm ones are not slowed by
    this one's threads): each sends its plan, then its 30 KB state ten times a second."""
    loud = [_client(mqtt_port, f"loud{i}") for i in range(flooders)]
    plan = big_plan()
    for i, c in enumerate(loud):
        c.publish(f"tabletop/loud{i}/board", plan, qos=1)
    start = time.monotonic()
    tick = 0
    while time.monotonic() - start < seconds:
        state = big_state(tick)
        for i, c in enumerate(loud):
            c.publish(f"tabletop/loud{i}/state", state, qos=0)
        tick += 1
        time.sleep(max(0.0, start + tick * 0.1 - time.monotonic()))
    for c in loud:
        c.disconnect()
        c.loop_stop()


def _broker_dropped(mqtt_port: int) -> float:
    """Messages the broker dropped (its ``$SYS`` count, published every 10 s)."""
    got: list[float] = []
    client = _client(mqtt_port, "sys-reader")
    client.on_message = lambda c, u, m: got.append(float(m.payload or 0))
    client.subscribe("$SYS/broker/publish/messages/dropped")
    end = time.monotonic() + 12
    while not got and time.monotonic() < end:
        time.sleep(0.1)
    client.disconnect()
    client.loop_stop()
    return got[-1] if got else float("nan")


def flood(flooders: int, seconds: float) -> dict[str, Any]:
    import multiprocessing

    with tempfile.TemporaryDirectory() as tmp, broker(Path(tmp)) as mqtt_port:
        port = _free_port()
        hub = _tabletop("hub", "--broker", f"mqtt://127.0.0.1:{mqtt_port}", "--listen",
                        f"127.0.0.1:{port}")  # fmt: skip
        calm: list[Any] = []
        loud = multiprocessing.get_context("spawn").Process(
            target=_loud, args=(mqtt_port, flooders, seconds), daemon=True
        )
        try:
            _wait_port(port)
            watcher = Watcher(port)
            watcher.start()
            calm = [_client(mqtt_port, f"calm{i}") for i in range(CALM)]
            loud.start()
            time.sleep(1.0)  # the flood under way
            published: dict[tuple[str, int], float] = {}
            pages: list[float] = []
            index: list[float] = []
            grid_kb = 0.0
            start = time.monotonic()
            cpu0 = _cpu_s(hub.pid)
            n = 0
            while time.monotonic() - start < seconds - 1.0:
                n += 1
                for i, c in enumerate(calm):
                    c.publish(f"tabletop/calm{i}/state", json.dumps(_state(moves_played=n)),
                              qos=1)  # fmt: skip
                    published[(f"calm{i}", n)] = time.time()
                if n % 2 == 1:
                    took, size = _timed(port, "/")
                    pages.append(took)
                    grid_kb = size / 1024
                    index.append(_timed(port, "/boards.json")[0])
                time.sleep(max(0.0, start + n * 1.0 - time.monotonic()))
            cpu = (_cpu_s(hub.pid) - cpu0) / (time.monotonic() - start)
            rss, peak = _rss_mb(hub.pid), _rss_mb(hub.pid, "VmHWM")
            loud.join(seconds + 30)
            time.sleep(3)  # the last moves' way to the page
            dropped = _broker_dropped(mqtt_port)
            late = [watcher.shown[k] - t for k, t in published.items() if k in watcher.shown]
            lost = len(published) - len(late)
        finally:
            for c in calm:
                c.disconnect()
                c.loop_stop()
            if loud.is_alive():
                loud.terminate()
            _stop(hub)
    return {"late": late or [float("inf")], "lost": lost, "page": pages, "index": index,
            "grid_kb": grid_kb, "rss": rss, "peak": peak, "cpu": cpu,
            "dropped": dropped}  # fmt: skip


def run(quick: bool) -> list[dict[str, Any]]:
    seconds = 5.0 if quick else 20.0
    figures: list[dict[str, Any]] = []
    # 200 boards in all with the calm ones: as many as the hub keeps (club.MAX_BOARDS).
    for flooders in (1, 50 if quick else 200 - CALM):
        got = flood(flooders, seconds)
        what = f"{flooders} board(s) of 70 KB at 10 states/s"
        figures.append(_fig(f"{what}: calm move-to-page", "s", LATENCY_TARGET_S, got["late"]))
        figures.append(_fig("  worst of them", "s", None, [max(got["late"])]))
        figures.append(_fig("  calm moves not shown 3 s after the flood", "moves", None,
                            [got["lost"]]))  # fmt: skip
        figures.append(_fig("  messages the broker dropped", "msgs", None, [got["dropped"]]))
        figures.append(_fig("  grid page time", "s", None, got["page"]))
        figures.append(_fig("  /boards.json time", "s", None, got["index"]))
        figures.append(_fig("  grid page size", "KB", None, [got["grid_kb"]]))
        figures.append(_fig("  hub CPU while flooded", "cores", None, [got["cpu"]]))
        figures.append(_fig("  hub RSS at the end", "MB", None, [got["rss"]]))
        figures.append(_fig("  hub RSS peak", "MB", 256.0, [got["peak"]]))
    return figures


def _fig(figure: str, unit: str, target: float | None, samples: list[float]) -> dict[str, Any]:
    return {"figure": figure, "unit": unit, "target": target, "better": "lower", "samples": samples}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    for f in run(args.quick):
        s = f["samples"]
        print(f"{f['figure']:<60} median {statistics.median(s):9.3f} max {max(s):9.3f} {f['unit']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
