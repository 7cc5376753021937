"""Who is at the other end of the link: the board's hello checked against the
profile, and frames of another protocol version told from line noise."""

from __future__ import annotations

import logging

from msgspec import Struct

from firmware_bridge.link.errors import BoardMismatchError, ProtocolVersionError
from firmware_bridge.link.messages import PROTOCOL_VERSION, ForeignHello, Hello
from wiring.profile import SerialWiring

log = logging.getLogger(__name__)

FOREIGN_CONFIRM = 3
"""Frames of one other protocol version, with none of ours between them, that make a
version change believable (a hello counts as one): one alone may be line noise."""

FIRMWARE_HINT = (
    "copy the files of firmware_bridge/firmware/ from this tabletop to the Pico with "
    "mpremote (see docs/firmware.md)"
)


class ForeignFrames(Struct):
    """The run of frames of another protocol version seen with none of ours between."""

    version: int = 0
    run: int = 0
    hello: ForeignHello | None = None

    def ours(self) -> None:
        """A frame of our version arrived: the run is broken."""
        self.run = 0
        self.hello = None

    def count(self, version: int, hello: ForeignHello | None) -> None:
        """Count a frame of another protocol version; raise once a change is believable.

        A hello repeated, or followed by frames of its version, with no frame of
        ours between, is a board of another version; one alone may be noise that
        happened to pass its CRC, and the board is asked to introduce itself again.
        """
        if version != self.version:
            self.version = version
            self.run = 0
            self.hello = None
        self.run += 1
        repeated = hello is not None and hello == self.hello
        if hello is not None:
            self.hello = hello
        if not repeated and self.run < FOREIGN_CONFIRM:
            log.warning("a frame of link protocol v%d: line noise, or another firmware?", version)
            return
        known = self.hello
        board = (
            f"the board's firmware {known.firmware_text} speaks"
            if known is not None
            else "the board speaks"
        )
        raise ProtocolVersionError(
            f"{board} link protocol v{version}, this tabletop speaks v{PROTOCOL_VERSION}: "
            f"{FIRMWARE_HINT}"
        )


def check_hello(hello: Hello, wiring: SerialWiring) -> None:
    """Refuse a board whose size or sensor differs from the profile's, saying which to fix."""
    wanted_rfid = wiring.sensor == "rfid"
    has_rfid = hello.sensor != "occupancy"
    if (hello.rows, hello.columns) != (wiring.rows, wiring.columns):
        raise BoardMismatchError(
            f"the board on {wiring.port} is {hello.rows}×{hello.columns} but the "
            f"profile says {wiring.rows}×{wiring.columns}: fix ROWS and COLUMNS "
            "in the Pico's config.py or the profile's [serial] rows and columns"
        )
    if wanted_rfid != has_rfid:
        raise BoardMismatchError(
            f"the board on {wiring.port} reads {hello.sensor} but the profile "
            f"expects {wiring.sensor}: fix SENSOR in the Pico's config.py or the "
            "profile's [serial] sensor"
        )


def connected_message(hello: Hello) -> str:
    """What the table says when a board introduced itself."""
    return (
        f"Board connected: firmware {hello.firmware_text}, "
        f"{hello.rows}×{hello.columns} {hello.sensor}"
    )
