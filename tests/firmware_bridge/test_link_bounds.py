"""The host's end of the link stays bounded and exact whatever the wire sends: the
decoder's count of bad frames by kind has a fixed number of kinds, and a sync
answer releases what waits only when it carries the token last asked."""

from __future__ import annotations

import random

from firmware_bridge.link.board import SerialSensorBoard
from firmware_bridge.link.codec import encode
from firmware_bridge.link.decoder import MAX_REASONS, OTHER, LinkDecoder, reason_kind
from firmware_bridge.link.framing import wrap
from firmware_bridge.link.messages import (
    PROTOCOL_VERSION,
    Hello,
    Message,
    MessageType,
    SnapshotPart,
    SyncDone,
    SyncRequest,
)
from hardware.board import BoardEvent, BoardSynced
from hardware.clock import FakeClock
from wiring.profile import SerialWiring

ROWS, COLUMNS = 3, 4
CELLS = [f"{'ABCD'[c]}{r + 1}" for r in range(ROWS) for c in range(COLUMNS)]


def overrunning_part(seq: int, first: int, count: int, total: int) -> bytes:
    """A snapshot part with a good CRC whose cells run past the board's total."""
    payload = bytes((1, 0, 0)) + b"".join(v.to_bytes(2, "big") for v in (total, first, count))
    header = bytes((PROTOCOL_VERSION, MessageType.SNAPSHOT)) + (seq & 0xFFFF).to_bytes(2, "big")
    return wrap(header + payload + b"\x00" * count)


def test_snapshot_parts_running_past_their_total_make_one_kind_not_one_each() -> None:
    decoder = LinkDecoder()
    rng = random.Random(7)
    frames = 20_000
    data = b"".join(
        overrunning_part(
            seq, rng.randrange(200, 60_000), rng.randrange(1, 40), rng.randrange(1, 200)
        )
        for seq in range(frames)
    )
    assert decoder.feed(data) == []
    assert decoder.bad_frames == frames
    assert decoder.reasons == {"snapshot cells N+N run past the board's N": frames}


def test_no_more_kinds_are_kept_than_the_cap_and_the_rest_are_counted_as_other() -> None:
    decoder = LinkDecoder()
    rng = random.Random(3)
    # Every message type and payload size the wire can carry, all with good CRCs.
    frames = [
        wrap(bytes((PROTOCOL_VERSION, mtype, 0, seq)) + rng.randbytes(size))
        for seq, (mtype, size) in enumerate(
            (mtype, size) for mtype in range(40) for size in (0, 1, 3, 5, 9, 30)
        )
    ]
    decoder.feed(b"".join(frames))
    assert decoder.bad_frames > 100
    assert len(decoder.reasons) <= MAX_REASONS
    assert sum(decoder.reasons.values()) == decoder.bad_frames
    for kind in [f"made-up kind {letter}" for letter in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"]:
        decoder._count_bad(kind)
    assert len(decoder.reasons) == MAX_REASONS
    assert decoder.reasons[OTHER] >= 1
    assert sum(decoder.reasons.values()) == decoder.bad_frames


def test_a_reason_s_kind_keeps_its_words_and_drops_its_figures() -> None:
    assert reason_kind("not valid COBS: zero byte at 12") == "not valid COBS"
    assert reason_kind("a ping or pong has 2 payload bytes, not 7") == (
        "a ping or pong has N payload bytes, not N"
    )


# -- the sync barrier -----------------------------------------------------------------


class MemoryPort:
    """A serial port in memory: the test writes what the board says."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.written = bytearray()

    def read(self, size: int = 1) -> bytes:
        data, self.incoming = bytes(self.incoming[:size]), self.incoming[size:]
        return data

    def write(self, data: bytes) -> int:
        self.written += data
        return len(data)

    def close(self) -> None:
        pass

    def asked(self) -> list[int]:
        """The tokens of the sync requests written since last asked."""
        tokens = [
            e.message.token
            for e in LinkDecoder().feed(bytes(self.written))
            if isinstance(e.message, SyncRequest)
        ]
        self.written.clear()
        return tokens


def say(port: MemoryPort, *messages: Message) -> None:
    for seq, message in enumerate(messages):
        port.incoming += encode(message, seq)


def connected(seed: int) -> tuple[SerialSensorBoard, MemoryPort, FakeClock]:
    clock = FakeClock(100.0)
    port = MemoryPort()
    wiring = SerialWiring(port="loop://", rows=ROWS, columns=COLUMNS, sensor="occupancy")
    host = SerialSensorBoard(
        wiring,
        CELLS,
        clock=clock,
        settle_window_s=0.15,
        opener=lambda _p, _b: port,
        tokens=random.Random(seed),
    )
    say(port, Hello((4, 0, 0), ROWS, COLUMNS, "occupancy"), SnapshotPart(1, 12, 0, (None,) * 12))
    for _ in range(40):
        host.poll(clock.advance(0.01))
    return host, port, clock


def synced(host: SerialSensorBoard, clock: FakeClock, seconds: float = 0.2) -> list[int]:
    events: list[BoardEvent] = []
    for _ in range(round(seconds / 0.01)):
        events += host.poll(clock.advance(0.01))
    return [e.token for e in events if isinstance(e, BoardSynced)]


def test_an_answer_carrying_the_next_token_releases_nothing() -> None:
    """A board that answers the token after the last one before it is asked (or line
    noise, or a frame from before a restart) released 2 presses in 5 early."""
    for seed in range(5):
        host, port, clock = connected(seed)
        first = host.sync(clock.now())
        assert port.asked() == [first]
        say(port, SyncDone(first, 0))
        assert synced(host, clock) == [first]
        # The answer to the next request arrives before that request is read.
        say(port, SyncDone((first + 1) & 0xFFFF, 0), SyncDone((first + 2) & 0xFFFF, 0))
        second = host.sync(clock.now())
        assert second not in (first, (first + 1) & 0xFFFF)
        assert synced(host, clock) == [], f"seed {seed}: released by an answer not asked for"
        say(port, SyncDone(second, 0))
        assert synced(host, clock) == [second]


def test_only_the_token_last_asked_is_answered() -> None:
    host, port, clock = connected(11)
    first = host.sync(clock.now())
    second = host.sync(clock.now())
    assert port.asked() == [first, second]
    say(port, SyncDone(first, 0))
    assert synced(host, clock) == []
    say(port, SyncDone(second, 0))
    assert synced(host, clock) == [second]
    # An answer repeated after its barrier was reached releases nothing more.
    say(port, SyncDone(second, 0))
    assert synced(host, clock) == []
