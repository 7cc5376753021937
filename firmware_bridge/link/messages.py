"""The messages of the link protocol, as values (``codec.py`` lays them out in
packets; docs/protocol.md). A cell's reading is None when the cell is
empty, ``b""`` when it holds a piece with no tag read, else the tag's UID bytes.
"""

from __future__ import annotations

from enum import IntEnum

from msgspec import Struct

PROTOCOL_VERSION = 4
MAX_TAG = 10
"""Longest UID (ISO 14443-A triple size)."""
MAX_ERROR_TEXT = 64
"""Longest text of an error report, in UTF-8 bytes."""

Reading = bytes | None


class MessageType(IntEnum):
    HELLO = 0x01
    CELL = 0x02
    SNAPSHOT = 0x03
    SNAPSHOT_REQUEST = 0x04
    PING = 0x05
    PONG = 0x06
    ERROR = 0x07
    SYNC_REQUEST = 0x08
    SYNC_DONE = 0x09
    INFO = 0x0A
    LED_SET = 0x0B
    LED_ACK = 0x0C
    ANTENNA_READ = 0x0D
    ANTENNA_SEEN = 0x0E


SENSOR_KINDS: tuple[str, ...] = ("occupancy", "rfid", "occupancy+rfid")


class ErrorCode(IntEnum):
    BAD_FRAME = 1
    UNKNOWN_TYPE = 2
    VERSION = 3
    READER = 4
    LEDS = 5


class Hello(Struct, frozen=True):
    """The board introduces itself (sent at boot and before a requested snapshot).

    ``events`` is the number of the last cell event it sent (0 when none since boot).
    """

    firmware: tuple[int, int, int]
    rows: int
    columns: int
    sensor: str
    events: int = 0

    @property
    def firmware_text(self) -> str:
        return ".".join(str(part) for part in self.firmware)


class ForeignHello(Struct, frozen=True):
    """A hello of another protocol version: only its firmware version is readable."""

    protocol: int
    firmware: tuple[int, int, int]

    @property
    def firmware_text(self) -> str:
        return ".".join(str(part) for part in self.firmware)


class CellEvent(Struct, frozen=True):
    """One cell's debounced reading changed.

    ``number`` counts the board's cell events (from 1 at boot, wrapping at 65536),
    so the host knows when one was lost; ``gap_ms`` is how long before the first
    reading of the new value the cell was last read with the old one: the change
    happened somewhere in that gap.
    """

    cell: int
    reading: Reading
    number: int = 0
    gap_ms: int = 0


class SnapshotPart(Struct, frozen=True):
    """Cells ``first`` onwards of snapshot ``snapshot_id`` of a board of ``total`` cells,
    as they were after cell event number ``events``. Each part stands alone."""

    snapshot_id: int
    total: int
    first: int
    readings: tuple[Reading, ...]
    events: int = 0


class SnapshotRequest(Struct, frozen=True):
    """Host to board: send hello and a full snapshot."""


class Ping(Struct, frozen=True):
    token: int


class Pong(Struct, frozen=True):
    token: int


class SyncRequest(Struct, frozen=True):
    """Host to board: answer with ``token`` once a sweep that began after this arrived
    is done and its cell events are sent."""

    token: int


class SyncDone(Struct, frozen=True):
    """Board to host: the sweep asked for by sync request ``token`` is done; ``events``
    is the number of the last cell event sent before this answer."""

    token: int
    events: int = 0


class BoardError(Struct, frozen=True):
    """The board reports a problem (a bad request, a reader that does not answer)."""

    code: int
    text: str


class BoardInfo(Struct, frozen=True):
    """The board's census, after each snapshot: every reader's VersionReg (none on a
    board of switches), how long its last full sweep took and its longest loop pass."""

    versions: tuple[int, ...]
    sweep_ms: int
    loop_ms: int


RGB = tuple[int, int, int]


class LedRun(Struct, frozen=True):
    """``count`` LEDs of the chain from ``first`` on, all set to ``rgb``."""

    first: int
    count: int
    rgb: RGB


class LedSet(Struct, frozen=True):
    """Host to board: drive a chain of ``leds`` LEDs on GPIO ``pin`` within
    ``budget_ma`` and set these runs of them (colours already scaled by the
    brightness); answered by an :class:`LedAck` with the same ``token`` once shown.
    No runs: only the ack is asked for (a check of the chain)."""

    token: int
    pin: int
    leds: int
    budget_ma: int
    runs: tuple[LedRun, ...] = ()


class LedAck(Struct, frozen=True):
    """Board to host: LED message ``token`` is shown. ``check`` is the CRC-16 of the
    whole chain's colours as set (three bytes an LED, in chain order), ``share`` the
    % of their brightness the current budget let through."""

    token: int
    check: int
    share: int = 100


class SeenStatus(IntEnum):
    """How an antenna read went (:class:`AntennaSeen`)."""

    OK = 0
    NO_ANTENNA = 1
    """No such antenna, or the board has no row and column antennas."""
    READER = 2
    """The reader failed during the inventory (an ERR_READER error says why)."""


UID_LEN = 8
"""An ISO/IEC 15693 UID, as an antenna read answers it."""
MAX_SEEN = 24
"""UIDs one antenna read's answer carries at most."""


class AntennaRead(Struct, frozen=True):
    """Host to board: inventory antenna ``antenna`` (rows first, then columns) of a row
    and column RFID board and answer with an :class:`AntennaSeen` carrying ``token``."""

    token: int
    antenna: int


class AntennaSeen(Struct, frozen=True):
    """Board to host: what antenna read ``token`` found on ``antenna``: its status and
    the 8-byte UIDs the antenna saw (none unless the status is OK)."""

    token: int
    antenna: int
    status: int
    uids: tuple[bytes, ...] = ()


Message = (
    Hello
    | ForeignHello
    | CellEvent
    | SnapshotPart
    | SnapshotRequest
    | Ping
    | Pong
    | SyncRequest
    | SyncDone
    | BoardError
    | BoardInfo
    | LedSet
    | LedAck
    | AntennaRead
    | AntennaSeen
)


class Envelope(Struct, frozen=True):
    """A decoded packet: its sequence number and message."""

    seq: int
    message: Message
