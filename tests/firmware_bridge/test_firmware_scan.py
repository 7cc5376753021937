"""The Pico firmware under CPython: matrix scan through fake 595/165 pins, debounce,
framing (decoded by the host decoder byte for byte) and requests."""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.link.codec import encode
from firmware_bridge.link.decoder import LinkDecoder
from firmware_bridge.link.messages import (
    BoardError,
    BoardInfo,
    CellEvent,
    Hello,
    Ping,
    Pong,
    SnapshotPart,
    SnapshotRequest,
    SyncDone,
    SyncRequest,
)
from firmware_bridge.sim.pico.fake_machine import FakeMachine, FakeReaders, ShiftRegisterMatrix

# The firmware is untyped MicroPython, outside mypy: imported by name.
app: Any = importlib.import_module("firmware_bridge.firmware.app")
debounce: Any = importlib.import_module("firmware_bridge.firmware.debounce")
runner: Any = importlib.import_module("firmware_bridge.firmware.runner")
scanners: Any = importlib.import_module("firmware_bridge.firmware.scanners")
wire: Any = importlib.import_module("firmware_bridge.firmware.wire")


FAKE_MACHINE_DIR = Path(__file__).parent / "fake_machine"


class ListPort:
    """The firmware's byte link, kept in memory."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.sent = bytearray()

    def read(self) -> bytes:
        data, self.incoming = bytes(self.incoming), bytearray()
        return data

    def write(self, data: bytes) -> None:
        self.sent += data

    def take(self) -> bytes:
        data, self.sent = bytes(self.sent), bytearray()
        return data


def matrix_rig(rows: int, columns: int, active_low: bool = True) -> tuple[Any, ShiftRegisterMatrix]:
    machine = FakeMachine()
    board = ShiftRegisterMatrix(
        machine.bench,
        spi_bus=0,
        latch_pin=17,
        load_pin=20,
        rows=rows,
        columns=columns,
        active_low=active_low,
    )
    shift = scanners.ShiftRegisterMatrix(
        machine.SPI(0),
        machine.Pin(17, machine.Pin.OUT),
        machine.Pin(20, machine.Pin.OUT),
        rows,
        columns,
        active_low,
    )
    return shift, board


@pytest.mark.parametrize("active_low", [True, False])
def test_matrix_scan_reads_every_closed_switch_through_595s_and_165s(active_low: bool) -> None:
    shift, board = matrix_rig(15, 15, active_low)
    board.closed = {0, 14, 16, 112, 210, 224}
    bits = shift.scan(bytearray(225))
    assert {i for i in range(225) if bits[i]} == {0, 14, 16, 112, 210, 224}


def test_matrix_scan_of_a_small_board_ignores_unused_register_bits() -> None:
    shift, board = matrix_rig(3, 5)
    board.closed = {4, 5, 14}
    bits = shift.scan(bytearray(15))
    assert {i for i in range(15) if bits[i]} == {4, 5, 14}


def test_debounce_needs_a_reading_held_for_the_debounce_time() -> None:
    d = debounce.Debouncer(1, 30)
    assert not d.update(0, b"", 0)
    assert not d.update(0, b"", 29)
    assert d.update(0, b"", 30)
    assert d.stable[0] == b""
    assert not d.update(0, b"", 40)


def test_a_bounce_shorter_than_the_debounce_time_is_never_reported() -> None:
    shift, board = matrix_rig(2, 2)
    scanner = scanners.MatrixScanner(shift, 30)
    board.closed = {3}
    assert scanner.poll(0) == []
    board.closed = set()
    assert scanner.poll(10) == []
    board.closed = {3}
    assert scanner.poll(20) == []
    assert scanner.poll(45) == []
    assert scanner.poll(50) == [(3, b"")]


def firmware_rig(rows: int = 3, columns: int = 3) -> tuple[Any, ShiftRegisterMatrix, ListPort]:
    shift, board = matrix_rig(rows, columns)
    port = ListPort()
    fw = app.Firmware(port, scanners.MatrixScanner(shift, 30), rows, columns, "occupancy")
    return fw, board, port


def run(fw: Any, start: int, stop: int, every: int = 10) -> None:
    for now in range(start, stop, every):
        fw.step(now)


def test_firmware_frames_decode_with_the_host_decoder_byte_for_byte() -> None:
    fw, board, port = firmware_rig()
    board.closed = {4, 8}
    run(fw, 0, 200)
    wire_bytes = port.take()
    envelopes = LinkDecoder().feed(wire_bytes)
    *messages, info = [e.message for e in envelopes]
    assert messages == [
        Hello(wire.FIRMWARE_VERSION, 3, 3, "occupancy"),
        CellEvent(4, b"", 1),
        CellEvent(8, b"", 2),
        SnapshotPart(1, 9, 0, (None, None, None, None, b"", None, None, None, b""), 2),
    ]
    # The census after the snapshot: no reader, one scan per 10 ms pass.
    assert isinstance(info, BoardInfo)
    assert (info.versions, info.sweep_ms) == ((), 10)
    assert [e.seq for e in envelopes] == [0, 1, 2, 3, 4]
    assert wire_bytes == b"".join(encode(e.message, e.seq) for e in envelopes)


def test_a_lifted_piece_sends_an_absent_event() -> None:
    fw, board, port = firmware_rig()
    board.closed = {2}
    run(fw, 0, 200)
    port.take()
    board.closed = set()
    run(fw, 200, 300)
    # Event 2; the switch was last read closed one 10 ms pass before it was read open.
    assert [e.message for e in LinkDecoder().feed(port.take())] == [CellEvent(2, None, 2, 10)]


def test_snapshots_repeat_every_snapshot_period() -> None:
    fw, _board, port = firmware_rig()
    run(fw, 0, 4150)
    parts = [e for e in LinkDecoder().feed(port.take()) if isinstance(e.message, SnapshotPart)]
    assert len(parts) == 3  # after warm-up, then every 2 s


def test_a_snapshot_request_gets_hello_then_snapshot() -> None:
    fw, board, port = firmware_rig()
    board.closed = {0}
    run(fw, 0, 200)
    port.take()
    port.incoming += encode(SnapshotRequest(), 0)
    fw.step(200)
    messages = [e.message for e in LinkDecoder().feed(port.take())]
    assert isinstance(messages[0], Hello)
    assert messages[1] == SnapshotPart(2, 9, 0, (b"",) + (None,) * 8, 1)
    assert fw.requests == 1


def test_a_request_during_warm_up_is_answered_once_the_board_is_read() -> None:
    fw, board, port = firmware_rig()
    board.closed = {0}
    port.incoming += encode(SnapshotRequest(), 0)
    run(fw, 0, 150)
    envelopes = LinkDecoder().feed(port.take())
    parts = [e.message for e in envelopes if isinstance(e.message, SnapshotPart)]
    assert parts[0] == SnapshotPart(1, 9, 0, (b"",) + (None,) * 8, 1)


def test_the_first_snapshot_of_a_swept_rfid_board_waits_until_every_reader_is_read() -> None:
    readers = FakeReaders(225)
    readers.tags = {i: bytes((i, 1, 2, 3)) for i in range(0, 225, 10)}
    port = ListPort()
    # 16 readers a pass, a pass every 10 ms: a sweep takes 150 ms, longer than the warm-up.
    fw = app.Firmware(port, scanners.ReaderSweep(readers, 225, 120, 16), 15, 15, "rfid")
    run(fw, 0, 400)
    parts = [e.message for e in LinkDecoder().feed(port.take())]
    first = [
        r for m in parts if isinstance(m, SnapshotPart) and m.snapshot_id == 1 for r in m.readings
    ]
    assert first == [readers.tags.get(i) for i in range(225)]


def test_the_first_snapshot_of_a_matrix_waits_for_the_debounce_time() -> None:
    shift, board = matrix_rig(3, 3)
    board.closed = {4}
    port = ListPort()
    fw = app.Firmware(port, scanners.MatrixScanner(shift, 150), 3, 3, "occupancy")
    run(fw, 0, 300)
    parts = [e.message for e in LinkDecoder().feed(port.take())]
    snapshots = [m for m in parts if isinstance(m, SnapshotPart)]
    assert snapshots[0].readings == (None,) * 4 + (b"",) + (None,) * 4


def test_ping_is_answered_with_pong_and_nonsense_with_an_error() -> None:
    fw, _board, port = firmware_rig()
    fw.step(0)
    port.take()
    port.incoming += encode(Ping(0x1234), 0) + encode(Pong(1), 1)
    fw.step(10)
    messages = [e.message for e in LinkDecoder().feed(port.take())]
    assert messages[0] == Pong(0x1234)
    assert messages[1] == BoardError(wire.ERR_UNKNOWN_TYPE, "unexpected message type 6")


def test_a_ping_or_request_whose_payload_does_not_fit_is_counted_not_answered() -> None:
    fw, _board, port = firmware_rig()
    run(fw, 0, 200)
    port.take()
    port.incoming += wire.frame(wire.PING, 0, b"\x12\x34\x56") + wire.frame(wire.PING, 1, b"\x12")
    port.incoming += wire.frame(wire.SNAPSHOT_REQUEST, 2, b"\x00")
    fw.step(200)
    assert LinkDecoder().feed(port.take()) == []
    assert fw.deframer.bad == 3
    assert fw.requests == 0


def test_a_frame_of_another_protocol_version_gets_an_error_naming_ours() -> None:
    fw, _board, port = firmware_rig()
    fw.step(0)
    port.take()
    frame = bytearray(wire.frame(wire.SNAPSHOT_REQUEST, 0))
    packet = wire.cobs_decode(frame[1:-1])
    packet[0] = wire.PROTOCOL_VERSION + 1
    crc = wire.crc16(packet[:-2])
    packet[-2:] = bytes((crc >> 8, crc & 0xFF))
    port.incoming += b"\x00" + wire.cobs_encode(packet) + b"\x00"
    fw.step(10)
    messages = [e.message for e in LinkDecoder().feed(port.take())]
    assert messages == [BoardError(wire.ERR_VERSION, "this firmware speaks protocol v4")]
    assert fw.requests == 0


def test_garbage_from_the_host_is_counted_and_skipped() -> None:
    fw, _board, port = firmware_rig()
    port.incoming += b"\x00\x05\x01\x02\xff\x00" + encode(Ping(7), 0)
    fw.step(0)
    assert fw.deframer.bad == 1
    assert Pong(7) in [e.message for e in LinkDecoder().feed(port.take())]


def test_the_watchdog_is_fed_every_pass() -> None:
    machine = FakeMachine()
    fw, _board, _port = firmware_rig()
    fw.watchdog = machine.WDT(timeout=4000)
    run(fw, 0, 50)
    assert machine.bench.watchdog_feeds == 5


def test_combined_board_reads_a_tag_only_where_occupancy_changed() -> None:
    shift, board = matrix_rig(15, 15)
    readers = FakeReaders(225)
    scanner = scanners.MatrixWithReaders(scanners.MatrixScanner(shift, 30), readers, 250)
    board.closed = {7}
    readers.tags = {7: bytes.fromhex("04A224B2C35E80")}
    changes = []
    for now in range(0, 100, 10):
        changes += scanner.poll(now)
    assert changes == [(7, bytes.fromhex("04A224B2C35E80"))]
    assert readers.reads == 1


def test_an_unread_tag_is_reported_present_then_retried() -> None:
    shift, board = matrix_rig(2, 2)
    readers = FakeReaders(4)
    scanner = scanners.MatrixWithReaders(scanners.MatrixScanner(shift, 30), readers, 250)
    board.closed = {1}
    changes = []
    for now in range(0, 100, 10):
        changes += scanner.poll(now)
    assert changes == [(1, b"")]
    readers.tags = {1: b"\x01\x02\x03\x04"}
    for now in range(100, 400, 10):
        changes += scanner.poll(now)
    assert changes == [(1, b""), (1, b"\x01\x02\x03\x04")]


def test_reader_sweep_reports_tags_and_their_removal() -> None:
    readers = FakeReaders(4)
    scanner = scanners.ReaderSweep(readers, 4, 60, per_poll=2)
    readers.tags = {3: b"\xaa\xbb\xcc\xdd"}
    changes = []
    for now in range(0, 200, 10):
        changes += scanner.poll(now)
    readers.tags = {}
    for now in range(200, 400, 10):
        changes += scanner.poll(now)
    assert changes == [(3, b"\xaa\xbb\xcc\xdd"), (3, None)]


def test_boot_builds_from_config_and_turns_off_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(FAKE_MACHINE_DIR))
    for name in ("machine", "micropython"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    config: Any = types.ModuleType("config")
    exec((Path(wire.__file__).parent / "config.py").read_text(), config.__dict__)
    config.ROWS, config.COLUMNS = 4, 4
    monkeypatch.setitem(sys.modules, "config", config)
    port = ListPort()
    fw = runner.run(port, steps=3)
    machine = importlib.import_module("machine")  # the fake, from FAKE_MACHINE_DIR
    micropython = importlib.import_module("micropython")

    assert micropython.kbd_intr_calls == [-1]
    assert machine.bench.watchdog_feeds == 3
    assert fw.scanner.cells == 16
    assert isinstance(LinkDecoder().feed(port.take())[0].message, Hello)


def test_envelope_sequence_numbers_wrap_at_16_bits() -> None:
    fw, _board, port = firmware_rig()
    fw._seq = 0xFFFF
    fw.step(0)
    fw.send_hello()
    assert [e.seq for e in LinkDecoder().feed(port.take())] == [0xFFFF, 0]


def test_a_quiet_board_sends_a_hello_every_half_second_with_its_last_event() -> None:
    fw, board, port = firmware_rig()
    board.closed = {4}
    run(fw, 0, 200)  # hello, the event for cell 4, the first snapshot at 100 ms
    port.take()
    run(fw, 200, 2050)
    hellos = [e.message for e in LinkDecoder().feed(port.take())]
    assert hellos == [Hello(wire.FIRMWARE_VERSION, 3, 3, "occupancy", 1)] * 3  # 0.6, 1.1, 1.6 s
    stamped = []
    for now in range(2050, 2700, 10):
        fw.step(now)
        stamped += [
            (now, e.message)
            for e in LinkDecoder().feed(port.take())
            if not isinstance(e.message, BoardInfo)  # the census after each snapshot
        ]
    hello = Hello(wire.FIRMWARE_VERSION, 3, 3, "occupancy", 1)
    assert [m for _, m in stamped] == [
        SnapshotPart(2, 9, 0, (None,) * 4 + (b"",) + (None,) * 4, 1),
        hello,
    ]
    assert [t for t, _ in stamped] == [2100, 2600]
    # A cell event puts the next hello off: it carries the number already.
    board.closed = set()
    run(fw, 2700, 3000)
    messages = [e.message for e in LinkDecoder().feed(port.take())]
    assert messages == [CellEvent(4, None, 2, 10)]


def test_a_sync_is_answered_once_its_scan_is_done_and_nothing_is_being_debounced() -> None:
    fw, board, port = firmware_rig()
    run(fw, 0, 200)
    port.take()
    port.incoming += encode(SyncRequest(7), 0)
    run(fw, 200, 210)
    # The pass that read the request scanned after it: answered at once.
    assert [e.message for e in LinkDecoder().feed(port.take())] == [SyncDone(7, 0)]
    board.closed = {4}
    run(fw, 210, 220)  # closed: being debounced (30 ms)
    port.incoming += encode(SyncRequest(8), 1)
    answered = []
    for now in range(220, 300, 10):
        fw.step(now)
        messages = [e.message for e in LinkDecoder().feed(port.take())]
        if messages:
            answered.append((now, messages))
    # The switch is reported first, then the answer: the press that asked is judged
    # with it.
    assert answered == [(240, [CellEvent(4, b"", 1, 10), SyncDone(8, 1)])]


def test_a_sync_on_a_swept_reader_board_waits_for_a_sweep_begun_after_it() -> None:
    readers = FakeReaders(8)
    port = ListPort()
    scanner = scanners.ReaderSweep(readers, 8, 60, per_poll=2)
    fw = app.Firmware(port, scanner, 2, 4, "rfid")
    now = 0
    while now < 500 or scanner.begun == scanner.swept:
        fw.step(now)
        now += 10
    port.take()
    # Mid-sweep: the sweep under way began before the request, so the answer waits
    # for the end of the next one (4 passes of 2 readers).
    left = 4 - scanner._next // 2
    port.incoming += encode(SyncRequest(3), 0)
    passes = 0
    while True:
        fw.step(now)
        now += 10
        passes += 1
        if any(isinstance(e.message, SyncDone) for e in LinkDecoder().feed(port.take())):
            break
    assert passes == left + 4


def test_a_repeated_sync_token_is_answered_once() -> None:
    fw, _, port = firmware_rig()
    run(fw, 0, 200)
    port.take()
    port.incoming += encode(SyncRequest(5), 0) + encode(SyncRequest(5), 1)
    run(fw, 200, 230)
    assert [e.message for e in LinkDecoder().feed(port.take())].count(SyncDone(5, 0)) == 1


def test_the_token_last_answered_asked_again_is_answered_again_at_once() -> None:
    fw, board, port = firmware_rig()
    run(fw, 0, 200)
    port.incoming += encode(SyncRequest(9), 0)
    run(fw, 200, 210)
    port.take()  # the answer is lost on the line
    board.closed = {4}
    run(fw, 210, 250)  # and a switch changes meanwhile
    port.take()
    port.incoming += encode(SyncRequest(9), 1)
    fw.step(250)
    assert [e.message for e in LinkDecoder().feed(port.take())] == [SyncDone(9, 1)]
