"""Errors of the link to the board's microcontroller."""

from __future__ import annotations


class LinkError(Exception):
    """Something is wrong with the serial link to the sensor board."""


class FrameError(LinkError, ValueError):
    """A frame failed a check (COBS, length, CRC, header or payload layout)."""


class ForeignVersionError(FrameError):
    """A frame passed its CRC but carries another protocol version."""

    def __init__(self, message: str, version: int) -> None:
        super().__init__(message)
        self.version = version


class ProtocolVersionError(LinkError, RuntimeError):
    """The board's firmware speaks another protocol version; the message says what to install."""


class BoardMismatchError(LinkError, ValueError):
    """The board announced a size or sensor kind the profile does not describe."""


class SerialPortError(LinkError, OSError):
    """The serial port could not be opened or used; the message says what to check."""
