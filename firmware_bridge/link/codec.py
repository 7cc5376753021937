"""The link protocol's packet layout: messages encoded into framed packets and decoded
back (docs/protocol.md).

Pure: bytes in, messages out, and back. A cell's reading is None when the cell is
empty, ``b""`` when it holds a piece with no tag read, else the tag's UID bytes.
"""

from __future__ import annotations

from firmware_bridge.link.errors import ForeignVersionError, FrameError
from firmware_bridge.link.framing import HEADER_LEN, unwrap, wrap
from firmware_bridge.link.messages import (
    MAX_ERROR_TEXT,
    MAX_SEEN,
    MAX_TAG,
    PROTOCOL_VERSION,
    RGB,
    SENSOR_KINDS,
    UID_LEN,
    AntennaRead,
    AntennaSeen,
    BoardError,
    BoardInfo,
    CellEvent,
    Envelope,
    ForeignHello,
    Hello,
    LedAck,
    LedRun,
    LedSet,
    Message,
    MessageType,
    Ping,
    Pong,
    Reading,
    SeenStatus,
    SnapshotPart,
    SnapshotRequest,
    SyncDone,
    SyncRequest,
)

_SNAPSHOT_HEAD = 9
SNAPSHOT_BUDGET = 64
"""Bytes of cell entries one snapshot part carries at most: short parts each stand a
fair chance on a noisy line (a 64-byte part survives a bit-error rate of 1e-3 about
half the time; a 250-byte one, one time in eight)."""
_HELLO_LEN = 8
_CELL_HEAD = 8
_LED_HEAD = 8
_LED_RUN = 6
LED_RUNS = 10
"""Runs of LEDs one LED message carries at most (60 bytes, as short as a snapshot part)."""
MAX_RUN = 255
"""LEDs in one run at most."""


def _entry(reading: Reading) -> bytes:
    if reading is None:
        return b"\x00"
    return bytes((1 + len(reading),)) + reading


def _check_tag(reading: Reading) -> None:
    if reading is not None and len(reading) > MAX_TAG:
        raise ValueError(f"a tag of {len(reading)} bytes is longer than {MAX_TAG}")


def _payload(message: Message) -> tuple[MessageType, bytes]:
    match message:
        case Hello(firmware, rows, columns, sensor, events):
            kind = SENSOR_KINDS.index(sensor)
            return MessageType.HELLO, bytes((*firmware, rows, columns, kind)) + _u16(events)
        case CellEvent(cell, reading, number, gap_ms):
            _check_tag(reading)
            state = b"\x00\x00" if reading is None else bytes((1, len(reading))) + reading
            head = _u16(cell) + _u16(number) + _u16(min(gap_ms, 0xFFFF))
            return MessageType.CELL, head + state
        case SnapshotPart(snapshot_id, total, first, readings, events):
            head = bytes((snapshot_id,)) + b"".join(
                _u16(n) for n in (events, total, first, len(readings))
            )
            for reading in readings:
                _check_tag(reading)
            return MessageType.SNAPSHOT, head + b"".join(_entry(r) for r in readings)
        case SnapshotRequest():
            return MessageType.SNAPSHOT_REQUEST, b""
        case Ping(token):
            return MessageType.PING, token.to_bytes(2, "big")
        case Pong(token):
            return MessageType.PONG, token.to_bytes(2, "big")
        case SyncRequest(token):
            return MessageType.SYNC_REQUEST, _u16(token)
        case SyncDone(token, events):
            return MessageType.SYNC_DONE, _u16(token) + _u16(events)
        case BoardError(code, text):
            return MessageType.ERROR, bytes((code,)) + text.encode()[:MAX_ERROR_TEXT]
        case BoardInfo(versions, sweep_ms, loop_ms):
            body = bytes((len(versions), *versions))
            return MessageType.INFO, body + _u16(min(sweep_ms, 0xFFFF)) + _u16(min(loop_ms, 0xFFFF))
        case LedSet(token, pin, leds, budget_ma, runs):
            if len(runs) > LED_RUNS:
                raise ValueError(f"{len(runs)} runs of LEDs in one message, at most {LED_RUNS}")
            head = _u16(token) + bytes((pin,)) + _u16(leds) + _u16(budget_ma) + bytes((len(runs),))
            body = b"".join(_u16(run.first) + bytes((run.count, *run.rgb)) for run in runs)
            return MessageType.LED_SET, head + body
        case LedAck(token, check, share):
            return MessageType.LED_ACK, _u16(token) + _u16(check) + bytes((share,))
        case AntennaRead(token, antenna):
            return MessageType.ANTENNA_READ, _u16(token) + bytes((antenna,))
        case AntennaSeen(token, antenna, status, uids):
            if len(uids) > MAX_SEEN or any(len(uid) != UID_LEN for uid in uids):
                raise ValueError(
                    f"an antenna read answers at most {MAX_SEEN} UIDs of {UID_LEN} bytes"
                )
            head = _u16(token) + bytes((antenna, status, len(uids)))
            return MessageType.ANTENNA_SEEN, head + b"".join(uids)
        case ForeignHello():
            raise ValueError("a foreign hello is only ever decoded, never sent")


def _u16(n: int) -> bytes:
    return (n & 0xFFFF).to_bytes(2, "big")


def encode(message: Message, seq: int) -> bytes:
    """The wire bytes (delimiters included) of ``message`` sent with sequence number ``seq``."""
    mtype, payload = _payload(message)
    header = bytes((PROTOCOL_VERSION, mtype)) + (seq & 0xFFFF).to_bytes(2, "big")
    return wrap(header + payload)


def snapshot_parts(
    snapshot_id: int, readings: list[Reading], events: int = 0
) -> list[SnapshotPart]:
    """A whole board's readings cut into parts of at most :data:`SNAPSHOT_BUDGET` bytes."""
    parts: list[SnapshotPart] = []
    first = 0
    while True:
        size = 0
        end = first
        while end < len(readings) and size + len(_entry(readings[end])) <= SNAPSHOT_BUDGET:
            size += len(_entry(readings[end]))
            end += 1
        cut = tuple(readings[first:end])
        parts.append(SnapshotPart(snapshot_id, len(readings), first, cut, events))
        first = end
        if first >= len(readings):
            return parts


def led_runs(changes: dict[int, RGB]) -> list[LedRun]:
    """The LEDs ``changes`` sets (index -> colour) as runs: neighbours of one colour
    share a run of at most :data:`MAX_RUN` LEDs."""
    runs: list[LedRun] = []
    for index in sorted(changes):
        rgb = changes[index]
        last = runs[-1] if runs else None
        if (
            last is not None
            and last.rgb == rgb
            and last.first + last.count == index
            and last.count < MAX_RUN
        ):
            runs[-1] = LedRun(last.first, last.count + 1, rgb)
        else:
            runs.append(LedRun(index, 1, rgb))
    return runs


def led_parts(changes: dict[int, RGB]) -> list[tuple[LedRun, ...]]:
    """``changes`` cut into the runs of as many LED messages as they need."""
    runs = led_runs(changes)
    return [tuple(runs[at : at + LED_RUNS]) for at in range(0, len(runs), LED_RUNS)]


def _get16(data: bytes, at: int) -> int:
    return int.from_bytes(data[at : at + 2], "big")


def _decode_payload(mtype: int, payload: bytes) -> Message:
    n = len(payload)
    if mtype == MessageType.HELLO:
        if n != _HELLO_LEN:
            raise FrameError(f"a hello has {_HELLO_LEN} payload bytes, not {n}")
        if payload[5] >= len(SENSOR_KINDS):
            raise FrameError(f"unknown sensor kind {payload[5]}")
        firmware = (payload[0], payload[1], payload[2])
        sensor = SENSOR_KINDS[payload[5]]
        return Hello(firmware, payload[3], payload[4], sensor, _get16(payload, 6))
    if mtype == MessageType.CELL:
        if n < _CELL_HEAD:
            raise FrameError(f"a cell event has at least {_CELL_HEAD} payload bytes, not {n}")
        state, size = payload[6], payload[7]
        if state > 1 or size > MAX_TAG or n != _CELL_HEAD + size or (state == 0 and size):
            raise FrameError("a cell event's state and tag length do not fit its size")
        reading = None if state == 0 else payload[_CELL_HEAD:]
        return CellEvent(_get16(payload, 0), reading, _get16(payload, 2), _get16(payload, 4))
    if mtype == MessageType.SNAPSHOT:
        if n < _SNAPSHOT_HEAD:
            raise FrameError(
                f"a snapshot part has at least {_SNAPSHOT_HEAD} payload bytes, not {n}"
            )
        events, total, first, count = (_get16(payload, at) for at in (1, 3, 5, 7))
        if first + count > total:
            raise FrameError(f"snapshot cells {first}+{count} run past the board's {total}")
        readings: list[Reading] = []
        at = _SNAPSHOT_HEAD
        for _ in range(count):
            if at >= n:
                raise FrameError("a snapshot part ends before its last cell")
            size = payload[at]
            if size > MAX_TAG + 1 or at + size > n:
                raise FrameError("a snapshot cell's tag runs past the part")
            readings.append(None if size == 0 else payload[at + 1 : at + size])
            at += max(size, 1)
        if at != n:
            raise FrameError("a snapshot part has bytes after its last cell")
        return SnapshotPart(payload[0], total, first, tuple(readings), events)
    if mtype == MessageType.SNAPSHOT_REQUEST:
        if n:
            raise FrameError("a snapshot request has no payload")
        return SnapshotRequest()
    if mtype in (MessageType.PING, MessageType.PONG):
        if n != 2:
            raise FrameError(f"a ping or pong has 2 payload bytes, not {n}")
        token = int.from_bytes(payload, "big")
        return Ping(token) if mtype == MessageType.PING else Pong(token)
    if mtype == MessageType.SYNC_REQUEST:
        if n != 2:
            raise FrameError(f"a sync request has 2 payload bytes, not {n}")
        return SyncRequest(_get16(payload, 0))
    if mtype == MessageType.SYNC_DONE:
        if n != 4:
            raise FrameError(f"a sync answer has 4 payload bytes, not {n}")
        return SyncDone(_get16(payload, 0), _get16(payload, 2))
    if mtype == MessageType.ERROR:
        if not 1 <= n <= 1 + MAX_ERROR_TEXT:
            raise FrameError(f"an error report has a code and up to {MAX_ERROR_TEXT} bytes of text")
        return BoardError(payload[0], payload[1:].decode("utf-8", "replace"))
    if mtype == MessageType.INFO:
        if n < 1 or n != 1 + payload[0] + 4:
            raise FrameError("a board info holds a count, that many versions and two times")
        count = payload[0]
        return BoardInfo(
            tuple(payload[1 : 1 + count]), _get16(payload, 1 + count), _get16(payload, 3 + count)
        )
    if mtype == MessageType.LED_SET:
        return _decode_led_set(payload)
    if mtype == MessageType.ANTENNA_READ:
        if n != 3:
            raise FrameError(f"an antenna read has 3 payload bytes, not {n}")
        return AntennaRead(_get16(payload, 0), payload[2])
    if mtype == MessageType.ANTENNA_SEEN:
        return _decode_antenna_seen(payload)
    if mtype == MessageType.LED_ACK:
        if n != 5:
            raise FrameError(f"an LED ack has 5 payload bytes, not {n}")
        if payload[4] > 100:
            raise FrameError(f"an LED ack's share is a percentage, not {payload[4]}")
        return LedAck(_get16(payload, 0), _get16(payload, 2), payload[4])
    raise FrameError(f"unknown message type {mtype}")


def _decode_led_set(payload: bytes) -> LedSet:
    n = len(payload)
    if n < _LED_HEAD or n != _LED_HEAD + _LED_RUN * payload[7]:
        raise FrameError("an LED message holds its head and the runs it counts")
    leds = _get16(payload, 3)
    runs: list[LedRun] = []
    for at in range(_LED_HEAD, n, _LED_RUN):
        first, count = _get16(payload, at), payload[at + 2]
        if count == 0 or first + count > leds:
            raise FrameError(f"LEDs {first}+{count} run past a chain of {leds}")
        runs.append(LedRun(first, count, (payload[at + 3], payload[at + 4], payload[at + 5])))
    return LedSet(_get16(payload, 0), payload[2], leds, _get16(payload, 5), tuple(runs))


def _decode_antenna_seen(payload: bytes) -> AntennaSeen:
    n = len(payload)
    if n < 5 or payload[4] > MAX_SEEN or n != 5 + UID_LEN * payload[4]:
        raise FrameError("an antenna read's answer holds its head and the UIDs it counts")
    status = payload[3]
    if status not in {s.value for s in SeenStatus} or (status != SeenStatus.OK and payload[4]):
        raise FrameError(f"an antenna read's answer has status {status} with {payload[4]} UIDs")
    uids = tuple(payload[at : at + UID_LEN] for at in range(5, n, UID_LEN))
    return AntennaSeen(_get16(payload, 0), payload[2], status, uids)


def decode_body(body: bytes) -> Envelope:
    """The envelope of a CRC-checked packet body (header and payload)."""
    version, mtype, seq = body[0], body[1], int.from_bytes(body[2:4], "big")
    payload = body[HEADER_LEN:]
    if version != PROTOCOL_VERSION:
        # The hello's first three bytes stay the firmware version in every protocol
        # version, so a mismatch can always name what the board runs.
        if mtype == MessageType.HELLO and len(payload) >= 3:
            return Envelope(seq, ForeignHello(version, (payload[0], payload[1], payload[2])))
        raise ForeignVersionError(
            f"a frame of protocol v{version}, expected v{PROTOCOL_VERSION}", version
        )
    return Envelope(seq, _decode_payload(mtype, payload))


def decode(encoded: bytes) -> Envelope:
    """The envelope of one encoded packet (the bytes between two zero delimiters)."""
    return decode_body(unwrap(encoded))
