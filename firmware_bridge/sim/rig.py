"""The simulated table's devices on a fake clock: luma's dummy OLED first, then the
simulated board on mock pins (or the simulated Pico on its pseudo-terminal), the
buzzer, the LED and the LED chain, and last the buttons on the loop."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.core import Game
from hardware.board import SensorBoard
from hardware.buttons import ButtonStation, SimButtons
from hardware.clock import FakeClock
from hardware.dice import DiceSource
from hardware.oled import dummy_oled
from wiring.profile import Profile

from ..runtime.lightsink import LightSink
from ..runtime.table import open_display, open_inputs
from ..runtime.tags import TagTable
from .devices import simulated_sensors
from .light_frames import LightFrames
from .world import Surface

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

    from hardware.sim_matrix import SimulatedMatrix

    from ..referees.events import Event
    from .pico.simboard import SimulatedSerialBoard

# What the first frame does not need is imported once it is shown: gpiozero (the
# pins, buttons, buzzer and LED), the serial link and the simulated Pico.


class Rig:
    """The devices of one simulated table, opened in the daemon's order."""

    board: SensorBoard
    factory: MockFactory
    """The mock pin factory every simulated device is wired on."""
    surface: Surface
    """What the simulated world sets its pieces on."""
    interval: float
    """The board's own scan interval."""
    signals: Any
    """The buzzer and LED."""
    lights: LightSink
    """The LED chain under the squares (the simulated Pico's, on a serial board)."""
    station: ButtonStation
    buttons: SimButtons
    """The simulated fingers on the station's buttons."""

    def __init__(self, profile: Profile, seed: int, frames: Path | None) -> None:
        self.profile = profile
        self.frames = frames
        self.clock = FakeClock()
        self.dice = DiceSource.seeded(seed)
        self.tags = TagTable()
        self.oled = open_display(profile, oled_device=dummy_oled(profile.oled), frames_dir=frames)
        self.serial_sim: SimulatedSerialBoard | None = None
        self.matrix: SimulatedMatrix | None = None

    def devices(self) -> dict[str, Any]:
        """What a session is shown on and reads from before the board is open."""
        return {
            "display": self.oled,
            "signals": None,
            "labels": self.tags.lookup,
            "dice": self.dice,
            "lights": None,
        }

    def open_board(self, firmware: str, game: Callable[[], Game]) -> None:
        """The simulated board and its sensor board, the buzzer and the LED (``game``:
        the game on the table, whose lit board ``--frames`` draws)."""
        profile = self.profile
        sensors = simulated_sensors(profile, self.clock, self.tags, firmware)
        self.factory = sensors.factory
        self.serial_sim = sensors.serial_sim
        if sensors.matrix is not None:
            self.matrix = sensors.matrix
        self.interval = sensors.interval
        self.surface = sensors.surface
        devices = open_inputs(
            profile, self.clock, self.oled, pin_factory=self.factory, port=sensors.port
        )
        self.board = devices.board
        self.signals = devices.signals
        self.lights = devices.lights
        if self.frames is not None:
            self.lights = LightFrames(self.frames, game, self.lights)

    def open_buttons(self, on_event: Callable[[Event], None]) -> None:
        """The station's buttons, their events going to ``on_event``."""
        buttons = self.profile.buttons
        self.station = ButtonStation(
            buttons, pin_factory=self.factory, clock=self.clock, on_event=on_event
        )
        self.buttons = SimButtons(self.factory, buttons, self.clock)

    def close(self) -> None:
        self.station.close()
        self.signals.close()
        self.board.close()
        if self.serial_sim is not None:
            self.serial_sim.close()
        self.oled.close()

    def release(self) -> None:
        """The pins' factory given back, once everything on it is closed."""
        self.factory.reset()
