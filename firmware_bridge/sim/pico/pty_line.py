"""The line between the simulated Pico and the host: the firmware's end of the
pseudo-terminal, and the noise of a bad cable on it."""

from __future__ import annotations

import array
import fcntl
import math
import os
import random
import termios


class SimulatedBoardError(ValueError):
    """A scenario asked the simulated board for something it cannot do."""


class LineNoise:
    """A noisy cable: every bit that crosses it, either way, flips with probability
    ``bit_error_rate``, independently, from a seeded generator; and with probability
    ``cut_rate`` a write of the board (one frame) is cut short, the rest lost."""

    def __init__(self, seed: int, bit_error_rate: float, cut_rate: float = 0.0) -> None:
        for name, rate in (("bit-error rate", bit_error_rate), ("cut rate", cut_rate)):
            if not 0 <= rate < 1:
                raise SimulatedBoardError(f"a {name} is a probability below 1, not {rate}")
        self.bit_error_rate = bit_error_rate
        self.cut_rate = cut_rate
        self.cuts = 0
        self._rng = random.Random(seed)
        self.bits = 0
        """Bits that crossed the cable."""
        self.flipped = 0
        """Bits that were flipped."""
        self._until = self._next_gap()

    def _next_gap(self) -> int:
        # Bits to the next error: geometric, so errors fall as independent draws would.
        if self.bit_error_rate == 0:
            return -1
        return int(math.log(1.0 - self._rng.random()) / math.log(1.0 - self.bit_error_rate))

    def damage(self, data: bytes) -> bytes:
        """``data`` as it arrives at the other end."""
        bits = len(data) * 8
        self.bits += bits
        if self._until < 0:
            return data
        out = bytearray(data)
        at = self._until
        while at < bits:
            out[at // 8] ^= 1 << (at % 8)
            self.flipped += 1
            at += 1 + self._next_gap()
        self._until = at - bits
        return bytes(out)

    def cut(self, frame: bytes) -> bytes:
        """``frame`` cut short at a random point, now and then (``cut_rate``)."""
        if self.cut_rate and len(frame) > 1 and self._rng.random() < self.cut_rate:
            self.cuts += 1
            return frame[: self._rng.randrange(1, len(frame))]
        return frame


def pending(fd: int | None) -> int:
    """Bytes waiting to be read at ``fd`` (0 once it is closed)."""
    if fd is None:
        return 0
    count = array.array("i", [0])
    try:
        fcntl.ioctl(fd, termios.FIONREAD, count)
    except OSError:
        return 0
    return count[0]


class PtyPort:
    """The firmware's end of the pty, non-blocking; bytes that do not fit are lost,
    as on a UART nobody reads. ``noise`` (optional) damages what crosses it."""

    def __init__(self, master: int, noise: LineNoise | None = None) -> None:
        self.master = master
        self.noise = noise
        self.dropped = 0
        self.sent = 0
        """Bytes written into the pty so far."""
        self.held: list[bytes] | None = None
        """While a timed pass runs: what it wrote, sent once the pass is over."""

    def read(self) -> bytes:
        try:
            data = os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            # EIO while no one holds the other end open: nothing to read.
            return b""
        return self.noise.damage(data) if self.noise is not None else data

    def write(self, data: bytes) -> None:
        if self.held is not None:
            self.held.append(bytes(data))
            return
        self.send(bytes(data))

    def send(self, data: bytes) -> None:
        """Put ``data`` on the wire now."""
        if self.noise is not None:
            data = self.noise.damage(self.noise.cut(bytes(data)))
        try:
            written = os.write(self.master, bytes(data))
        except (BlockingIOError, OSError):
            written = 0
        self.sent += written
        self.dropped += len(data) - written
