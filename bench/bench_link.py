"""How long the host takes to have the whole board over the serial link, clean and noisy.

The simulated Pico (the real firmware on a pseudo-terminal) reads a 15×15 RFID
board holding 100 tagged pieces; the host connects, and the figure is the
simulated time until it settles on exactly that board. On the noisy cable every
bit, either way, flips with probability 1e-3 (one seed per sample). A second
figure is the time to catch up after cell events are lost: a piece is laid while
the cable drops the Pico's frames, and the clock runs until the host shows it.

    python bench/bench_link.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

from firmware_bridge.link.board import SerialSensorBoard
from firmware_bridge.sim.pico.pty_line import LineNoise
from firmware_bridge.sim.pico.simboard import SimulatedSerialBoard
from hardware.board import BoardSettled
from hardware.clock import FakeClock
from wiring.profile import SerialWiring

ROWS = COLUMNS = 15
CELLS = [f"{r:02d}{c:02d}" for r in range(ROWS) for c in range(COLUMNS)]
PIECES = 100
BIT_ERROR_RATE = 1e-3
STEP_S = 0.01
GIVE_UP_S = 60.0
WHOLE_TARGET_S = 3.0
CATCH_UP_TARGET_S = 3.0


def _rig(seed: int, ber: float) -> tuple[SimulatedSerialBoard, SerialSensorBoard, FakeClock]:
    rng = random.Random(seed)
    clock = FakeClock(10.0)
    # As the RFID boards are built: switches say where, one reader reads what.
    board = SimulatedSerialBoard(ROWS, COLUMNS, "occupancy+rfid", clock, cells=CELLS)
    for cell in rng.sample(range(ROWS * COLUMNS), PIECES):
        # 8-byte ISO/IEC 15693 UIDs as sent on air, least significant byte first: a
        # serial number, then a manufacturer code (NXP's 04h) and E0h.
        board.place(cell, tag=(rng.randbytes(6) + b"\x04\xe0").hex())
    board.noise = LineNoise(seed, ber) if ber else None
    wiring = SerialWiring(port=board.port_name, rows=ROWS, columns=COLUMNS, sensor="rfid")
    host = SerialSensorBoard(wiring, CELLS, clock=clock, settle_window_s=0.15)
    return board, host, clock


def _truth(board: SimulatedSerialBoard) -> dict[str, str]:
    return {CELLS[i]: tag.hex().upper() for i, tag in board.pieces.items()}


def _until_shown(board: SimulatedSerialBoard, host: SerialSensorBoard, clock: FakeClock) -> float:
    """Simulated seconds until the host settles on the board as it lies."""
    start = clock.now()
    truth = _truth(board)
    while clock.now() - start < GIVE_UP_S:
        clock.advance(STEP_S)
        board.step()
        for event in host.poll(clock.now()):
            if isinstance(event, BoardSettled) and dict(event.observation) == truth:
                return clock.now() - start
    return GIVE_UP_S


def whole_board_s(seed: int, ber: float) -> float:
    """From connecting to the whole board settled."""
    board, host, clock = _rig(seed, ber)
    try:
        return _until_shown(board, host, clock)
    finally:
        host.close()
        board.close()


def catch_up_s(seed: int) -> float:
    """From a piece laid while the Pico's frames are lost to the host showing it."""
    board, host, clock = _rig(seed, 0.0)
    try:
        _until_shown(board, host, clock)
        free = next(i for i in range(ROWS * COLUMNS) if i not in board.pieces)
        board.noise = LineNoise(seed, 0.0, cut_rate=0.999)  # the cable drops nearly all
        board.place(free, tag="A1B2C3D4E5F604E0")
        start = clock.now()
        for _ in range(round(0.5 / STEP_S)):
            clock.advance(STEP_S)
            board.step()
            host.poll(clock.now())
        board.noise = LineNoise(seed, BIT_ERROR_RATE)
        return clock.now() - start + _until_shown(board, host, clock)
    finally:
        host.close()
        board.close()


def run(quick: bool) -> list[dict[str, Any]]:
    seeds = range(1, 4 if quick else 11)
    return [
        {
            "figure": "whole 15×15 RFID board, clean cable",
            "unit": "s",
            "target": WHOLE_TARGET_S,
            "better": "lower",
            "samples": [whole_board_s(seed, 0.0) for seed in seeds[:3]],
        },
        {
            "figure": "whole 15×15 RFID board, bit errors 1e-3",
            "unit": "s",
            "target": WHOLE_TARGET_S,
            "better": "lower",
            "samples": [whole_board_s(seed, BIT_ERROR_RATE) for seed in seeds],
        },
        {
            "figure": "catch up after lost cell events, bit errors 1e-3",
            "unit": "s",
            "target": CATCH_UP_TARGET_S,
            "better": "lower",
            "samples": [catch_up_s(seed) for seed in seeds],
        },
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer seeds")
    args = parser.parse_args()
    for figure in run(args.quick):
        samples = figure["samples"]
        print(
            f"{figure['figure']}: median {statistics.median(samples):.2f} {figure['unit']} "
            f"(min {min(samples):.2f}, max {max(samples):.2f}, {len(samples)} runs; "
            f"target ≤ {figure['target']:.1f})"
        )


if __name__ == "__main__":
    main()
