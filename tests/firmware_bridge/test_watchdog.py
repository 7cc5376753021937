"""The daemon and systemd: READY=1, the watchdog pings from the loop, and an end to
them when the loop is stuck.

The test stands in for systemd: a datagram socket named in ``NOTIFY_SOCKET``, as
systemd gives a ``Type=notify`` service. The daemon runs in its own process on mock
pins and luma's dummy OLED; only its sensor board is the test's, one that can be
made to hang inside the loop.
"""

from __future__ import annotations

import itertools
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from firmware_bridge.apps.daemon import WATCHDOG_EVERY_S, watchdog_interval

PET_EVERY_S = 0.05
"""Half the watchdog time the test gives the daemon (WATCHDOG_USEC=100000)."""

DRIVER = textwrap.dedent(
    """
    import socket, sys, os, time
    from pathlib import Path
    from firmware_bridge.apps.daemon import run_daemon
    from firmware_bridge.runtime.table import Devices, sensor_board
    from hardware.oled import Oled, dummy_oled
    from hardware.pins import mock_pin_factory
    from hardware.signals import Signals

    STUCK = Path(sys.argv[2])

    class HangingBoard:
        '''The real board on mock pins, whose poll hangs while the STUCK file exists.'''

        def __init__(self, board):
            self.board = board
            self.cells = board.cells

        def poll(self, now):
            while STUCK.exists():
                time.sleep(0.01)
            return self.board.poll(now)

        def close(self):
            self.board.close()

    def display(profile):
        return Oled(dummy_oled(profile.oled))

    def inputs(profile, clock, oled):
        factory = mock_pin_factory()
        board = HangingBoard(sensor_board(profile, factory, clock))
        signals = Signals(profile.buzzer_pin, profile.led_pin, pin_factory=factory)
        # Tell the stand-in for systemd, on the same socket, when the devices are open.
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        s.sendto(b"TEST=devices-open", os.environ["NOTIFY_SOCKET"])
        s.close()
        return Devices(factory, oled, signals, board)

    sys.exit(run_daemon(Path(sys.argv[1]), sys.stdout, display, inputs))
    """
)


class Systemd:
    """The notify socket of a stand-in for systemd, recording what arrives and when."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.messages: list[tuple[float, str]] = []

    def wait_for(self, message: str, timeout: float) -> float:
        """Receive until ``message`` arrives; the time it came."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                break
            at = time.monotonic()
            for line in data.decode().splitlines():
                self.messages.append((at, line))
                if line == message:
                    return at
        raise AssertionError(f"no {message} within {timeout} s; got {self.names()}")

    def collect(self, seconds: float) -> list[tuple[float, str]]:
        """Everything that arrives during the next ``seconds``."""
        got: list[tuple[float, str]] = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                break
            got += [(time.monotonic(), line) for line in data.decode().splitlines()]
        self.messages += got
        return got

    def names(self) -> list[str]:
        return [m for _, m in self.messages]

    def close(self) -> None:
        self.sock.close()


def write_config(tmp_path: Path) -> Path:
    config = tmp_path / "tabletop.toml"
    config.write_text(
        'profile = "double-take-gpio"\n'
        f'journal = "{tmp_path / "journal.sqlite"}"\n'
        'game = "double-take"\nplayers = 2\nseed = 5\nlog_level = "WARNING"\n',
        encoding="utf-8",
    )
    return config


def test_the_loop_pets_the_watchdog_and_stops_petting_when_it_is_stuck(tmp_path: Path) -> None:
    systemd = Systemd(tmp_path / "notify")
    stuck = tmp_path / "stuck"
    env = dict(os.environ, NOTIFY_SOCKET=str(systemd.path), WATCHDOG_USEC="100000")
    daemon = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(write_config(tmp_path)), str(stuck)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        systemd.wait_for("READY=1", timeout=60)
        assert systemd.names().index("TEST=devices-open") < systemd.names().index("READY=1")

        pings = [at for at, m in systemd.collect(1.0) if m == "WATCHDOG=1"]
        assert len(pings) >= 5, f"only {len(pings)} pings in 1 s"
        gaps = [b - a for a, b in itertools.pairwise(pings)]
        assert max(gaps) < 0.5

        # The loop hangs: not one ping more while it is stuck.
        stuck.touch()
        systemd.collect(0.2)  # a ping already on its way may still arrive
        assert [m for _, m in systemd.collect(1.0) if m == "WATCHDOG=1"] == []

        # Unstuck, it pets again; SIGTERM stops it cleanly.
        stuck.unlink()
        systemd.wait_for("WATCHDOG=1", timeout=5)
        daemon.send_signal(signal.SIGTERM)
        systemd.wait_for("STOPPING=1", timeout=10)
        out, err = daemon.communicate(timeout=10)
        assert daemon.returncode == 0, err
        assert "running on double-take-gpio" in out
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.communicate()
        systemd.close()


@pytest.mark.parametrize(
    ("text", "status", "named"),
    [
        ('profile = "no-such-board"\n', 78, "no-such-board"),
        ('profile = "double-take-gpio"\njournal = "{tmp}/file/journal.sqlite"\n', 73, "/file"),
    ],
)
def test_config_and_journal_errors_exit_so_systemd_does_not_restart(
    tmp_path: Path, text: str, status: int, named: str
) -> None:
    (tmp_path / "file").write_text("a file where the journal's folder should be")
    config = tmp_path / "tabletop.toml"
    config.write_text(text.format(tmp=tmp_path), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "firmware_bridge.apps.cli", "run", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == status, done.stderr
    assert named in done.stderr and "Traceback" not in done.stderr
    unit = (Path(__file__).parents[2] / "firmware_bridge/systemd/tabletop.service").read_text()
    assert "RestartPreventExitStatus=73 78" in unit


@pytest.mark.parametrize(
    ("usec", "every"),
    [(None, WATCHDOG_EVERY_S), ("30000000", WATCHDOG_EVERY_S), ("2000000", 1.0), ("x", 5.0)],
)
def test_the_watchdog_is_petted_at_half_systemds_interval_at_most(
    usec: str | None, every: float
) -> None:
    environ = {} if usec is None else {"WATCHDOG_USEC": usec}
    assert watchdog_interval(environ) == every
