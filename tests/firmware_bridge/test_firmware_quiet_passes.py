"""A board at rest costs little: the firmware does not debounce cell by cell a scan
that reads what every cell holds, and the simulated board does not simulate pin by
pin a scan no switch changed. Neither changes a byte of what the firmware sends."""

from __future__ import annotations

import importlib
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.link.decoder import LinkDecoder
from firmware_bridge.link.messages import BoardInfo
from firmware_bridge.sim.pico.fake_machine import FakeMachine, ShiftRegisterMatrix
from firmware_bridge.sim.pico.simboard import SimulatedSerialBoard
from hardware.clock import FakeClock

# The firmware is untyped MicroPython, outside mypy: imported by name.
scanners: Any = importlib.import_module("firmware_bridge.firmware.scanners")
debounce: Any = importlib.import_module("firmware_bridge.firmware.debounce")

ROWS, COLUMNS = 3, 4
CELLS = ROWS * COLUMNS


class EveryCell:
    """The matrix scanner as it was: every cell fed to the debouncer every scan."""

    def __init__(self, cells: int, ms: int) -> None:
        self.debouncer = debounce.Debouncer(cells, ms)
        self.cells = cells

    def poll(self, raw: bytes, now: int) -> list[tuple[int, bytes | None]]:
        changes = []
        for i in range(self.cells):
            value = b"" if raw[i] else None
            if self.debouncer.update(i, value, now):
                changes.append((i, value))
        return changes


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 40), st.sets(st.integers(0, CELLS - 1))),
        min_size=1,
        max_size=40,
    )
)
def test_a_quiet_scan_reports_exactly_what_debouncing_every_cell_reports(
    script: list[tuple[int, set[int]]],
) -> None:
    machine = FakeMachine()
    switches = ShiftRegisterMatrix(
        machine.bench, spi_bus=0, latch_pin=17, load_pin=20, rows=ROWS, columns=COLUMNS
    )
    shift = scanners.ShiftRegisterMatrix(
        machine.SPI(0),
        machine.Pin(17, machine.Pin.OUT),
        machine.Pin(20, machine.Pin.OUT),
        ROWS,
        COLUMNS,
        True,
        0,
    )
    scanner = scanners.MatrixScanner(shift, 30)
    reference = EveryCell(CELLS, 30)
    now = 0
    for passes, closed in script:
        switches.closed = set(closed)
        for _ in range(passes):
            now += 7
            raw = bytes(1 if i in closed else 0 for i in range(CELLS))
            assert scanner.poll(now) == reference.poll(raw, now)
            assert scanner.settling() == reference.debouncer.pending()
            assert scanner.ready() == reference.debouncer.settled()
            assert [scanner.gap(i) for i in range(CELLS)] == reference.debouncer.gap


def played(skip_scans: bool, seed: int) -> tuple[list[Any], Any]:
    """Everything the firmware sends while pieces come and go on a 3 x 4 board (its
    longest pass in ms, a time of the host's CPU, left out)."""
    clock = FakeClock(100.0)
    rng = random.Random(seed)
    with SimulatedSerialBoard(ROWS, COLUMNS, "occupancy+rfid", clock, skip_scans=skip_scans) as sim:
        sim.port.held = None
        sent = bytearray()
        write = sim.port.send

        def record(data: bytes) -> None:
            sent.extend(data)
            write(data)

        sim.port.send = record  # type: ignore[method-assign]
        for step in range(600):
            if step % 25 == 0:
                cell = rng.randrange(CELLS)
                if cell in sim.pieces:
                    sim.lift(cell)
                else:
                    sim.place(cell, tag=f"{0x10 + cell:02x}a1b2c3d4e5f6e0")
            clock.advance(0.01)
            sim.step()
        messages = [
            BoardInfo(e.message.versions, e.message.sweep_ms, 0)
            if isinstance(e.message, BoardInfo)
            else e.message
            for e in LinkDecoder().feed(bytes(sent))
        ]
        return messages, sim.scans


def test_the_simulated_board_sends_the_same_bytes_with_its_quiet_scans_skipped() -> None:
    for seed in (1, 2):
        skipped, scans = played(True, seed)
        simulated, none = played(False, seed)
        assert none is None
        assert len(skipped) > 20
        assert skipped == simulated
        assert scans.skipped > 10 * scans.simulated  # most passes see no switch move
