"""Framing: the byte stream split into packets, each checked by COBS and its CRC.

A packet travels as ``0x00, COBS(header + payload + CRC-16), 0x00``. The trailing
zero ends it; the leading zero ends whatever half frame a glitch or a reconnect
left in the receiver, so the next good frame is never lost.
"""

from __future__ import annotations

import binascii

from cobs import cobs

from firmware_bridge.link.errors import FrameError

HEADER_LEN = 4
CRC_LEN = 2
MAX_PACKET = 256
"""Longest packet (header, payload and CRC) either end sends or accepts."""
MAX_ENCODED = MAX_PACKET + MAX_PACKET // 254 + 1
"""Longest COBS-encoded packet, delimiters excluded."""


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection)."""
    return binascii.crc_hqx(data, 0xFFFF)


def wrap(body: bytes) -> bytes:
    """The wire bytes of one packet whose header and payload are ``body``."""
    if len(body) + CRC_LEN > MAX_PACKET:
        raise ValueError(f"a packet of {len(body) + CRC_LEN} bytes exceeds {MAX_PACKET}")
    packet = body + crc16(body).to_bytes(2, "big")
    encoded: bytes = cobs.encode(packet)
    return b"\x00" + encoded + b"\x00"


def unwrap(encoded: bytes) -> bytes:
    """Header and payload of one encoded packet (no delimiters), checked by its CRC."""
    try:
        packet: bytes = cobs.decode(encoded)
    except cobs.DecodeError as exc:
        raise FrameError(f"not valid COBS: {exc}") from None
    if len(packet) < HEADER_LEN + CRC_LEN:
        raise FrameError(f"a packet of {len(packet)} bytes is shorter than a header and CRC")
    body = packet[:-CRC_LEN]
    if crc16(body) != int.from_bytes(packet[-CRC_LEN:], "big"):
        raise FrameError("CRC mismatch")
    return body


class Deframer:
    """Splits a byte stream at zero bytes; drops chunks longer than any packet."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overlong = False
        self.overlong = 0
        """Chunks dropped for being longer than :data:`MAX_ENCODED`."""

    def reset(self) -> None:
        """Forget a half-received frame (after a reconnect)."""
        self._buffer.clear()
        self._overlong = False

    def feed(self, data: bytes) -> list[bytes]:
        """The complete non-empty chunks ``data`` finishes, in order."""
        chunks: list[bytes] = []
        start = 0
        while True:
            end = data.find(0, start)
            piece = data[start:] if end < 0 else data[start:end]
            if not self._overlong:
                self._buffer += piece
                if len(self._buffer) > MAX_ENCODED:
                    self._overlong = True
                    self._buffer.clear()
            if end < 0:
                return chunks
            if self._overlong:
                self.overlong += 1
            elif self._buffer:
                chunks.append(bytes(self._buffer))
            self._buffer.clear()
            self._overlong = False
            start = end + 1
