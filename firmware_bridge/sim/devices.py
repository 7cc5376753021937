"""The simulator's sensor board: mock pins, and either a simulated diode matrix on them
or a simulated Pico on a pseudo-terminal running the real firmware, with the surface
the simulated world sets its pieces on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct

from hardware.clock import FakeClock
from wiring.profile import Profile

from ..runtime.tags import TagTable
from .pico.sim_config import firmware_sensor
from .world import MatrixSurface, SerialSurface, Surface

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

    from hardware.sim_matrix import SimulatedMatrix

    from .pico.simboard import SimulatedSerialBoard

SERIAL_STEP_S = 0.01
"""How often the simulated Pico runs its loop and the host reads the link."""


class SimSensors(Struct):
    """The simulated sensor board the profile describes, on its own mock pins."""

    factory: MockFactory
    """The mock pin factory every simulated device is wired on."""
    surface: Surface
    interval: float
    """The board's own scan interval (how often a serial board's link is read)."""
    port: str | None = None
    """The pseudo-terminal of a serial board (None: a board on GPIO)."""
    serial_sim: SimulatedSerialBoard | None = None
    matrix: SimulatedMatrix | None = None


def simulated_sensors(
    profile: Profile, clock: FakeClock, tags: TagTable, firmware: str
) -> SimSensors:
    """The profile's sensor board, simulated: a matrix on mock pins, or a serial board
    whose firmware runs as ``firmware`` says."""
    from hardware.pins import mock_pin_factory

    cells = tuple(profile.cells)
    factory = mock_pin_factory()
    if profile.matrix is not None:
        from hardware.sim_matrix import SimulatedMatrix

        matrix = SimulatedMatrix(factory, profile.matrix, cells)
        return SimSensors(
            factory, MatrixSurface(matrix), 1.0 / profile.matrix.scan_hz, matrix=matrix
        )
    # Imported here: a board on GPIO does not need the serial link.
    from .pico.simboard import SimulatedSerialBoard

    assert profile.serial is not None
    wiring = profile.serial
    serial_sim = SimulatedSerialBoard(
        wiring.rows,
        wiring.columns,
        firmware_sensor(wiring.sensor),
        clock,
        cells=cells,
        timing=profile.timing,
        baudrate=wiring.baudrate,
        firmware=firmware,
    )
    surface = SerialSurface(serial_sim, tags, wiring.sensor == "rfid")
    return SimSensors(
        factory, surface, SERIAL_STEP_S, port=serial_sim.port_name, serial_sim=serial_sim
    )
