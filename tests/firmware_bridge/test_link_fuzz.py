"""Nothing the wire sends crashes the decoder, invents a message or a piece, or
keeps the decoder out of step past the next good frame."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.link.codec import encode
from firmware_bridge.link.decoder import LinkDecoder
from firmware_bridge.link.messages import CellEvent, Envelope, Ping
from firmware_bridge.link.mirror import BoardMirror


def corrupt(rng: random.Random, frame: bytes) -> bytes:
    """One damaged version of ``frame``, as a noisy or interrupted link delivers it."""
    kind = rng.randrange(8)
    data = bytearray(frame)
    if kind == 0:  # line noise
        return rng.randbytes(rng.randrange(1, 300))
    if kind == 1:  # bit flips
        for _ in range(rng.randrange(1, 9)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data)
    if kind == 2:  # cut short (unplug, reset)
        return bytes(data[: rng.randrange(1, len(data))])
    if kind == 3:  # a byte lost
        del data[rng.randrange(1, len(data) - 1)]
        return bytes(data)
    if kind == 4:  # a byte too many
        data.insert(rng.randrange(1, len(data)), rng.randrange(256))
        return bytes(data)
    if kind == 5:  # start lost, garbage in front
        return rng.randbytes(rng.randrange(1, 20)) + bytes(data[rng.randrange(1, len(data)) :])
    if kind == 6:  # a byte replaced
        data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    return bytes(data) * rng.randrange(2, 4)  # repeated


def feed_in_pieces(rng: random.Random, decoder: LinkDecoder, data: bytes) -> list[Envelope]:
    out: list[Envelope] = []
    at = 0
    while at < len(data):
        size = rng.randrange(1, 64)
        out.extend(decoder.feed(data[at : at + size]))
        at += size
    return out


good_messages = st.one_of(
    st.builds(
        CellEvent,
        st.integers(0, 224),
        st.one_of(st.none(), st.just(b""), st.binary(min_size=4, max_size=10)),
    ),
    st.builds(Ping, st.integers(0, 65535)),
)

# The firmware is untyped MicroPython, outside mypy: imported by name.
wire: Any = importlib.import_module("firmware_bridge.firmware.wire")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(good_messages, st.integers(0, 65535)), min_size=1, max_size=8),
    st.randoms(use_true_random=False),
    st.binary(max_size=200),
)
def test_damaged_frames_never_raise_nor_invent_and_the_next_good_frame_decodes(
    sent: list[tuple[CellEvent | Ping, int]], rng: random.Random, junk: bytes
) -> None:
    decoder = LinkDecoder()
    stream = bytearray(junk)
    for message, seq in sent:
        stream += corrupt(rng, encode(message, seq))
    marker = Envelope(0xBEEF, Ping(0xCAFE))
    stream += encode(marker.message, marker.seq)
    allowed = {Envelope(seq, message) for message, seq in sent} | {marker}
    decoded = feed_in_pieces(rng, decoder, bytes(stream))
    assert set(decoded) <= allowed
    assert decoded[-1] == marker


@pytest.mark.slow
def test_a_long_noisy_session_never_invents_a_piece() -> None:
    rng = random.Random(1187)
    cells = 225
    truth: list[bytes | None] = [None] * cells
    decoder = LinkDecoder()
    mirror = BoardMirror(cells)
    sent: dict[int, Envelope] = {}
    seq = snap_id = events = corrupted = checked = 0
    while corrupted < 100_000:
        if seq % 40 == 0:
            snap_id = (snap_id + 1) & 0xFF
            parts = wire.snapshot_payloads(snap_id, truth, events)
            frames = [(wire.SNAPSHOT, p) for p in parts]
        else:
            cell = rng.randrange(cells)
            value = None if truth[cell] is not None else rng.choice([b"", rng.randbytes(7)])
            truth[cell] = value
            events = (events + 1) & 0xFFFF
            frames = [(wire.CELL, wire.cell_payload(cell, value, events))]
        for mtype, payload in frames:
            frame = bytes(wire.frame(mtype, seq & 0xFFFF, payload))
            sent[seq & 0xFFFF] = LinkDecoder().feed(frame)[0]
            intact = rng.random() >= 0.6
            if intact:
                envelopes = decoder.feed(frame)
            else:
                corrupted += 1
                envelopes = feed_in_pieces(rng, decoder, corrupt(rng, frame))
            for envelope in envelopes:
                assert envelope == sent.get(envelope.seq), "a message nobody sent"
                mirror.apply(envelope)
            if intact:
                assert envelopes[-1] == sent[seq & 0xFFFF], "out of step after damage"
                trusted = [c for c in range(cells) if mirror.trusted(c)]
                if trusted and mtype == wire.CELL:
                    wrong = [c for c in trusted if mirror.readings[c] != truth[c]]
                    assert not wrong, "a trusted cell differs from the board"
                    checked += 1
            seq += 1
    # A clean snapshot makes the mirror exactly the board again.
    snap_id = (snap_id + 1) & 0xFF
    for payload in wire.snapshot_payloads(snap_id, truth, events):
        for envelope in decoder.feed(bytes(wire.frame(wire.SNAPSHOT, seq & 0xFFFF, payload))):
            mirror.apply(envelope)
        seq += 1
    assert mirror.current
    assert mirror.readings == truth
    assert decoder.bad_frames > 50_000
    assert checked > 100
