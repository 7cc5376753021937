"""The link protocol's encoder and decoder, on byte fixtures (docs/protocol.md)."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from cobs import cobs
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.link.codec import decode, encode, snapshot_parts
from firmware_bridge.link.errors import ForeignVersionError, FrameError
from firmware_bridge.link.framing import MAX_PACKET, crc16, wrap
from firmware_bridge.link.messages import (
    BoardError,
    CellEvent,
    Envelope,
    ForeignHello,
    Hello,
    LedAck,
    LedRun,
    LedSet,
    Ping,
    Pong,
    SnapshotPart,
    SnapshotRequest,
    SyncDone,
    SyncRequest,
)

# The firmware is untyped MicroPython, outside mypy: imported by name.
wire: Any = importlib.import_module("firmware_bridge.firmware.wire")


FIXTURES = [
    (
        Hello((4, 0, 0), 15, 15, "occupancy", 0),
        0,
        "00 03 04 01 01 02 04 01 03 0f 0f 01 01 03 ef 1e 00",
    ),
    (
        CellEvent(17, bytes.fromhex("04a224b2"), 12, 40),
        5,
        "00 03 04 02 02 05 02 11 02 0c 0a 28 01 04 04 a2 24 b2 ba e0 00",
    ),
    (CellEvent(224, None, 13, 3), 258, "00 05 04 02 01 02 02 e0 02 0d 02 03 01 03 e0 75 00"),
    (SnapshotRequest(), 7, "00 03 04 04 04 07 e2 16 00"),
    (SyncRequest(0x1234), 8, "00 03 04 08 06 08 12 34 b0 fb 00"),
    (SyncDone(0x1234, 13), 14, "00 03 04 09 04 0e 12 34 04 0d e4 30 00"),
    (
        SnapshotPart(3, 4, 0, (None, b"", bytes.fromhex("0102030405060708"), None), 13),
        9,
        "00 03 04 03 03 09 03 02 0d 02 04 01 01 02 04 0b 01 09 01 02 03 04 05 06 07 08 03 8b 78 00",
    ),
    (
        LedSet(0x0102, 15, 225, 2000, (LedRun(0, 3, (0, 0, 0)), LedRun(17, 1, (58, 40, 0)))),
        10,
        "00 03 04 0b 05 0a 01 02 0f 05 e1 07 d0 02 01 02 03 01 01 01 05 11 01 3a 28 03 ae 58 00",
    ),
    (LedAck(0x0102, 0xBEEF, 100), 15, "00 03 04 0c 09 0f 01 02 be ef 64 de 40 00"),
]


def _inner(frame: bytes) -> bytes:
    assert frame[0] == 0 and frame[-1] == 0
    return frame[1:-1]


@pytest.mark.parametrize(("message", "seq", "wire_hex"), FIXTURES)
def test_encoder_writes_the_fixture_bytes(message: object, seq: int, wire_hex: str) -> None:
    assert encode(message, seq) == bytes.fromhex(wire_hex)  # type: ignore[arg-type]


@pytest.mark.parametrize(("message", "seq", "wire_hex"), FIXTURES)
def test_decoder_reads_the_fixture_bytes(message: object, seq: int, wire_hex: str) -> None:
    assert decode(_inner(bytes.fromhex(wire_hex))) == Envelope(seq, message)  # type: ignore[arg-type]


def test_crc_is_ccitt_false_on_both_ends() -> None:
    assert crc16(b"123456789") == 0x29B1
    assert wire.crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=600))
def test_firmware_cobs_matches_the_cobs_package(data: bytes) -> None:
    assert bytes(wire.cobs_encode(data)) == cobs.encode(data)
    assert bytes(wire.cobs_decode(cobs.encode(data))) == data


def test_firmware_frames_match_the_host_encoder() -> None:
    hello = wire.frame(wire.HELLO, 0, wire.hello_payload(15, 15, wire.SENSOR_OCCUPANCY))
    assert bytes(hello) == encode(Hello(wire.FIRMWARE_VERSION, 15, 15, "occupancy"), 0)
    tag = bytes.fromhex("04a224b2c35e80")
    assert bytes(wire.frame(wire.CELL, 65535, wire.cell_payload(224, tag, 65535, 70000))) == encode(
        CellEvent(224, tag, 65535, 65535), 65535
    )
    hello = wire.frame(wire.HELLO, 3, wire.hello_payload(3, 4, wire.SENSOR_RFID, 513))
    assert bytes(hello) == encode(Hello(wire.FIRMWARE_VERSION, 3, 4, "rfid", 513), 3)
    assert bytes(wire.frame(wire.CELL, 1, wire.cell_payload(3, b""))) == encode(
        CellEvent(3, b""), 1
    )


readings = st.one_of(st.none(), st.just(b""), st.binary(min_size=4, max_size=10))


@given(st.lists(readings, min_size=1, max_size=400), st.integers(0, 255), st.integers(0, 65535))
def test_snapshot_parts_match_and_fit_one_packet(
    values: list[bytes | None], sid: int, events: int
) -> None:
    host = snapshot_parts(sid, values, events)
    firmware = wire.snapshot_payloads(sid, values, events)
    assert len(host) == len(firmware)
    joined: list[bytes | None] = []
    for seq, (part, payload) in enumerate(zip(host, firmware, strict=True)):
        frame = encode(part, seq)
        assert bytes(wire.frame(wire.SNAPSHOT, seq, payload)) == frame
        assert len(cobs.decode(_inner(frame))) <= MAX_PACKET
        assert sum(max(1, 1 + len(r)) if r is not None else 1 for r in part.readings) <= 64
        assert decode(_inner(frame)).message == part
        joined.extend(part.readings)
    assert joined == values


@given(
    st.one_of(
        st.builds(
            Hello,
            st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)),
            st.integers(1, 255),
            st.integers(1, 255),
            st.sampled_from(["occupancy", "rfid", "occupancy+rfid"]),
        ),
        st.builds(CellEvent, st.integers(0, 65535), readings),
        st.builds(Ping, st.integers(0, 65535)),
        st.builds(Pong, st.integers(0, 65535)),
        st.builds(BoardError, st.integers(0, 255), st.text(max_size=20)),
        st.just(SnapshotRequest()),
        st.builds(LedAck, st.integers(0, 65535), st.integers(0, 65535), st.integers(0, 100)),
    ),
    st.integers(0, 65535),
)
def test_every_message_survives_a_round_trip(message: object, seq: int) -> None:
    assert decode(_inner(encode(message, seq))) == Envelope(seq, message)  # type: ignore[arg-type]


def _body(*parts: int) -> bytes:
    return _inner(wrap(bytes(parts)))


@pytest.mark.parametrize(
    "body",
    [
        (4, 2, 0, 0, 0, 1, 0, 1, 0, 0, 1, 2),  # present with a tag length but no tag bytes
        (4, 2, 0, 0, 0, 1, 0, 1, 0, 0, 0, 4),  # absent but a tag length
        (4, 2, 0, 0, 0, 1, 0, 1, 0, 0, 2, 0),  # state 2 does not exist
        (4, 2, 0, 0, 0, 1, 0, 1, 0, 0, 0),  # cell event one byte short
        (4, 1, 0, 0, 2, 0, 0, 15, 15, 0, 0),  # hello one byte short
        (4, 1, 0, 0, 2, 0, 0, 15, 15, 9, 0, 0),  # unknown sensor kind
        (4, 3, 0, 0, 1, 0, 0, 0, 4, 0, 3, 0, 2, 0, 0),  # snapshot cells past the board
        (4, 3, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0),  # snapshot with a stray byte
        (4, 3, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 5, 1),  # snapshot tag runs past the part
        (4, 3, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0),  # snapshot head one byte short
        (4, 99, 0, 0),  # unknown type
        (4, 4, 0, 0, 1),  # snapshot request with a payload
        (4, 7, 0, 0, 4, *b"x" * 65),  # error text longer than 64 bytes
        (4, 8, 0, 0, 1),  # sync request one byte short
        (4, 9, 0, 0, 1, 2, 3),  # sync answer one byte short
        (4, 11, 0, 0, 0, 1, 2, 0, 225, 7, 208, 1, 0, 0, 1, 9, 9),  # LED run one byte short
        (4, 11, 0, 0, 0, 1, 2, 0, 4, 7, 208, 1, 0, 3, 2, 9, 9, 9),  # LED run past the chain
        (4, 11, 0, 0, 0, 1, 2, 0, 4, 7, 208, 1, 0, 0, 0, 9, 9, 9),  # LED run of no LED
        (4, 11, 0, 0, 0, 1, 2, 0, 4, 7, 208),  # LED head one byte short
        (4, 12, 0, 0, 0, 1, 0, 0),  # LED ack one byte short
        (4, 12, 0, 0, 0, 1, 0, 0, 101),  # LED ack's share over 100 %
    ],
)
def test_decoder_rejects_a_payload_that_does_not_fit_its_type(body: tuple[int, ...]) -> None:
    with pytest.raises(FrameError) as caught:
        decode(_body(*body))
    assert not isinstance(caught.value, ForeignVersionError)


def test_decoder_rejects_a_flipped_bit_by_crc() -> None:
    frame = bytearray(_inner(bytes.fromhex(str(FIXTURES[1][2]))))
    frame[6] ^= 0x10  # a data byte of the cell number, not a COBS code
    with pytest.raises(FrameError, match="CRC"):
        decode(bytes(frame))


def test_a_hello_of_another_version_still_names_the_firmware() -> None:
    envelope = decode(_body(1, 1, 0, 0, 1, 0, 0, 15, 15, 0))
    assert envelope.message == ForeignHello(1, (1, 0, 0))
    envelope = decode(_body(5, 1, 0, 0, 5, 1, 4, 99, 99))
    assert envelope.message == ForeignHello(5, (5, 1, 4))


def test_other_frames_of_another_version_are_rejected() -> None:
    with pytest.raises(ForeignVersionError, match="v1") as caught:
        decode(_body(1, 2, 0, 0, 0, 1, 1, 0))
    assert caught.value.version == 1


def test_encoder_refuses_a_tag_longer_than_ten_bytes() -> None:
    with pytest.raises(ValueError, match="longer than 10"):
        encode(CellEvent(0, bytes(11)), 0)
