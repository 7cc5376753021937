"""Two real ``tabletop sim`` processes play one game board to board through a real
Mosquitto, the computer moving each board's own seats and each board's hand making
the other's moves as its OLED shows them; both journals end with the same game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.spectate.tools import mosquitto, stop, tabletop

CLOCK_FIELDS = ("started", "finished", "at")
"""When each board wrote its journal: its own clock's, the one thing two boards'
records of one game differ in."""


def _export(journal: Path) -> dict[str, Any]:
    done = subprocess.run(
        [*tabletop_cmd(), "export", "--journal", str(journal)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    record: dict[str, Any] = json.loads(done.stdout)
    for field in CLOCK_FIELDS:
        record.pop(field, None)
    for move in record["moves"]:
        for field in CLOCK_FIELDS:
            move.pop(field, None)
    return record


def tabletop_cmd() -> list[str]:
    import sys

    return [sys.executable, "-m", "firmware_bridge.apps.cli"]


def _host(
    url: str, journal: Path, *extra: str, game: str = "double-take", **kw: Any
) -> subprocess.Popen[str]:
    return tabletop(
        "sim", "--game", game, "--host-remote", "2=ann", "--broker", url,
        "--board-name", "bob", "--journal", str(journal), *extra, **kw,
    )  # fmt: skip


def _guest(url: str, journal: Path) -> subprocess.Popen[str]:
    return tabletop(
        "sim", "--join", "bob", "--broker", url, "--board-name", "ann", "--journal", str(journal),
        env={**os.environ, "PYTHONUNBUFFERED": "1"},  # each move line as it is played
    )  # fmt: skip


@pytest.mark.parametrize(
    ("game", "first"),
    [("double-take", "red"), ("doubles-wild", "blue"), ("crosslet", "player 1")],
)
def test_a_whole_game_board_to_board(tmp_path: Path, game: str, first: str) -> None:
    with mosquitto() as broker:
        host = _host(broker.url, tmp_path / "bob.sqlite", game=game)
        guest = _guest(broker.url, tmp_path / "ann.sqlite")
        try:
            host_out, host_err = host.communicate(timeout=240)
            guest_out, guest_err = guest.communicate(timeout=60)
        finally:
            stop(host)
            stop(guest)
    assert host.returncode == 0, host_err
    assert guest.returncode == 0, guest_err
    assert f"{first} (bob) vs " in host_out.splitlines()[0]
    assert host_out.splitlines()[0] == guest_out.splitlines()[0]
    assert host_out.splitlines()[-1] == guest_out.splitlines()[-1]  # the same result line
    bob, ann = _export(tmp_path / "bob.sqlite"), _export(tmp_path / "ann.sqlite")
    assert bob["outcome"] is not None and len(bob["moves"]) > 10
    assert bob == ann
    assert "refused 0 messages" in host_err and "refused 0 messages" in guest_err


def test_the_game_waits_for_a_guest_that_is_gone_and_goes_on_when_it_is_back(
    tmp_path: Path,
) -> None:
    states: list[dict[str, Any]] = []
    with mosquitto() as broker:
        host = _host(broker.url, tmp_path / "bob.sqlite", "--json")

        def read_host() -> None:
            assert host.stdout is not None
            for line in host.stdout:
                states.append(json.loads(line))

        reader = threading.Thread(target=read_host, daemon=True)
        reader.start()
        guest = _guest(broker.url, tmp_path / "ann.sqlite")
        try:
            assert guest.stdout is not None
            for line in guest.stdout:
                if line.strip().startswith("12."):
                    break
            os.kill(guest.pid, signal.SIGKILL)  # the guest board loses its power
            guest.wait(10)
            waiting = _wait_for(states, lambda s: "Waiting for ann's board" in _oled(s))
            assert states[waiting].get("final") is None
            moves_then = len(_moves(states))
            time.sleep(2)
            assert len(_moves(states)) == moves_then  # nothing is played while it is gone
            guest = _guest(broker.url, tmp_path / "ann.sqlite")  # power back
            _, guest_err = guest.communicate(timeout=240)
            assert guest.returncode == 0, guest_err
            assert "resuming the journal's game" in guest_err
            host.wait(60)
            reader.join(10)
        finally:
            stop(host)
            stop(guest)
    assert host.returncode == 0
    back = [s for s in states[waiting:] if "Waiting for" not in _oled(s)]
    assert back, "the host's OLED never stopped waiting"
    assert states[-1]["final"] is True and states[-1]["outcome"] is not None
    bob, ann = _export(tmp_path / "bob.sqlite"), _export(tmp_path / "ann.sqlite")
    assert bob == ann
    assert len(bob["moves"]) == states[-1]["moves"]


def _oled(state: dict[str, Any]) -> str:
    oled = state.get("oled", "")
    return " ".join(oled) if isinstance(oled, list) else str(oled)


def _moves(states: list[dict[str, Any]]) -> list[Any]:
    return [s["move"] for s in states if s.get("move")]


def _wait_for(states: list[dict[str, Any]], test: Any, timeout: float = 60.0) -> int:
    end = time.monotonic() + timeout
    seen = 0
    while time.monotonic() < end:
        for i in range(seen, len(states)):
            if test(states[i]):
                return i
        seen = len(states)
        time.sleep(0.05)
    raise AssertionError(f"no such state within {timeout} s; the last: {states[-1:]}")


def _follow(proc: subprocess.Popen[str], lines: list[str]) -> threading.Thread:
    """Keep every line ``proc`` prints in ``lines``, as it prints them."""

    def read() -> None:
        assert proc.stdout is not None
        lines.extend(proc.stdout)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader


def _moves_printed(lines: list[str]) -> int:
    return sum(1 for line in lines if line.strip().split(".")[0].isdigit())


def _until(test: Any, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not test():
        if time.monotonic() > end:
            raise AssertionError(f"not so within {timeout} s")
        time.sleep(0.02)


def test_the_game_goes_on_when_the_broker_restarts(tmp_path: Path) -> None:
    with mosquitto() as broker:
        host = _host(broker.url, tmp_path / "bob.sqlite", env=_unbuffered())
        guest = _guest(broker.url, tmp_path / "ann.sqlite")
        host_lines: list[str] = []
        guest_lines: list[str] = []
        readers = [_follow(host, host_lines), _follow(guest, guest_lines)]
        try:
            _until(lambda: _moves_printed(host_lines) >= 10)
            broker.stop()  # the broker, and every message and session it held, is gone
            time.sleep(1.0)
            broker.start()
            assert host.wait(240) == 0
            assert guest.wait(60) == 0
            for reader in readers:
                reader.join(10)
        finally:
            stop(host)
            stop(guest)
    assert host_lines[-1] == guest_lines[-1]
    assert _export(tmp_path / "bob.sqlite") == _export(tmp_path / "ann.sqlite")


def test_a_host_that_restarts_takes_the_game_up_where_it_was(tmp_path: Path) -> None:
    with mosquitto() as broker:
        host = _host(broker.url, tmp_path / "bob.sqlite", env=_unbuffered())
        guest = _guest(broker.url, tmp_path / "ann.sqlite")
        host_lines: list[str] = []
        guest_lines: list[str] = []
        _follow(host, host_lines)
        readers = [_follow(guest, guest_lines)]
        try:
            _until(lambda: _moves_printed(host_lines) >= 15)
            os.kill(host.pid, signal.SIGKILL)  # the host board loses its power
            host.wait(10)
            _until(lambda: any("waiting for bob's board" in line for line in guest_lines))
            host = _host(broker.url, tmp_path / "bob.sqlite", env=_unbuffered())
            readers.append(_follow(host, host_lines))
            assert host.wait(240) == 0
            assert guest.wait(60) == 0
            for reader in readers:
                reader.join(10)
        finally:
            stop(host)
            stop(guest)
    assert _export(tmp_path / "bob.sqlite") == _export(tmp_path / "ann.sqlite")


def _unbuffered() -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1"}
