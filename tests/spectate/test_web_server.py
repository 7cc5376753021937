"""``tabletop web`` under waitress: its URLs, its event streams, its limits and its stop."""

from __future__ import annotations

import contextlib
import http.client
import json
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.spectate.events import Changes, StreamSlots, stream
from firmware_bridge.spectate.follow import Follower
from firmware_bridge.spectate.server import THREADS, BoardView, web_app
from firmware_bridge.spectate.wsgi import RESERVED_THREADS
from tests.spectate.tools import free_port, get_json, stop, tabletop, wait_for_port


def _played(path: Path, game: str = "double-take", seed: int = 4) -> Path:
    sim = Simulation(SimOptions(game=game, seed=seed, journal=path))
    try:
        sim.start()
        sim.play_computer()
    finally:
        sim.close()
    return path


def _call(app: Any, path: str, method: str = "GET") -> tuple[str, dict[str, str], bytes]:
    got: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        got["status"], got["headers"] = status, dict(headers)

    body = b"".join(app({"REQUEST_METHOD": method, "PATH_INFO": path}, start_response))
    return got["status"], got["headers"], body


def test_the_views_urls_and_what_they_answer(tmp_path: Path) -> None:
    journal = _played(tmp_path / "j.sqlite")
    board = BoardView(Follower(journal))
    app = web_app(board)
    board.poll()
    try:
        status, headers, body = _call(app, "/state.json")
        assert status == "200 OK" and headers["Content-Type"] == "application/json"
        assert json.loads(body) == board.follower.state()
        assert headers["Content-Length"] == str(len(body))
        status, _, body = _call(app, "/game.json")
        record = json.loads(body)
        assert len(record["moves"]) == record["moves_played"] > 0
        status, headers, body = _call(app, "/")
        assert status == "200 OK" and headers["Content-Type"] == "text/html; charset=utf-8"
        assert board.parts()["moves"] in body.decode()
        # HEAD has the headers without the body; only GET and HEAD are allowed.
        status, headers, body = _call(app, "/state.json", "HEAD")
        assert status == "200 OK" and body == b"" and int(headers["Content-Length"]) > 0
        status, headers, _ = _call(app, "/state.json", "POST")
        assert status == "405 Method Not Allowed" and headers["Allow"] == "GET, HEAD"
        assert _call(app, "/nothing")[0] == "404 Not Found"
        assert _call(app, "/state.json/x")[0] == "404 Not Found"
    finally:
        board.close()


def test_a_view_of_no_journal_says_so_in_its_json(tmp_path: Path) -> None:
    board = BoardView(Follower(tmp_path / "none.sqlite"))
    app = web_app(board)
    board.poll()
    for path in ("/state.json", "/game.json"):
        status, _, body = _call(app, path)
        assert status == "404 Not Found"
        assert "no journal" in json.loads(body)["error"]
    assert "no journal" in _call(app, "/")[2].decode()


def test_hub_routes_take_a_board_name_from_the_path() -> None:
    from firmware_bridge.spectate.hub import Hub, hub_app
    from firmware_bridge.spectate.mqtt import BrokerSettings

    app = hub_app(Hub(BrokerSettings.from_url("mqtt://127.0.0.1:1")))
    # WSGI hands the path over as latin-1: the bytes of "té" in UTF-8.
    status, _, body = _call(app, "/boards/t\u00c3\u00a9.json")
    assert status == "404 Not Found"
    assert json.loads(body) == {"error": "no board called t\u00e9"}
    assert json.loads(_call(app, "/boards.json")[2])["count"] == 0
    assert _call(app, "/boards/a/b.json")[0] == "404 Not Found"


def _events(messages: Iterator[bytes]) -> Iterator[dict[str, Any]]:
    for chunk in messages:
        for block in chunk.decode().split("\n\n"):
            for line in block.splitlines():
                if line.startswith("data: "):
                    yield json.loads(line[6:])


def test_a_stream_sends_the_state_now_then_after_each_change() -> None:
    changes, slots = Changes(), StreamSlots(1)
    shown = {"n": 0}
    out = stream(changes, lambda: {"moves": str(shown["n"])}, slots, lambda: False)
    events = _events(out)
    assert next(events) == {"version": 0, "parts": {"moves": "0"}}
    assert slots.open == 1
    shown["n"] = 1
    threading.Timer(0.05, changes.bump).start()
    assert next(events) == {"version": 1, "parts": {"moves": "1"}}
    changes.close()
    assert list(events) == []
    assert slots.open == 0


def test_a_page_finding_every_slot_taken_gets_the_state_and_a_time_to_come_back() -> None:
    changes, slots = Changes(), StreamSlots(1)
    assert slots.take()
    (only,) = list(stream(changes, lambda: {"moves": "x"}, slots, lambda: False))
    assert only.startswith(b"retry: 5000\n")
    assert list(_events(iter([only]))) == [{"version": 0, "parts": {"moves": "x"}}]
    assert slots.open == 1


def test_a_stream_whose_page_went_away_gives_its_slot_back() -> None:
    changes, slots = Changes(), StreamSlots(2)
    gone = threading.Event()
    out = stream(changes, dict, slots, gone.is_set)
    next(out)
    gone.set()
    assert list(out) == []
    assert slots.open == 0


class EventReader:
    """An open ``/events`` stream of a running server, read on a thread of its own."""

    def __init__(self, port: int, path: str = "/events") -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.connect()
        self.sock = self.conn.sock
        self.conn.request("GET", path)
        self.reply = self.conn.getresponse()
        self.lines: list[str] = []
        self.events: list[dict[str, Any]] = []
        self.ended = threading.Event()
        self.news = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while line := self.reply.readline():
                text = line.decode().rstrip("\n")
                with self.news:
                    self.lines.append(text)
                    if text.startswith("data: "):
                        self.events.append(json.loads(text[6:]))
                    self.news.notify_all()
        except OSError:
            pass
        finally:
            self.ended.set()
            with self.news:
                self.news.notify_all()

    def wait_for(self, what: str, check: Any, timeout: float = 20.0) -> None:
        with self.news:
            if not self.news.wait_for(lambda: check(self) or self.ended.is_set(), timeout):
                raise AssertionError(f"timed out waiting for {what}: {self.lines[-3:]}")
        assert check(self), f"the stream ended before {what}: {self.lines[-3:]}"

    def close(self) -> None:
        # Shut the socket itself: the reading thread's file would keep it open.
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()


def _move_count(reader: EventReader) -> int:
    if not reader.events:
        return -1
    return reader.events[-1]["parts"]["moves"].count("<li")


def test_each_move_reaches_an_open_page_as_it_is_played(tmp_path: Path) -> None:
    # The game waits after each move until the page has it: were the server to hold
    # events back until some buffer filled, the game would stall and this would fail.
    journal = tmp_path / "j.sqlite"
    sim = Simulation(SimOptions(game="double-take", seed=6, journal=journal))
    port = free_port()
    proc = None
    try:
        sim.start()
        proc = tabletop("web", "--journal", str(journal), "--listen", f"127.0.0.1:{port}")
        wait_for_port(port, 30, proc)
        reader = EventReader(port)
        reader.wait_for("the state now", lambda r: _move_count(r) == 0)
        seen: list[int] = []

        def page_has_it(played: object) -> None:
            n = len(sim.session.game.history)
            if n <= 12:
                reader.wait_for(f"move {n} on the page", lambda r: _move_count(r) >= n)
                seen.append(_move_count(reader))

        sim.commits.append(page_has_it)
        sim.play_computer()
        assert seen == list(range(1, 13))
        assert reader.reply.getheader("Content-Type") == "text/event-stream; charset=utf-8"
        assert reader.reply.getheader("Cache-Control") == "no-cache"
        reader.close()
    finally:
        sim.close()
        if proc is not None:
            stop(proc)


def test_more_pages_than_threads_still_get_the_state_and_json_stays_served(
    tmp_path: Path,
) -> None:
    journal = _played(tmp_path / "j.sqlite")
    port = free_port()
    proc = tabletop("web", "--journal", str(journal), "--listen", f"127.0.0.1:{port}")
    readers: list[EventReader] = []
    try:
        wait_for_port(port, 30, proc)
        slots = THREADS - RESERVED_THREADS
        for _ in range(slots):
            readers.append(EventReader(port))
            readers[-1].wait_for("the first event", lambda r: bool(r.events))
        late = EventReader(port)
        late.wait_for("the state and the end", lambda r: r.ended.is_set())
        assert late.lines[0] == "retry: 5000" and len(late.events) == 1
        assert late.events[0]["parts"] == readers[0].events[-1]["parts"]
        # Pages and JSON are still served while every stream slot is held.
        assert get_json(f"http://127.0.0.1:{port}/state.json")["moves_played"] > 0
        # A page that leaves gives its slot to the next.
        readers.pop().close()
        # (It notices within a second; until then a new page is told to come back.)
        for _ in range(40):
            again = EventReader(port)
            again.wait_for("an event", lambda r: bool(r.events))
            if not again.ended.wait(0.3):
                readers.append(again)
                break
            again.close()
            time.sleep(0.2)
        else:
            raise AssertionError("no stream slot came free after a page left")
    finally:
        for reader in readers:
            reader.close()
        stop(proc)


def test_sigterm_ends_open_streams_and_the_view_exits_cleanly(tmp_path: Path) -> None:
    journal = _played(tmp_path / "j.sqlite")
    port = free_port()
    proc = tabletop("web", "--journal", str(journal), "--listen", f"127.0.0.1:{port}")
    try:
        wait_for_port(port, 30, proc)
        readers = [EventReader(port) for _ in range(3)]
        for reader in readers:
            reader.wait_for("the first event", lambda r: bool(r.events))
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
        for reader in readers:
            assert reader.ended.wait(10)
        _, err = proc.communicate()
        assert "Traceback" not in err
    finally:
        stop(proc)


def test_a_port_in_use_or_an_unknown_host_is_explained(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = tabletop("web", "--journal", str(tmp_path / "j.sqlite"), "--listen", f":{port}")
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in err and "in use" in err
    assert "choose another port" in err
    assert f"there is no journal at {tmp_path / 'j.sqlite'} yet" in err
    proc = tabletop("web", "--journal", "j.sqlite", "--listen", "no-such-host.invalid:8080")
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert "no such address" in err and "0.0.0.0:8080" in err


def test_a_folder_given_as_the_journal_is_refused_before_serving(tmp_path: Path) -> None:
    proc = tabletop("web", "--journal", str(tmp_path), "--listen", f":{free_port()}")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert f"--journal {tmp_path} is a folder" in err and "journal.sqlite" in err
    assert "serving" not in out and "Traceback" not in err


def test_the_view_listens_on_the_loopback_unless_told() -> None:
    from firmware_bridge.apps.cli import build_parser

    for command in (["web", "--journal", "j.sqlite"], ["hub", "--broker", "mqtt://x"]):
        assert build_parser().parse_args(command).listen == "127.0.0.1:8080"
