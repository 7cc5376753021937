"""The settle window holds on the swept RFID board as on a GPIO one: a tap shorter
than the window never counts, however the sweep happens to fall. (The Pico reads a
swept board's cells a sweep apart, so it reports a change up to a sweep late, by a
varying amount; the host measured a tap from report to report.)"""

from __future__ import annotations

import random

import pytest

from firmware_bridge.link.board import SerialSensorBoard
from firmware_bridge.sim.pico.simboard import SimulatedSerialBoard
from hardware.board import BoardEvent, BoardSettled
from hardware.clock import FakeClock
from wiring.profile import SerialWiring

ROWS = COLUMNS = 15
CELLS = [f"{r:02d}{c:02d}" for r in range(ROWS) for c in range(COLUMNS)]
WINDOW_S = 0.15
STEP_S = 0.01
"""The simulated Pico's loop and the host's poll; a sweep of 225 readers takes 4 steps."""


def settled_cells(
    board: SimulatedSerialBoard, host: SerialSensorBoard, clock: FakeClock, steps: int
) -> set[str]:
    """Every cell named in an observation settled over ``steps`` steps."""
    seen: set[str] = set()
    for _ in range(steps):
        clock.advance(STEP_S)
        board.step()
        events: list[BoardEvent] = host.poll(clock.now())
        for event in events:
            if isinstance(event, BoardSettled):
                seen |= set(event.observation)
    return seen


@pytest.mark.slow
def test_taps_a_little_shorter_than_the_window_never_settle_on_a_swept_rfid_board() -> None:
    """Each tap lies on the board at 15 steps 10 ms apart: between 0.14 and 0.16 s,
    and only 0.14 s for sure, which a GPIO board's filter (first to last scan that
    saw it) rejects too. Reported report to report, 9 of these 20 got through."""
    rng = random.Random(20)
    clock = FakeClock(10.0)
    with SimulatedSerialBoard(ROWS, COLUMNS, "rfid", clock, cells=CELLS) as board:
        wiring = SerialWiring(port=board.port_name, rows=ROWS, columns=COLUMNS, sensor="rfid")
        host = SerialSensorBoard(wiring, CELLS, clock=clock, settle_window_s=WINDOW_S)
        settled_cells(board, host, clock, 100)
        got_through = []
        for tap in range(20):
            cell = rng.randrange(ROWS * COLUMNS)
            settled_cells(board, host, clock, rng.randrange(4))  # any phase of the sweep
            board.place(cell, tag=f"0400{tap:04X}")
            settled_cells(board, host, clock, 15)
            board.lift(cell)
            if CELLS[cell] in settled_cells(board, host, clock, 60):
                got_through.append(CELLS[cell])
        assert got_through == []
        # A piece laid and left still counts, within the window and a few sweeps
        # (the Pico's own debounce, the host's window plus one sweep).
        board.place(7, tag="04A1B2C3")
        for _ in range(round((WINDOW_S + 0.25) / STEP_S)):
            if CELLS[7] in settled_cells(board, host, clock, 1):
                break
        else:
            raise AssertionError("a piece laid and left never settled")
        host.close()
