"""Real tools for the spectator tests: free ports, tabletop processes, Mosquitto, Chromium.

A test needing a tool that is missing fails when CI=true (CI installs them) and
is skipped otherwise.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

MOSQUITTO = "/usr/sbin/mosquitto"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def need(path: str, package: str) -> str:
    """``path`` if it is there; else fail under CI, skip elsewhere."""
    found = path if os.access(path, os.X_OK) else shutil.which(Path(path).name)
    if found:
        return found
    message = f"{path} is missing: apt-get install {package}"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def board_state(**changes: Any) -> dict[str, Any]:
    """A board's state message with what the hub's pages draw, with ``changes``."""
    state = {
        "journal_game": 1,
        "moves_played": 0,
        "title": "Double Take",
        "seats": ["Red", "Green"],
        "scores": {"Red": 0, "Green": 0},
        "layout": {},
    }
    return {**state, **changes}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(
    port: int, timeout: float = 20.0, proc: subprocess.Popen[Any] | None = None
) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"process ended early with code {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port} after {timeout} s")


def tabletop(*args: str, **kw: Any) -> subprocess.Popen[str]:
    """``tabletop ARGS`` as a child process of this Python."""
    return subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.apps.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


def stop(proc: subprocess.Popen[Any]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.load(r)


class Broker:
    """A private Mosquitto on a free port, that can be stopped and started again."""

    def __init__(self, exe: str, workdir: Path) -> None:
        self.exe = exe
        self.port = free_port()
        self.conf = workdir / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n",
            encoding="utf-8",
        )
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.exe, "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        wait_for_port(self.port, 10, self.proc)

    def stop(self) -> None:
        if self.proc is not None:
            stop(self.proc)
            self.proc = None


@contextlib.contextmanager
def mosquitto() -> Iterator[Broker]:
    exe = need(MOSQUITTO, "mosquitto")
    with tempfile.TemporaryDirectory(prefix="tabletop-mqtt-") as tmp:
        broker = Broker(exe, Path(tmp))
        broker.start()
        try:
            yield broker
        finally:
            broker.stop()


@contextlib.contextmanager
def chromium(width: int = 1100, height: int = 800) -> Iterator[Any]:
    """A real headless Chromium driven by Selenium."""
    browser = need(CHROMIUM, "chromium")
    driver_exe = need(CHROMEDRIVER, "chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="tabletop-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for flag in (
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
        ):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(driver_exe), options=options)
        try:
            yield driver
        finally:
            driver.quit()
