"""The serial port to the board: opened by path, by-id name or pyserial URL, and
reopened with back-off whenever it goes away."""

from __future__ import annotations

import errno
import logging
import os
from collections.abc import Callable
from typing import Protocol

import serial

from firmware_bridge.link.errors import SerialPortError

log = logging.getLogger(__name__)

BY_ID = "/dev/serial/by-id"
BACKOFF_S: tuple[float, ...] = (0.2, 0.5, 1.0, 2.0, 4.0)
"""Waits between reconnection attempts; the last one repeats."""


class SerialPort(Protocol):
    """What the transport needs of a pyserial ``Serial``."""

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


Opener = Callable[[str, int], SerialPort]


def resolve_port(port: str) -> str:
    """A device path or URL for ``port``; a bare name is looked up in /dev/serial/by-id."""
    if "://" in port or "/" in port:
        return port
    candidate = os.path.join(BY_ID, port)
    if os.path.exists(candidate):
        return candidate
    return port


def open_serial(port: str, baudrate: int) -> SerialPort:
    """Open ``port`` without blocking reads; errors say what to check."""
    target = resolve_port(port)
    try:
        opened: SerialPort = serial.serial_for_url(
            target, baudrate=baudrate, timeout=0, write_timeout=1.0
        )
    except ValueError as exc:
        raise SerialPortError(
            f"cannot open serial port {port!r}: {exc}. Give a device path such as "
            f"/dev/ttyACM0, a name from {BY_ID} or a pyserial URL"
        ) from None
    except OSError as exc:
        raise SerialPortError(describe_open_error(port, exc)) from None
    return opened


def describe_open_error(port: str, exc: OSError) -> str:
    """A one-line reason the port would not open, with what to check."""
    code = exc.errno
    text = str(exc)
    if code == errno.ENOENT or "No such file" in text:
        return f"no serial port {port}: is the board plugged in? (see ls {BY_ID})"
    if code == errno.EACCES or "Permission denied" in text:
        return f"permission denied on {port}: add this user to the dialout group"
    if code == errno.EBUSY or "busy" in text.lower():
        return f"{port} is busy: another program has it open"
    return f"cannot open {port}: {text}"


def short_hint(reason: str) -> str:
    """What to do about ``reason``, short enough for the OLED."""
    if "permission denied" in reason:
        return "add the user to the dialout group"
    if "is busy" in reason:
        return "another program has the port"
    return "check the USB cable"


class SerialTransport:
    """A serial port that reconnects itself.

    ``read`` and ``write`` never raise: a failure closes the port, and ``open_due``
    attempts reopen it on a back-off schedule. ``generation`` counts the opens,
    so the owner can tell a fresh connection (and must resynchronise) from the
    one it had.
    """

    def __init__(
        self,
        port: str,
        baudrate: int = 115200,
        *,
        opener: Opener = open_serial,
        backoff_s: tuple[float, ...] = BACKOFF_S,
    ) -> None:
        if not backoff_s or min(backoff_s) <= 0:
            raise ValueError("the reconnect back-off needs at least one positive delay")
        self.port = port
        self.baudrate = baudrate
        self._opener = opener
        self._backoff = backoff_s
        self._serial: SerialPort | None = None
        self._failures = 0
        self._next_attempt = float("-inf")
        self.generation = 0
        self.last_error = "not opened yet"
        self.hint = "connecting"
        """A few words for the OLED: what to do about ``last_error``."""

    @property
    def is_open(self) -> bool:
        return self._serial is not None

    def open_due(self, now: float) -> bool:
        """Try to open the port if closed and the back-off allows; True when it opened."""
        if self._serial is not None or now < self._next_attempt:
            return False
        try:
            self._serial = self._opener(self.port, self.baudrate)
        except SerialPortError as exc:
            self._fail(now, str(exc))
            return False
        except (OSError, ValueError) as exc:
            self._fail(now, describe_open_error(self.port, OSError(str(exc))))
            return False
        self._failures = 0
        self.generation += 1
        log.info("serial port %s open", self.port)
        return True

    def _fail(self, now: float, reason: str) -> None:
        delay = self._backoff[min(self._failures, len(self._backoff) - 1)]
        self._failures += 1
        self._next_attempt = now + delay
        if reason != self.last_error:
            log.warning("%s; retrying in %.1f s", reason, delay)
        self.last_error = reason
        self.hint = short_hint(reason)

    def lose(self, now: float, reason: str) -> None:
        """Close the port after a failure; the next attempt follows the back-off."""
        if self._serial is not None:
            try:
                self._serial.close()
            except (OSError, ValueError) as exc:
                log.debug("closing %s after a failure: %s", self.port, exc)
            self._serial = None
        self._fail(now, reason)

    def read(self, now: float, size: int = 4096) -> bytes:
        """Whatever bytes are waiting (possibly none)."""
        if self._serial is None:
            return b""
        try:
            return bytes(self._serial.read(size))
        except (OSError, ValueError, TypeError) as exc:
            # pyserial raises SerialException (an OSError) on unplug; some
            # drivers raise TypeError from a closed file descriptor.
            self.lose(now, f"the board on {self.port} went away ({exc})")
            return b""

    def write(self, now: float, data: bytes) -> bool:
        """Send ``data``; False (and the port closed) when it could not."""
        if self._serial is None:
            return False
        try:
            self._serial.write(data)
        except (OSError, ValueError, TypeError) as exc:
            self.lose(now, f"the board on {self.port} went away ({exc})")
            return False
        return True

    def close(self) -> None:
        if self._serial is not None:
            self._serial.close()
            self._serial = None
