"""``tabletop diag --sim``: the bench on the simulated devices ``tabletop sim`` uses.

The board is the simulated diode matrix on gpiozero's mock pins, or the real Pico
firmware on the far end of a pseudo-terminal; the buttons are gpiozero buttons on
mock pins; the OLED is luma's dummy device. Time is a fake clock. A script's
lines (``place``, ``lift``, ``slide``, ``tap``, ``press``, ``hold``, ``wait``,
``unplug``, ``replug``) move the pieces and press the buttons.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hardware.buttons import ButtonStation, SimButtons
from hardware.clock import FakeClock
from hardware.oled import dummy_oled
from hardware.pins import mock_pin_factory
from hardware.sim_matrix import SimulatedMatrix
from wiring.profile import Profile

from ..runtime.table import open_devices
from ..runtime.tags import TagTable
from ..sim.pico.sim_config import firmware_sensor
from ..sim.script import Line, ScriptError, seconds
from ..sim.world import MatrixSurface, SerialSurface, Surface, World
from .diag import Bench, board_kind

if TYPE_CHECKING:
    from ..sim.pico.simboard import SimulatedSerialBoard

SERIAL_STEP_S = 0.01
"""How often the simulated Pico runs its loop and the host reads the link."""
PACE_S = 0.3
"""Simulated time after each script line: longer than a settle window and the Pico's
debounce, so what the line did has been reported."""
VERBS = ("place", "lift", "slide", "tap", "press", "hold", "wait", "unplug", "replug")


class SimBench:
    """A :class:`Bench` over simulated devices, and the hand that works them."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.clock = FakeClock()
        self.factory = mock_pin_factory()
        self.tags = TagTable()
        cells = tuple(profile.cells)
        self.serial_sim: SimulatedSerialBoard | None = None
        port: str | None = None
        surface: Surface
        if profile.matrix is not None:
            self.matrix = SimulatedMatrix(self.factory, profile.matrix, cells)
            surface = MatrixSurface(self.matrix)
            self.interval = 1.0 / profile.matrix.scan_hz
        elif profile.serial is not None:
            from ..sim.pico.simboard import SimulatedSerialBoard

            wiring = profile.serial
            self.serial_sim = SimulatedSerialBoard(
                wiring.rows, wiring.columns, firmware_sensor(wiring.sensor), self.clock, cells=cells
            )
            surface = SerialSurface(self.serial_sim, self.tags, wiring.sensor == "rfid")
            port = self.serial_sim.port_name
            self.interval = SERIAL_STEP_S
        else:
            raise ValueError(
                f"profile {profile.name!r} has neither [matrix] nor [serial] wiring: "
                "there are no sensors to show"
            )
        self.devices = open_devices(
            profile,
            self.clock,
            pin_factory=self.factory,
            oled_device=dummy_oled(profile.oled),
            port=port,
        )
        self.world = World(cells, surface)
        self.bench = Bench(
            profile,
            self.devices.board,
            self.devices.oled,
            self.devices.signals,
            self.tags.lookup,
            board_kind="simulated " + board_kind(profile).split(" on ")[0],
            lights=self.devices.lights,
        )
        self.station = ButtonStation(
            profile.buttons,
            pin_factory=self.factory,
            clock=self.clock,
            on_event=self.bench.events.put,
        )
        self.buttons = SimButtons(self.factory, profile.buttons, self.clock)

    def run_for(self, seconds_: float) -> None:
        """Let simulated time pass, the Pico and the bench stepping as on the table."""
        end = self.clock.now() + seconds_
        self._step()
        while self.clock.now() < end - 1e-9:
            self.clock.advance(min(self.interval, end - self.clock.now()))
            self._step()

    def _step(self) -> None:
        now = self.clock.now()
        if self.serial_sim is not None:
            self.serial_sim.step(now)
        self.bench.step(now)

    def lay_tag(self, cell: str) -> None:
        """The simulated hand of the cross-read walk: the one tag moved onto ``cell``,
        whatever else lay on the board lifted first."""
        for other in list(self.world.readings()):
            self.world.lift(other)
        self.world.place(cell, "tag")

    def press(self, name: str, *, long: bool = False) -> None:
        """Press a station button, held past its hold time when ``long``."""
        if long:
            self.buttons.hold(name, self.profile.buttons.hold_time + 0.2)
        else:
            self.buttons.press(name)

    def run_line(self, line: Line) -> None:
        """Carry out one script line, then let :data:`PACE_S` pass."""
        try:
            self._run(line)
        except ValueError as exc:
            if isinstance(exc, ScriptError):
                raise
            raise line.error(str(exc)) from None
        self.run_for(PACE_S)

    def _run(self, line: Line) -> None:
        verb, args = line.verb, line.args
        if verb not in VERBS:
            raise line.error(f"'{verb}' has no meaning in diag; use one of {', '.join(VERBS)}")
        if verb == "place":
            cells = args[0].split(",")
            if len(cells) != 1:
                raise line.error("diag places one piece on one cell: place CELL [PIECE]")
            self.world.place(cells[0], args[1] if len(args) > 1 else "piece")
        elif verb == "lift":
            self.world.lift(args[0])
        elif verb == "slide":
            label = self.world.lift(args[0])
            for over in args[1:-1]:
                self.run_for(0.04)
                self.world.place(over, label)
                self.run_for(0.06)
                self.world.lift(over)
            self.world.place(args[-1], label)
        elif verb == "tap":
            self.world.place(args[0], "hand")
            self.run_for(seconds(line, 1, 0.05))
            self.world.lift(args[0])
        elif verb in ("press", "hold"):
            if args[0] not in self.profile.buttons.pins:
                raise line.error(
                    f"no button {args[0]!r} on {self.profile.name} "
                    f"(buttons: {', '.join(self.profile.buttons.pins)})"
                )
            if verb == "press":
                self.press(args[0])
            else:
                self.buttons.hold(args[0], seconds(line, 1, self.profile.buttons.hold_time + 0.2))
        elif verb == "wait":
            self.run_for(seconds(line, 0, 0))
        else:
            if self.serial_sim is None:
                raise line.error(f"'{verb}' needs a serial board; {self.profile.name} is on GPIO")
            if verb == "unplug":
                self.serial_sim.unplug()
            else:
                self.serial_sim.replug()

    def close(self) -> None:
        self.station.close()
        self.devices.close()
        if self.serial_sim is not None:
            self.serial_sim.close()
        self.factory.reset()
