"""A Pi that holds the USB port open and stops reading does not make the Pico reset.

The firmware runs in the MicroPython unix port; the stand-in USB serial gives it the
room the Pi's buffer has left and, with none, makes a write wait MicroPython's
500 ms as a Pico's does, which the stand-in watchdog counts (4 s). The host stops
reading for 30 simulated seconds while pieces are laid, then reads again: the
firmware never resets, and the host's copy of the board catches up."""

from __future__ import annotations

import pytest

from firmware_bridge.link.board import SerialSensorBoard
from firmware_bridge.sim.pico.simboard import SimulatedSerialBoard
from firmware_bridge.sim.pico.upy_firmware import MicroPythonError
from hardware.board import BoardEvent, BoardSettled
from hardware.clock import FakeClock
from wiring.profile import SerialWiring

ROWS = COLUMNS = 15
CELLS = [f"c{i}" for i in range(ROWS * COLUMNS)]
STEP_S = 0.01


def tag(i: int) -> str:
    return f"{i:02x}04a1b2c3d4e5e0"  # an 8-byte ISO/IEC 15693 UID


def run(
    sim: SimulatedSerialBoard, host: SerialSensorBoard | None, clock: FakeClock, seconds: float
) -> list[BoardEvent]:
    events: list[BoardEvent] = []
    for _ in range(round(seconds / STEP_S)):
        clock.advance(STEP_S)
        sim.step()
        if host is not None:
            events += host.poll(clock.now())
    return events


def stall(
    usb: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[SimulatedSerialBoard, list[BoardEvent]]:
    """A busy board whose host stops reading for 30 s and then reads for 5 s."""
    monkeypatch.setenv("TABLETOP_USB", usb)
    clock = FakeClock(100.0)
    sim = SimulatedSerialBoard(
        ROWS, COLUMNS, "occupancy+rfid", clock, cells=CELLS, firmware="micropython"
    )
    try:
        wiring = SerialWiring(port=sim.port_name, rows=ROWS, columns=COLUMNS, sensor="rfid")
        host = SerialSensorBoard(wiring, CELLS, clock=clock, settle_window_s=0.15, sweep_s=0.1)
        for i in range(0, 80, 2):
            sim.place(i, tag=tag(i))
        run(sim, host, clock, 2.0)
        # The host stops reading; pieces are laid and lifted meanwhile.
        for second in range(30):
            if second % 3 == 0:
                sim.place(100 + second, tag=tag(100 + second))
            if second == 20:
                sim.lift(0)
            run(sim, None, clock, 1.0)
        return sim, run(sim, host, clock, 5.0)
    except BaseException:
        sim.close()
        raise


def test_a_host_that_stops_reading_for_30_s_never_resets_the_pico_and_is_caught_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sim, events = stall("outbox", monkeypatch)
    try:
        assert sim.figures is not None
        # The Pi's buffer filled: the firmware had to drop what a later frame repeats.
        assert sim.figures.dropped > 0
        # At most one write waited, once, when the stall began.
        assert sim.figures.stalled_ms <= 500
        assert sim.boots == 1
        last = [e for e in events if isinstance(e, BoardSettled)][-1].observation
        expected = {f"c{i}": tag(i).upper() for i in range(2, 80, 2)}
        expected |= {f"c{100 + s}": tag(100 + s).upper() for s in range(0, 30, 3)}
        assert dict(last) == expected
    finally:
        sim.close()


def test_writing_each_frame_at_once_as_before_the_outbox_is_reset_by_the_watchdog(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same stall with every frame written at once, waiting as MicroPython's write
    waits: a snapshot's parts each wait 500 ms and the watchdog resets the Pico."""
    with pytest.raises(MicroPythonError, match="watchdog reset"):
        sim, _events = stall("waiting", monkeypatch)
        sim.close()
