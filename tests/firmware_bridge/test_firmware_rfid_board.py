"""RFID boards built by the firmware's runner from config, on the register-level
fake reader behind the antenna multiplexer: the reader sweep, the combined
occupancy+RFID board with its background sweep, the frames they send, the reader
fault report, and the simulated serial board."""

from __future__ import annotations

import importlib
from types import SimpleNamespace
from typing import Any

import pytest

from firmware_bridge.link.board import SerialSensorBoard
from firmware_bridge.link.codec import encode
from firmware_bridge.link.decoder import LinkDecoder
from firmware_bridge.link.messages import BoardError, CellEvent, Hello, SnapshotPart
from firmware_bridge.sim.pico.fake_antenna_mux import AntennaMuxBoard
from firmware_bridge.sim.pico.fake_card import WUPA, Card
from firmware_bridge.sim.pico.fake_machine import FakeMachine, ShiftRegisterMatrix
from firmware_bridge.sim.pico.simboard import SimulatedBoardError, SimulatedSerialBoard
from hardware.board import BoardSettled
from hardware.clock import FakeClock
from wiring.profile import SerialWiring

# The firmware is untyped MicroPython, outside mypy: imported by name.
app: Any = importlib.import_module("firmware_bridge.firmware.app")
runner: Any = importlib.import_module("firmware_bridge.firmware.runner")
wire: Any = importlib.import_module("firmware_bridge.firmware.wire")

ROWS = COLUMNS = 3
CELLS = ROWS * COLUMNS
TAGS = {
    0: bytes.fromhex("DEADBEEF"),
    4: bytes.fromhex("04A224B2C35E80"),
    8: bytes.fromhex("0102030405060708090A"),
}


def config(sensor: str) -> SimpleNamespace:
    """config.py for a 3×3 board: the shipped pins, four select lines."""
    return SimpleNamespace(
        ROWS=ROWS,
        COLUMNS=COLUMNS,
        SENSOR=sensor,
        MATRIX_SPI=0,
        MATRIX_SCK=18,
        MATRIX_MOSI=19,
        MATRIX_MISO=16,
        ROW_LATCH=17,
        COLUMN_LOAD=20,
        ACTIVE_LOW=True,
        DEBOUNCE_MS=30,
        RFID_SPI=1,
        RFID_SCK=10,
        RFID_MOSI=11,
        RFID_MISO=12,
        RFID_CS=13,
        RFID_SELECT=(2, 3, 4, 5),
        RFID_DEBOUNCE_MS=60,
        READERS_PER_STEP=4,
        TAG_RETRY_MS=250,
        TAG_POWER_US=0,
        ROW_SETTLE_US=0,
        SWEEP_MS=100,
        SNAPSHOT_MS=2000,
    )


class Rig:
    """The firmware's scanner for ``sensor``, built by runner.build_scanner, with
    the board electronics it scans."""

    def __init__(self, sensor: str) -> None:
        machine = FakeMachine()
        cfg = config(sensor)
        self.readers = AntennaMuxBoard(
            machine.bench,
            spi_bus=cfg.RFID_SPI,
            cs_pin=cfg.RFID_CS,
            select_pins=cfg.RFID_SELECT,
            cells=CELLS,
        )
        self.switches = ShiftRegisterMatrix(
            machine.bench,
            spi_bus=cfg.MATRIX_SPI,
            latch_pin=cfg.ROW_LATCH,
            load_pin=cfg.COLUMN_LOAD,
            rows=ROWS,
            columns=COLUMNS,
        )
        self.scanner = runner.build_scanner(machine, cfg)
        self.changes: list[tuple[int, bytes | None]] = []

    def lay(self, index: int, uid: bytes) -> None:
        self.switches.closed.add(index)
        self.readers.lay(index, Card(uid))
        assert self.readers.max_fields_on <= 1

    def lift(self, index: int) -> None:
        self.switches.closed.discard(index)
        self.readers.lift(index)

    def poll(self, start: int, stop: int, every: int = 10) -> list[tuple[int, bytes | None]]:
        changes: list[tuple[int, bytes | None]] = []
        for now in range(start, stop, every):
            changes += self.scanner.poll(now)
        return changes


def test_reader_sweep_reports_exactly_the_tags_laid() -> None:
    rig = Rig("rfid")
    for index, uid in TAGS.items():
        rig.lay(index, uid)
    assert sorted(rig.poll(0, 300)) == sorted(TAGS.items())


def test_reader_sweep_reports_a_lifted_tag_as_absent() -> None:
    rig = Rig("rfid")
    rig.lay(4, TAGS[4])
    rig.poll(0, 300)
    rig.lift(4)
    assert rig.poll(300, 600) == [(4, None)]


def test_reader_sweep_ignores_a_tag_seen_by_one_sweep_only() -> None:
    rig = Rig("rfid")
    rig.lay(4, TAGS[4])
    rig.poll(0, 300)
    reader = rig.readers.reader
    dropped = []

    def drop_once(frame: bytes) -> None:
        if frame == bytes((WUPA,)) and rig.readers.antenna == 4 and not dropped:
            dropped.append(frame)
            rig.readers.lift(4)  # a hand passes over: one read misses

    reader.on_frame = drop_once
    changes = rig.poll(300, 330)
    reader.on_frame = None
    assert dropped
    assert 4 not in rig.readers.cards
    rig.lay(4, TAGS[4])
    changes += rig.poll(330, 600)
    assert changes == []


def test_reader_sweep_never_reports_a_tag_shorter_than_the_debounce_time() -> None:
    rig = Rig("rfid")
    rig.lay(7, TAGS[0])
    changes = rig.poll(0, 40)
    rig.lift(7)
    changes += rig.poll(40, 400)
    assert changes == []
    assert rig.readers.powered_by_antenna[7] > 1  # it was read, then forgotten


def test_reader_sweep_reports_a_swapped_tag_once_it_holds() -> None:
    rig = Rig("rfid")
    rig.lay(2, TAGS[0])
    rig.poll(0, 300)
    rig.lay(2, TAGS[8])
    assert rig.poll(300, 600) == [(2, TAGS[8])]


def test_combined_board_reads_a_tag_only_where_occupancy_changed() -> None:
    rig = Rig("occupancy+rfid")
    rig.poll(0, 200)
    before = list(rig.readers.powered_by_antenna)
    rig.readers.reader.frames.clear()
    rig.lay(4, TAGS[4])
    assert rig.poll(200, 300) == [(4, TAGS[4])]
    spent = [a - b for a, b in zip(rig.readers.powered_by_antenna, before, strict=True)]
    assert spent == [0, 0, 0, 0, 1, 0, 0, 0, 0]  # one tag read for the move
    frames = list(rig.readers.reader.frames)
    assert frames.count(bytes((WUPA,))) == 1
    assert len(frames) == 6  # WUPA, two cascade levels, HLTA


def test_combined_board_only_sweeps_slowly_while_no_piece_moves() -> None:
    rig = Rig("occupancy+rfid")
    rig.lay(4, TAGS[4])
    rig.lay(0, TAGS[0])
    rig.poll(0, 200)
    before = list(rig.readers.powered_by_antenna)
    assert rig.poll(200, 2200) == []
    spent = [a - b for a, b in zip(rig.readers.powered_by_antenna, before, strict=True)]
    # One occupied square every SWEEP_MS (100 ms): 20 reads in 2 s, shared by the two.
    assert spent == [10, 0, 0, 0, 10, 0, 0, 0, 0]


def test_combined_board_background_sweep_sees_a_tag_swapped_in_one_movement() -> None:
    rig = Rig("occupancy+rfid")
    rig.lay(4, TAGS[4])
    rig.poll(0, 200)
    rig.readers.lift(4)
    rig.readers.lay(4, Card(TAGS[8]))  # the switch never opened
    assert rig.poll(200, 500) == [(4, TAGS[8])]


def test_a_reader_that_stops_answering_is_sent_as_err_reader() -> None:
    rig = Rig("occupancy+rfid")
    port = ListPort()
    firmware = app.Firmware(port, rig.scanner, ROWS, COLUMNS, "occupancy+rfid")
    rig.lay(4, TAGS[4])
    for now in range(0, 200, 10):
        firmware.step(now)
    rig.readers.dead = True
    rig.lay(0, TAGS[0])
    for now in range(200, 2500, 10):
        firmware.step(now)
    errors = [
        m
        for m in (e.message for e in LinkDecoder().feed(bytes(port.sent)))
        if isinstance(m, BoardError)
    ]
    assert [e.code for e in errors] == [wire.ERR_READER, wire.ERR_READER]  # at once, then 2 s on
    assert "no reader answers (VersionReg FFh)" in errors[0].text


def test_combined_board_retries_a_tag_that_did_not_answer() -> None:
    rig = Rig("occupancy+rfid")
    rig.switches.closed.add(5)  # a piece whose tag is out of range
    assert rig.poll(0, 100) == [(5, b"")]
    rig.readers.lay(5, Card(TAGS[0]))
    assert rig.poll(100, 400) == [(5, TAGS[0])]


def test_combined_board_lift_reads_no_tag() -> None:
    rig = Rig("occupancy+rfid")
    rig.lay(4, TAGS[4])
    rig.poll(0, 200)
    rig.lift(4)
    before = list(rig.readers.powered_by_antenna)
    assert rig.poll(200, 290) == [(4, None)]
    assert rig.readers.powered_by_antenna == before


class ListPort:
    def __init__(self) -> None:
        self.sent = bytearray()

    def read(self) -> bytes:
        return b""

    def write(self, data: bytes) -> None:
        self.sent += data


@pytest.mark.parametrize("sensor", ["rfid", "occupancy+rfid"])
def test_rfid_frames_decode_with_the_host_decoder_byte_for_byte(sensor: str) -> None:
    rig = Rig(sensor)
    port = ListPort()
    firmware = app.Firmware(port, rig.scanner, ROWS, COLUMNS, sensor)
    for index, uid in TAGS.items():
        rig.lay(index, uid)
    for now in range(0, 300, 10):
        firmware.step(now)
    envelopes = LinkDecoder().feed(bytes(port.sent))
    messages = [e.message for e in envelopes]
    assert messages[0] == Hello(wire.FIRMWARE_VERSION, ROWS, COLUMNS, sensor)
    events = [(m.cell, m.reading) for m in messages if isinstance(m, CellEvent)]
    assert sorted(events) == sorted(TAGS.items())
    snapshot = [m for m in messages if isinstance(m, SnapshotPart)][-1]
    assert snapshot.readings == tuple(TAGS.get(i) for i in range(CELLS))
    assert bytes(port.sent) == b"".join(encode(e.message, e.seq) for e in envelopes)


# -- the simulated serial board with register-level readers --------------------------

NAMES = [f"{'ABC'[c]}{r + 1}" for r in range(ROWS) for c in range(COLUMNS)]


@pytest.mark.parametrize("sensor", ["rfid", "occupancy+rfid"])
def test_simulated_board_with_register_readers_reaches_the_host(sensor: str) -> None:
    clock = FakeClock(100.0)
    with SimulatedSerialBoard(
        ROWS, COLUMNS, sensor, clock, cells=NAMES, register_readers=True, rfid_board="mux"
    ) as sim:
        wiring = SerialWiring(port=sim.port_name, rows=ROWS, columns=COLUMNS, sensor="rfid")
        host = SerialSensorBoard(wiring, NAMES, clock=clock, settle_window_s=0.15)
        sim.place("B2", tag="04a224b2c35e80")
        sim.place("A1", tag="deadbeef")
        settled = []
        for _ in range(80):
            clock.advance(0.01)
            sim.step()
            settled += [e for e in host.poll(clock.now()) if isinstance(e, BoardSettled)]
        host.close()
    assert sim.rfid_board is not None
    assert [dict(e.observation) for e in settled] == [{"B2": "04A224B2C35E80", "A1": "DEADBEEF"}]


def test_simulated_board_with_register_readers_refuses_a_uid_no_card_has() -> None:
    with (
        SimulatedSerialBoard(ROWS, COLUMNS, "rfid", register_readers=True) as sim,
        pytest.raises(SimulatedBoardError, match="4, 7 or 10 bytes"),
    ):
        sim.place(0, tag="0102030405")
