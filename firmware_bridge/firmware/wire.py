"""The link protocol, firmware side: COBS framing, CRC-16 and packets.

docs/protocol.md is the reference. Kept free of anything MicroPython lacks, so the
same file runs on the Pico and under CPython.
"""

PROTOCOL_VERSION = 4
FIRMWARE_VERSION = (4, 0, 0)

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

SENSOR_OCCUPANCY = 0
SENSOR_RFID = 1
SENSOR_OCCUPANCY_RFID = 2
SENSOR_CODES = {"occupancy": 0, "rfid": 1, "occupancy+rfid": 2}

ERR_BAD_FRAME = 1
ERR_UNKNOWN_TYPE = 2
ERR_VERSION = 3
ERR_READER = 4
ERR_LEDS = 5

# An antenna read's answer: its status, and the UIDs the antenna saw.
SEEN_OK = 0
SEEN_NO_ANTENNA = 1  # no such antenna, or no row and column antennas on this board
SEEN_READER = 2  # the reader failed (ERR_READER says why)
UID_LEN = 8  # an ISO/IEC 15693 UID
# UIDs in one answer at most: 5 + 24 x 8 = 197 bytes; an antenna runs over 17 squares.
MAX_SEEN = 24

HEADER_LEN = 4
CRC_LEN = 2
MAX_PACKET = 256
MAX_ENCODED = MAX_PACKET + MAX_PACKET // 254 + 1
MAX_TAG = 10
SNAPSHOT_HEAD = 9
# Bytes of cell entries per snapshot part: short parts survive a noisy line.
SNAPSHOT_BUDGET = 64
LED_HEAD = 8
LED_RUN = 6
# Runs of LEDs per LED message: 60 bytes, as short as a snapshot part.
LED_RUNS = 10


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_CRC_TABLE = _crc_table()


def crc16(data):
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection."""
    crc = 0xFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data):
    """COBS-encode ``data``: the result holds no zero byte."""
    out = bytearray(1)
    code_at = 0
    code = 1
    n = len(data)
    for i in range(n):
        byte = data[i]
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF and i + 1 < n:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return out


def cobs_decode(data):
    """Undo :func:`cobs_encode`; None when ``data`` is not valid COBS.

    ``data`` holds no zero byte: the deframer split the stream on them.
    """
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0 or i + code > n:
            return None
        out.extend(data[i + 1 : i + code])
        i += code
        if code != 0xFF and i < n:
            out.append(0)
    return out


def frame(mtype, seq, payload=b""):
    """One packet as sent on the wire: 0x00, COBS(header, payload, CRC), 0x00."""
    packet = bytearray(HEADER_LEN)
    packet[0] = PROTOCOL_VERSION
    packet[1] = mtype
    packet[2] = (seq >> 8) & 0xFF
    packet[3] = seq & 0xFF
    packet.extend(payload)
    crc = crc16(packet)
    packet.append(crc >> 8)
    packet.append(crc & 0xFF)
    out = bytearray(1)
    out.extend(cobs_encode(packet))
    out.append(0)
    return out


def hello_payload(rows, columns, sensor_code, events=0):
    """``events``: the number of the last cell event sent (0 when none since boot)."""
    major, minor, patch = FIRMWARE_VERSION
    return bytes((major, minor, patch, rows, columns, sensor_code, events >> 8, events & 0xFF))


def _entry(value):
    # One cell: 0 empty, 1 present without a tag, 1 + n then n bytes of tag.
    if value is None:
        return b"\x00"
    return bytes((1 + len(value),)) + value


def cell_payload(index, value, number=0, gap_ms=0):
    """Cell event ``number``; ``value`` is None (absent), b"" (present) or the tag bytes;
    ``gap_ms`` how long before the new value was first read the old one was last read."""
    gap_ms = min(gap_ms, 0xFFFF)
    out = bytearray(
        (
            (index >> 8) & 0xFF,
            index & 0xFF,
            (number >> 8) & 0xFF,
            number & 0xFF,
            gap_ms >> 8,
            gap_ms & 0xFF,
        )
    )
    if value is None:
        out.extend(b"\x00\x00")
    else:
        out.append(1)
        out.append(len(value))
        out.extend(value)
    return out


def snapshot_payloads(snap_id, values, events=0):
    """The payloads of one snapshot as it is after cell event ``events``; each part
    stands alone and carries at most SNAPSHOT_BUDGET bytes of cells."""
    budget = SNAPSHOT_BUDGET
    total = len(values)
    parts = []
    first = 0
    while True:
        body = bytearray()
        count = 0
        while first + count < total:
            entry = _entry(values[first + count])
            if len(body) + len(entry) > budget:
                break
            body.extend(entry)
            count += 1
        head = bytearray((snap_id & 0xFF, (events >> 8) & 0xFF, events & 0xFF))
        head.extend((total >> 8, total & 0xFF, first >> 8, first & 0xFF))
        head.append(count >> 8)
        head.append(count & 0xFF)
        head.extend(body)
        parts.append(head)
        first += count
        if first >= total:
            return parts


def sync_done_payload(token, events=0):
    """The answer to sync request ``token`` (its 2 payload bytes), after cell event ``events``."""
    return bytes((token[0], token[1], (events >> 8) & 0xFF, events & 0xFF))
def info_payload(versions, sweep_ms, loop_ms):
    """The board's census: each reader's VersionReg (none on a board of switches),
    the time of its last full sweep and its longest loop pass since the last one."""
    out = bytearray((len(versions),))
    out.extend(bytes(versions))
    for ms in (sweep_ms, loop_ms):
        ms = min(max(ms, 0), 0xFFFF)
        out.append(ms >> 8)
        out.append(ms & 0xFF)
    return out


def led_set_fields(payload):
    """(token bytes, pin, LEDs in the chain, budget mA, runs) of an LED message, or None
    when the payload does not fit its layout; runs are (first, count, r, g, b) and
    every run lies inside the chain."""
    n = len(payload)
    if n < LED_HEAD or n != LED_HEAD + LED_RUN * payload[7]:
        return None
    count = (payload[3] << 8) | payload[4]
    budget = (payload[5] << 8) | payload[6]
    runs = []
    at = LED_HEAD
    while at < n:
        first = (payload[at] << 8) | payload[at + 1]
        size = payload[at + 2]
        if size == 0 or first + size > count:
            return None
        runs.append((first, size, payload[at + 3], payload[at + 4], payload[at + 5]))
        at += LED_RUN
    return payload[0:2], payload[2], count, budget, runs


def led_ack_payload(token, check, share):
    """The answer to LED message ``token`` (its 2 payload bytes): the CRC of the chain's
    colours as set and the share of them the current budget lets through (0-100 %)."""
    return bytes((token[0], token[1], check >> 8, check & 0xFF, share))


def antenna_read_fields(payload):
    """(token bytes, antenna) of an antenna read, or None when the payload is not its
    3 bytes."""
    if len(payload) != 3:
        return None
    return payload[0:2], payload[2]


def antenna_seen_payload(token, antenna, status, uids=()):
    """The answer to antenna read ``token``: the antenna, its status and the 8-byte
    UIDs it saw (at most MAX_SEEN; none unless the status is SEEN_OK)."""
    out = bytearray((token[0], token[1], antenna, status, 0))
    count = 0
    for uid in uids:
        if count < MAX_SEEN and len(uid) == UID_LEN:
            out.extend(uid)
            count += 1
    out[4] = count
    return out


def error_payload(code, text):
    return bytes((code,)) + text.encode()[:64]


class Deframer:
    """Splits the incoming byte stream at zero bytes into checked packets.

    ``feed`` returns (type, seq, payload) for each good packet; anything else is
    counted in ``bad`` and ``foreign`` (a good packet of another protocol version).
    """

    def __init__(self):
        self._buf = bytearray()
        self._overflow = False
        self.bad = 0
        self.foreign = 0

    def feed(self, data):
        packets = []
        for byte in data:
            if byte != 0:
                if len(self._buf) < MAX_ENCODED:
                    self._buf.append(byte)
                else:
                    self._overflow = True
                continue
            if self._overflow:
                self.bad += 1
            elif self._buf:
                packet = self._check(self._buf)
                if packet is not None:
                    packets.append(packet)
            self._buf = bytearray()
            self._overflow = False
        return packets

    def _check(self, encoded):
        packet = cobs_decode(encoded)
        if packet is None or len(packet) < HEADER_LEN + CRC_LEN:
            self.bad += 1
            return None
        body = packet[:-CRC_LEN]
        if crc16(body) != (packet[-2] << 8) | packet[-1]:
            self.bad += 1
            return None
        if body[0] != PROTOCOL_VERSION:
            self.foreign += 1
            return None
        return (body[1], (body[2] << 8) | body[3], bytes(body[HEADER_LEN:]))
