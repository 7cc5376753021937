"""Bounded work in a pass of the firmware's loop: a budget of tag retries however many
pieces lack a readable tag; a reader that stopped answering reset through its NRSTPD
line; the reader's chip named from its VersionReg as the data sheets give it; and
the outbox that a host not reading cannot make grow without bound."""

from __future__ import annotations

import importlib
from types import SimpleNamespace
from typing import Any

from firmware_bridge.sim.pico.fake_antenna_mux import AntennaMuxBoard
from firmware_bridge.sim.pico.fake_card import Card
from firmware_bridge.sim.pico.fake_machine import FakeMachine, ShiftRegisterMatrix
from firmware_bridge.sim.pico.sim_config import SIM_CONFIG

# The firmware is untyped MicroPython, outside mypy: imported by name.
runner: Any = importlib.import_module("firmware_bridge.firmware.runner")
antennas: Any = importlib.import_module("firmware_bridge.firmware.antennas")
mfrc522: Any = importlib.import_module("firmware_bridge.firmware.mfrc522")
ports: Any = importlib.import_module("firmware_bridge.firmware.ports")
wire: Any = importlib.import_module("firmware_bridge.firmware.wire")

ROWS = COLUMNS = 5
CELLS = ROWS * COLUMNS


class Board:
    """The combined occupancy+RFID scanner built by the runner, on the fakes."""

    def __init__(self, reset_pin: int | None = 26) -> None:
        machine = FakeMachine()
        cfg = SimpleNamespace(
            **{**SIM_CONFIG, "RFID_RST": reset_pin},
            ROWS=ROWS,
            COLUMNS=COLUMNS,
            SENSOR="occupancy+rfid",
            RFID_SELECT=(2, 3, 4, 5, 6),
        )
        self.readers = AntennaMuxBoard(
            machine.bench,
            spi_bus=cfg.RFID_SPI,
            cs_pin=cfg.RFID_CS,
            select_pins=cfg.RFID_SELECT,
            cells=CELLS,
            reset_pin=reset_pin,
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
        self.mux = self.scanner.readers

    def reads_per_pass(self, start: int, stop: int, every: int = 10) -> list[int]:
        counts = []
        for now in range(start, stop, every):
            before = self.mux.reads
            self.scanner.poll(now)
            counts.append(self.mux.reads - before)
        return counts


def test_a_board_full_of_pieces_without_tags_costs_a_pass_only_its_retry_budget() -> None:
    board = Board()
    budget = SIM_CONFIG["TAG_RETRIES_PER_PASS"]
    board.switches.closed.update(range(20))  # twenty pieces, none with a tag in range
    counts = board.reads_per_pass(0, 3000)
    assert counts[:4] == [0, 0, 0, 20]  # each read once as it settles (debounce 30 ms)
    assert max(counts[4:]) == budget
    # Every piece is still tried again, the longest waiting first.
    tried = [0] * CELLS
    original = board.mux.read_uid

    def counting(index: int) -> Any:
        tried[index] += 1
        return original(index)

    board.mux.read_uid = counting
    board.reads_per_pass(3000, 6000)
    assert all(tried[i] >= 2 for i in range(20))
    assert max(tried[:20]) - min(tried[:20]) <= 1
    # A tag that comes into range is read within its turn.
    board.readers.lay(7, Card(bytes.fromhex("DEADBEEF")))
    found = [c for now in range(6000, 7500, 10) for c in board.scanner.poll(now)]
    assert (7, bytes.fromhex("DEADBEEF")) in found


def test_a_reader_that_locked_up_is_reset_through_its_reset_line_and_reads_again() -> None:
    board = Board()
    board.switches.closed.add(3)
    board.readers.lay(3, Card(bytes.fromhex("01020304")))
    board.reads_per_pass(0, 100)
    assert board.mux.problem is None
    board.readers.hung = True  # answers 00h to everything, SoftReset included
    board.switches.closed.add(4)
    board.readers.lay(4, Card(bytes.fromhex("0A0B0C0D")))
    problems: list[str | None] = []
    found: list[tuple[int, bytes | None]] = []
    for now in range(100, 700, 10):
        found += board.scanner.poll(now)
        problems.append(board.mux.problem)
    assert any(p is not None and "VersionReg 00h" in p for p in problems)
    assert board.readers.hard_resets == 1 and board.mux.resets == 1
    assert board.mux.problem is None
    # The piece laid as the reader locked up: present at once, its tag on a retry.
    assert found == [(4, b""), (4, bytes.fromhex("0A0B0C0D"))]


def test_without_a_reset_line_a_locked_reader_stays_down() -> None:
    board = Board(reset_pin=None)
    board.reads_per_pass(0, 100)
    board.readers.hung = True
    board.switches.closed.add(4)
    board.reads_per_pass(100, 3500)
    assert board.mux.problem is not None and board.mux.resets == 0


def test_the_chips_are_named_from_their_version_reg() -> None:
    names = {v: mfrc522.version_name(v) for v in (0x88, 0x89, 0x90, 0x91, 0x92, 0xB2, 0x12)}
    assert names[0x89] == "FM17522E"
    assert names[0xB2] != "FM17522E" and names[0xB2].startswith("FM17522")
    assert names[0x90] == "MFRC522 v0.0"
    assert (names[0x91], names[0x92]) == ("MFRC522 v1.0", "MFRC522 v2.0")
    assert mfrc522.version_name(0x93) == "unknown chip, VersionReg 93h"


# -- the outbox -------------------------------------------------------------------------


class StalledLink:
    """A USB serial that takes ``room`` bytes and then nothing."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.sent = bytearray()

    def readable(self) -> bool:
        return False

    def read(self, n: int) -> bytes:
        return b""

    def writable(self) -> bool:
        return self.room > 0

    def write(self, data: Any) -> int:
        take = min(self.room, len(data))
        self.sent += bytes(data[:take])
        self.room -= take
        return take


def test_the_outbox_drops_the_frames_a_later_one_repeats_first_and_stays_within_its_limit() -> None:
    link = StalledLink(0)
    port = ports.UsbPort(limit=600, link=link)
    cell = wire.frame(wire.CELL, 1, wire.cell_payload(3, b"", 1))
    for seq in range(40):
        port.write(wire.frame(wire.SNAPSHOT, seq, bytes(40)))
        if seq % 10 == 0:
            port.write(cell)
        port.flush()
        assert port.outbox.size <= 600
    kinds = [ports.frame_type(f) for f in port.outbox.frames]
    assert kinds.count(wire.CELL) == 4  # every cell event kept
    assert port.outbox.dropped > 0
    # The host reads again: what waits goes out whole, frame by frame.
    link.room = 10_000
    while port.outbox.frames:
        port.flush()
    assert bytes(link.sent).count(bytes(cell)) == 4


def test_a_write_that_came_back_short_makes_the_port_write_a_byte_at_a_time() -> None:
    link = StalledLink(10)
    port = ports.UsbPort(link=link)
    port.write(wire.frame(wire.SNAPSHOT, 1, bytes(100)))
    assert port.flush() == 10 and port.careful
    link.room = 3
    assert port.flush() == 3
    link.room = 10_000
    while port.outbox.frames:
        port.flush()
    assert not port.careful
    assert bytes(link.sent) == bytes(wire.frame(wire.SNAPSHOT, 1, bytes(100)))
