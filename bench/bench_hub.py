"""A club under load: Mosquitto, many boards publishing at once, the hub showing them all.

Real parts throughout: a private Mosquitto, the real ``tabletop hub`` process, and per
board the real publisher (its own MQTT connection, following its own journal). The
boards replay games the simulation recorded at the start (mixed games, every one of
them), appending one accepted action to their journal every couple of seconds, as a
referee does at human pace. Prints:

- move-to-page latency (median, p99): from a move's journal commit to the hub's page
  (its server-sent events) showing that move; target under 2 s,
- messages per second and bytes per move through the broker,
- the broker's and the hub's memory (RSS),
- the web view (``tabletop web`` on one board) memory, RSS and private, against the
  30 MB target, and its CPU while idle.

    python bench/bench_hub.py [--quick]

``run(quick)``: 30 boards (every game) over three 20 s windows; quick: 6 boards of
Double Take over three 4 s windows.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import re
import shutil
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

MOSQUITTO = "/usr/sbin/mosquitto"
LATENCY_TARGET_S = 2.0
WEB_RSS_TARGET_MB = 30.0
RECORD_SEED = 11


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def _rss_mb(pid: int, key: str = "VmRSS") -> float:
    text = Path(f"/proc/{pid}/status").read_text()
    m = re.search(rf"^{key}:\s+(\d+) kB", text, re.M)
    return int(m.group(1)) / 1024 if m else float("nan")


def _private_mb(pid: int) -> float:
    """Memory only this process uses (private pages): what it adds beside the daemon."""
    total = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith(("Private_Clean:", "Private_Dirty:")):
            total += int(line.split()[1])
    return total / 1024


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _tabletop(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.apps.cli", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _stop(proc: subprocess.Popen[Any]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _games() -> list[str]:
    from firmware_bridge.kits import find_kit
    from games.errors import GameError
    from games.registry import GAMES

    names = []
    for g in GAMES:
        with contextlib.suppress(GameError):
            find_kit(g.name)
            names.append(g.name)
    return names


def _record(games: list[str], folder: Path) -> dict[str, Path]:
    """One whole game of each, played by the simulation into its own journal."""
    procs = {}
    for game in games:
        path = folder / f"record-{game}.sqlite"
        procs[game] = (
            path,
            _tabletop("sim", "--game", game, "--seed", str(RECORD_SEED), "--journal", str(path)),
        )
    for _, proc in procs.values():
        proc.wait()
    return {game: path for game, (path, _) in procs.items()}


class Feeder(threading.Thread):
    """Boards at human pace: each appends its recorded game's actions to its journal."""

    def __init__(self, boards: dict[str, tuple[Path, Path]], pace_s: float) -> None:
        super().__init__(daemon=True)
        self.boards = boards
        self.journals: dict[str, Any] = {}
        self.todo: dict[str, list[dict[str, Any]]] = {}
        self.game_ids: dict[str, int] = {}
        self.pace_s = pace_s
        self.committed: dict[tuple[str, int], float] = {}
        self.stop = threading.Event()
        self.ready = threading.Event()

    def _open(self) -> None:
        # SQLite connections belong to the thread that opens them: this one.
        from firmware_bridge.journal import Journal

        for name, (record, target) in self.boards.items():
            with Journal(record) as src:
                rec = src.games()[-1]
                entries = [e for e in src.entries(rec.id) if e.kind == "action"]
            journal = Journal(target)
            self.game_ids[name] = journal.new_game(
                rec.game, rec.players, rec.seed, rec.options, rec.profile
            )
            self.journals[name] = journal
            self.todo[name] = [e.payload for e in entries]
        self.ready.set()

    def run(self) -> None:
        self._open()
        rng = random.Random(5)
        due = {name: time.time() + rng.uniform(0, self.pace_s) for name in self.todo}
        played = dict.fromkeys(self.todo, 0)
        while not self.stop.is_set():
            name = min(due, key=due.__getitem__)
            wait = due[name] - time.time()
            if wait > 0 and self.stop.wait(wait):
                break
            if played[name] < len(self.todo[name]):
                self.journals[name].append(
                    self.game_ids[name], "action", self.todo[name][played[name]]
                )
                played[name] += 1
                self.committed[(name, played[name])] = time.time()
            due[name] = time.time() + self.pace_s * rng.uniform(0.8, 1.2)
        for journal in self.journals.values():
            journal.close()


class PageWatcher(threading.Thread):
    """Reads the hub page's event stream and notes when each board's move number shows."""

    CARD = re.compile(r"move (\d+)</p>")

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.shown: dict[tuple[str, int], float] = {}

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        conn.request("GET", "/events")
        response = conn.getresponse()
        for raw in response:
            line = raw.decode()
            if not line.startswith("data: "):
                continue
            now = time.time()
            parts = json.loads(line[6:])["parts"]
            for card, html in parts.items():
                m = self.CARD.search(html)
                if m:
                    self.shown.setdefault((card.removeprefix("card-"), int(m.group(1))), now)


class Counter:
    """Every message through the broker on tabletop/#, counted by a subscriber of its own."""

    def __init__(self, port: int) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.messages: list[tuple[float, str, int]] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-counter")
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe("tabletop/#", qos=1)
        self.client.on_message = lambda c, u, m: self.messages.append(
            (time.time(), m.topic, len(m.payload))
        )
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@contextlib.contextmanager
def _broker(folder: Path) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    exe = MOSQUITTO if os.access(MOSQUITTO, os.X_OK) else shutil.which("mosquitto")
    if exe is None:
        raise RuntimeError("mosquitto is missing: apt-get install mosquitto")
    port = _free_port()
    conf = folder / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n", encoding="utf-8")
    proc = subprocess.Popen(
        [exe, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        _wait_port(port)
        yield port, proc
    finally:
        _stop(proc)


def measure(
    boards: int, window_s: float, pace_s: float, mixed: bool = True, idle_s: float = 5.0
) -> dict[str, list[float]]:
    from firmware_bridge.spectate.mqtt import BrokerSettings
    from firmware_bridge.spectate.publish import Publisher

    out: dict[str, list[float]] = {}
    with (
        tempfile.TemporaryDirectory(prefix="bench-hub-") as tmp,
        _broker(Path(tmp)) as (
            mqtt_port,
            broker,
        ),
    ):
        folder = Path(tmp)
        games = _games() if mixed else ["double-take"]
        records = _record(games, folder)
        names = [f"b{i:02d}" for i in range(boards)]
        plan = {
            n: (records[games[i % len(games)]], folder / f"{n}.sqlite") for i, n in enumerate(names)
        }
        hub_port = _free_port()
        hub = _tabletop(
            "hub", "--broker", f"mqtt://127.0.0.1:{mqtt_port}", "--listen", f"127.0.0.1:{hub_port}"
        )
        feeder = Feeder(plan, pace_s)
        settings = BrokerSettings.from_url(f"mqtt://127.0.0.1:{mqtt_port}")
        publishers = [Publisher(plan[n][1], settings, n) for n in names]
        counter = Counter(mqtt_port)
        web = None
        try:
            _wait_port(hub_port)
            watcher = PageWatcher(hub_port)
            watcher.start()
            feeder.start()
            feeder.ready.wait(60)
            for p in publishers:
                p.start()
            for _ in range(3):
                start = time.time()
                time.sleep(window_s)
                end = time.time()
                lat = [
                    watcher.shown[key] - t
                    for key, t in list(feeder.committed.items())
                    if start <= t < end and key in watcher.shown
                ]
                missing = [
                    key
                    for key, t in list(feeder.committed.items())
                    if start <= t < end - 3 and key not in watcher.shown
                ]
                msgs = [m for m in list(counter.messages) if start <= m[0] < end]
                moves = sum(1 for t in feeder.committed.values() if start <= t < end)
                if not lat:
                    raise RuntimeError(f"the hub showed none of the moves in {window_s} s")
                out.setdefault("latency_median", []).append(statistics.median(lat))
                out.setdefault("latency_p99", []).append(_pct(lat, 0.99))
                out.setdefault("msgs", []).append(len(msgs) / (end - start))
                out.setdefault("bytes_per_move", []).append(sum(m[2] for m in msgs) / max(1, moves))
                out.setdefault("moves_per_s", []).append(moves / (end - start))
                out.setdefault("broker_mb", []).append(_rss_mb(broker.pid))
                out.setdefault("hub_mb", []).append(_rss_mb(hub.pid))
                out.setdefault("unseen", []).append(float(len(missing)))
            with urllib_get(hub_port, "/boards.json") as index:
                out["boards_shown"] = [float(index["count"])]
            # The web view of one board, beside its (here idle) journal.
            web_port = _free_port()
            web = _tabletop(
                "web", "--journal", str(plan[names[0]][1]), "--listen", f"127.0.0.1:{web_port}"
            )
            _wait_port(web_port)
            for path in ("/", "/game.json", "/state.json"):
                with urllib_raw(web_port, path):
                    pass
            feeder.stop.set()
            time.sleep(1.0)
            for _ in range(3):
                out.setdefault("web_rss_mb", []).append(_rss_mb(web.pid))
                out.setdefault("web_private_mb", []).append(_private_mb(web.pid))
                before = _cpu_s(web.pid)
                time.sleep(idle_s)
                out.setdefault("web_idle_cpu", []).append((_cpu_s(web.pid) - before) / idle_s * 100)
        finally:
            feeder.stop.set()
            for p in publishers:
                p.stop()
            counter.close()
            _stop(hub)
            if web is not None:
                _stop(web)
    return out


@contextlib.contextmanager
def urllib_raw(port: int, path: str) -> Iterator[bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    yield conn.getresponse().read()
    conn.close()


@contextlib.contextmanager
def urllib_get(port: int, path: str) -> Iterator[Any]:
    with urllib_raw(port, path) as body:
        yield json.loads(body)


def run(quick: bool) -> list[dict[str, Any]]:
    boards = 6 if quick else 30
    if quick:
        got = measure(boards, 4.0, 1.0, mixed=False, idle_s=2.0)
    else:
        got = measure(boards, 20.0, 2.0)

    def fig(
        name: str, unit: str, key: str, target: float | None, better: str = "lower"
    ) -> dict[str, Any]:
        return {
            "figure": name,
            "unit": unit,
            "target": target,
            "better": better,
            "samples": got[key],
        }

    return [
        fig(
            f"hub: move-to-page latency median, {boards} boards",
            "s",
            "latency_median",
            LATENCY_TARGET_S,
        ),
        fig(
            f"hub: move-to-page latency p99, {boards} boards", "s", "latency_p99", LATENCY_TARGET_S
        ),
        fig(f"hub: boards shown of {boards}", "boards", "boards_shown", float(boards), "higher"),
        fig("hub: moves shown late or never (>3 s)", "moves", "unseen", 0.0),
        fig("broker: messages per second", "msg/s", "msgs", None, "higher"),
        fig("broker: moves per second", "moves/s", "moves_per_s", None, "higher"),
        fig("broker: bytes per move (all topics)", "B", "bytes_per_move", None),
        fig("broker: memory (RSS)", "MB", "broker_mb", None),
        fig("hub: memory (RSS)", "MB", "hub_mb", None),
        fig("web view: memory (RSS)", "MB", "web_rss_mb", WEB_RSS_TARGET_MB),
        fig("web view: memory of its own (private)", "MB", "web_private_mb", WEB_RSS_TARGET_MB),
        fig("web view: CPU while idle", "%", "web_idle_cpu", 1.0),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="6 boards, short windows")
    args = parser.parse_args()
    for f in run(args.quick):
        s = f["samples"]
        target = "" if f["target"] is None else f"  (target {f['target']:g})"
        print(
            f"{f['figure']:<48} median {statistics.median(s):9.3f} {f['unit']:<7}"
            f" min {min(s):.3f} max {max(s):.3f}{target}"
        )


if __name__ == "__main__":
    main()
