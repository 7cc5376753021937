"""Bad neighbours: the club hub and the web view under the probe's attacks, measured.

Real parts: a private Mosquitto, the real ``tabletop hub`` and ``tabletop web``
processes. Prints:

- the page's answer time to one address while another holds 200 half-open
  connections (a request begun and never finished), for the web view and the hub;
  target under 1 s,
- the hub's memory (RSS) before and after messages from 5,000 made-up board names,
  and after 20 states of 2 MB each, and the size of its grid page then,
- how many of the probe's messages the hub refused (its diagnostics page).

    python bench/bench_hostile.py [--quick]

quick: 1,000 names and 3 page timings.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_hub import MOSQUITTO, _free_port, _rss_mb, _stop, _tabletop, _wait_port
from firmware_bridge.spectate.club import MAX_BOARDS

PAGE_TARGET_S = 1.0
ATTACKER = "127.0.0.2"
"""Another loopback address (Linux answers on all of 127.0.0.0/8)."""


@contextlib.contextmanager
def half_open(port: int, count: int) -> Iterator[None]:
    socks = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind((ATTACKER, 0))
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            socks.append(s)
        yield
    finally:
        for s in socks:
            s.close()


def _page_s(port: int, path: str = "/") -> float:
    t = time.perf_counter()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as r:
        r.read()
    return time.perf_counter() - t


def page_times(args: Sequence[str], times: int) -> list[float]:
    port = _free_port()
    proc = _tabletop(*args, "--listen", f"127.0.0.1:{port}")
    try:
        _wait_port(port)
        with half_open(port, 200):
            return [_page_s(port) for _ in range(times)]
    finally:
        _stop(proc)


@contextlib.contextmanager
def broker(folder: Path) -> Iterator[int]:
    port = _free_port()
    conf = folder / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n", encoding="utf-8")
    proc = subprocess.Popen(
        [MOSQUITTO, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        _wait_port(port)
        yield port
    finally:
        _stop(proc)


def _state(**changes: Any) -> dict[str, Any]:
    state = {
        "journal_game": 1,
        "moves_played": 0,
        "title": "Double Take",
        "seats": ["Red", "Green"],
        "scores": {"Red": 0, "Green": 0},
        "layout": {},
    }
    return {**state, **changes}


def _publish(port: int, messages: Sequence[tuple[str, bytes]]) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-stranger")
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        infos = [client.publish(t, p, qos=1) for t, p in messages]
        for info in infos:
            info.wait_for_publish(30)
    finally:
        client.disconnect()
        client.loop_stop()


def _get(port: int, path: str) -> bytes:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as r:
        return bytes(r.read())


def _settle(port: int, messages: int) -> dict[str, Any]:
    """The diagnostics once the hub has heard ``messages`` messages."""
    end = time.monotonic() + 60
    while True:
        diag = json.loads(_get(port, "/diagnostics.json"))
        if diag["messages"] >= messages or time.monotonic() > end:
            return dict(diag)
        time.sleep(0.2)


def hub_under_flood(names: int) -> dict[str, float]:
    probe = [
        (
            "tabletop/evil/board",
            b'{"journal_game":1,"geometry":{"cols":2,"rows":1,"cells":{"a1":[0,0]},'
            b'"special":{"a1":{"fill":"\\"/><foreignObject><img src=x '
            b'onerror=alert(document.domain)></foreignObject><rect x=\\""}}}}',
        ),
        ("tabletop/x/state", b"[" * 100_000 + b"]" * 100_000),
        ("tabletop/nan/state", json.dumps(_state()).replace('"Red": 0', '"Red": NaN').encode()),
        ("tabletop/big/board", b'{"journal_game":1,"geometry":{"cols":1e999,"rows":1}}'),
    ]
    huge = json.dumps(_state(oled=["x" * 1000] * 2000)).encode()
    with tempfile.TemporaryDirectory() as tmp, broker(Path(tmp)) as mqtt_port:
        port = _free_port()
        hub = _tabletop("hub", "--broker", f"mqtt://127.0.0.1:{mqtt_port}", "--listen",
                        f"127.0.0.1:{port}")  # fmt: skip
        try:
            _wait_port(port)
            _get(port, "/")
            before = _rss_mb(hub.pid)
            state = json.dumps(_state()).encode()
            _publish(mqtt_port, [(f"tabletop/made-up-{n}/state", state) for n in range(names)])
            _settle(port, names)
            grid_kb = len(_get(port, "/")) / 1024
            after_names = _rss_mb(hub.pid)
            _publish(mqtt_port, [(f"tabletop/huge-{n}/state", huge) for n in range(20)])
            _publish(mqtt_port, probe)
            diag = _settle(port, names + 20 + len(probe))
            after_huge = _rss_mb(hub.pid)
        finally:
            _stop(hub)
    return {
        "before": before,
        "names": after_names,
        "huge": after_huge,
        "grid_kb": grid_kb,
        "refused": float(diag["refused"]),
        "kept": float(diag["boards"]),
    }


def run(quick: bool) -> list[dict[str, Any]]:
    times = 3 if quick else 10
    figures: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        web = page_times(["web", "--journal", str(Path(tmp) / "none.sqlite")], times)
    figures.append(_fig("web page, 200 half-open from another address", "s", PAGE_TARGET_S, web))
    hub = page_times(["hub", "--broker", f"mqtt://127.0.0.1:{_free_port()}"], times)
    figures.append(_fig("hub page, 200 half-open from another address", "s", PAGE_TARGET_S, hub))
    names = 1_000 if quick else 5_000
    flood = hub_under_flood(names)
    figures.append(_fig("hub memory (RSS) at start", "MB", None, [flood["before"]]))
    figures.append(_fig(f"  after {names:,} made-up board names", "MB", None, [flood["names"]]))
    figures.append(_fig("  boards kept of them", "boards", MAX_BOARDS, [flood["kept"]]))
    figures.append(_fig("  grid page then", "KB", None, [flood["grid_kb"]]))
    figures.append(_fig("  after 20 states of 2 MB and the probe", "MB", None, [flood["huge"]]))
    figures.append(_fig("  messages refused (20 huge + 4 probe)", "msgs", None, [flood["refused"]]))
    return figures


def _fig(figure: str, unit: str, target: float | None, samples: list[float]) -> dict[str, Any]:
    return {"figure": figure, "unit": unit, "target": target, "better": "lower", "samples": samples}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 names, 3 page timings")
    args = parser.parse_args(argv)
    for fig in run(args.quick):
        samples = fig["samples"]
        target = "" if fig["target"] is None else f"  (target ≤ {fig['target']:g})"
        print(
            f"{fig['figure']:<52} median {statistics.median(samples):9.3f} {fig['unit']:<6} "
            f"min {min(samples):9.3f}  max {max(samples):9.3f}{target}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
