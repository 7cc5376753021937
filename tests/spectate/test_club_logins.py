"""A board's login for the club's broker: ``sim --broker`` takes the one ``club init``
wrote (a club config, or the URL), and a refused login stops at once with what to do."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.spectate.test_club_broker import _folder
from tests.spectate.tools import MOSQUITTO, free_port, need, stop, wait_for_port

TABLETOP = [sys.executable, "-m", "firmware_bridge.apps.cli"]


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TABLETOP, *args], capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.fixture(scope="module")
def club() -> Iterator[tuple[int, Path]]:
    """A club's broker as ``club init`` sets it up (table-1 and the hub), running."""
    exe = need(MOSQUITTO, "mosquitto")
    port = free_port()
    with _folder() as folder:
        made = run("club", "init", "--boards", "table-1", "--folder", str(folder),
                   "--listen", f"127.0.0.1:{port}")  # fmt: skip
        assert made.returncode == 0, made.stderr
        broker = subprocess.Popen(
            [exe, "-c", str(folder / "mosquitto.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for_port(port, 10, broker)
            yield port, folder
        finally:
            stop(broker)


def test_a_board_with_no_login_is_told_what_to_give(club: tuple[int, Path]) -> None:
    port, _ = club
    done = run("sim", "--game", "double-take", "--broker", f"mqtt://127.0.0.1:{port}",
               "--board-name", "table-1", timeout=60)  # fmt: skip
    assert done.returncode == 2
    err = done.stderr.strip().splitlines()
    assert err[-1].startswith(f"tabletop: the broker mqtt://127.0.0.1:{port} refused")
    assert "--club-config" in err[-1] and "mqtt://USER:PASSWORD@HOST" in err[-1]
    assert "Traceback" not in done.stderr


def test_a_wrong_password_in_the_url_is_refused_and_never_echoed(club: tuple[int, Path]) -> None:
    port, _ = club
    url = f"mqtt://table-1:hunter2-not-it@127.0.0.1:{port}"
    done = run("sim", "--game", "double-take", "--broker", url, "--board-name", "table-1",
               timeout=60)  # fmt: skip
    assert done.returncode == 2
    assert "refused the login 'table-1'" in done.stderr
    assert "hunter2" not in done.stderr + done.stdout


def test_the_club_config_gives_the_board_its_login(club: tuple[int, Path]) -> None:
    port, folder = club
    config = folder / "table-1.toml"
    config.write_text(
        f'broker = "mqtt://127.0.0.1:{port}"\nusername = "table-1"\n'
        'password_file = "credentials/table-1"\n',
        encoding="utf-8",
    )
    done = run("sim", "--game", "double-take", "--broker", f"mqtt://127.0.0.1:{port}",
               "--board-name", "table-1", "--club-config", str(config))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "wins" in done.stdout or "Draw" in done.stdout
    assert "refused" not in done.stderr


def test_publish_refuses_a_bad_board_name_before_saying_it_publishes() -> None:
    done = run("publish", "--broker", "mqtt://127.0.0.1:1", "--board-name", "a/b",
               "--journal", "/nonexistent/j.sqlite", timeout=30)  # fmt: skip
    assert done.returncode == 2
    assert "publishing" not in done.stdout
    assert "a/b" in done.stderr
