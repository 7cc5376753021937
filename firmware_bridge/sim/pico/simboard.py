"""A simulated serial board: the real firmware on the far end of a pseudo-terminal.

The pieces lie on a simulated circuit (switches behind 74HC595/74HC165 chains, one
RFID reader on row and column antennas, ``rfid_boards``); the firmware from
``firmware_bridge/firmware`` scans it through the fake ``machine`` pins and
writes real frames into the pty, which the host opens with pyserial like any device.
Nothing runs in a thread: ``step`` runs the firmware's loop once and returns when what
it wrote has reached the host's end of the pty, so a test with a FakeClock, and a
simulated game, stays deterministic.

Given the profile's :class:`wiring.profile.Timing`, the board keeps the real parts'
time, in simulated time: each pass of the firmware's loop lasts as long as its
scan and its reads would on the Pico (each inventory costs its air time, the
antenna's switching and settling, the tags' power-up and the SPI transfers), passes
follow one another as the firmware's loop does, and what a pass sends reaches the
host once the pass is over and its bytes have crossed the serial link at the
profile's baud rate. The firmware runs with the profile's debounce and readers per
pass (docs/timing.md).
"""

from __future__ import annotations

import importlib
import os
import shutil
import tempfile
import time
import tty
from collections.abc import Sequence
from types import ModuleType, SimpleNamespace
from typing import Any

from hardware.clock import Clock
from wiring.profile import Timing

from .fake_antenna_mux import AntennaMuxBoard
from .fake_machine import FakeMachine, FakeNeoPixels, ShiftRegisterMatrix
from .fake_rowcol import RowColumnBoard
from .pty_line import LineNoise, PtyPort, SimulatedBoardError, pending
from .rfid_boards import board_kind, build_rfid, parse_tag
from .sim_config import FIRMWARES, SENSORS, SIM_CONFIG
from .skipped_scans import SkippedScans
from .timed_readers import TimedReaders
from .upy_firmware import MicroPythonFirmware, PassFigures, micropython_config


def _firmware(module: str) -> ModuleType:
    # Imported by name: the firmware is untyped MicroPython and stays outside mypy.
    return importlib.import_module(f"firmware_bridge.firmware.{module}")


app = _firmware("app")
runner = _firmware("runner")
leds = _firmware("leds")


_MIN_PASS_S = 50e-6
"""The shortest pass of the firmware's loop the model allows (it never takes no time)."""
_BITS_PER_BYTE = 10
"""A byte on a UART: start bit, 8 data bits, stop bit."""

_PTY_HOLDS = 4095
"""The most bytes the host's end of a pty holds unread (the line discipline's buffer)."""
_DELIVERY_S = 0.5
"""The longest wait for bytes to cross the pty (it takes microseconds)."""


class SimulatedSerialBoard:
    """The physical board plus the firmware running behind a pty.

    ``port_name`` is a stable path (a symlink, like a /dev/serial/by-id name) to
    open with pyserial; ``unplug``/``replug`` close the pty and open a new one
    behind the same path, rebooting the firmware as a real USB unplug would.

    An RFID board under switches (``"occupancy+rfid"``) has the row and column
    antennas docs/rf.md designs (``rfid_board="rowcol"``, ``RowColumnBoard``): one
    register-level TRF7962A read by the firmware's own driver, its antennas chosen
    through the TPIC6B595 chain; tags are 8-byte ISO/IEC 15693 UIDs. A board of readers
    alone (``"rfid"``), or ``rfid_board="mux"``, has the older one: an MFRC522 whose
    antenna the fake multiplexer switches from square to square (``AntennaMuxBoard``);
    tags 4, 7 or 10 bytes. ``register_readers`` is kept for callers that asked for it.

    With ``timing`` (the profile's), the board keeps the real parts' time (see the
    module's docstring); ``baudrate`` is the link's speed. The firmware in the
    MicroPython unix port (``firmware="micropython"``) runs in its own time instead.
    ``skip_scans`` (default) spares the host's CPU the scans no switch changed.
    """

    def __init__(
        self,
        rows: int,
        columns: int,
        sensor: str = "occupancy",
        clock: Clock | None = None,
        *,
        cells: Sequence[str] | None = None,
        snapshot_ms: int = 2000,
        register_readers: bool = False,
        timing: Timing | None = None,
        baudrate: int = 115200,
        firmware: str = "python",
        skip_scans: bool = True,
        rfid_board: str | None = None,
    ) -> None:
        if sensor not in SENSORS:
            raise SimulatedBoardError(
                f"unknown sensor kind {sensor!r}: use one of {', '.join(SENSORS)}"
            )
        if not (0 < rows <= 255 and 0 < columns <= 255):
            raise SimulatedBoardError(f"a board of {rows}×{columns} cells cannot be built")
        if cells is not None and len(cells) != rows * columns:
            raise SimulatedBoardError(
                f"{len(cells)} cell names given for a board of {rows * columns} cells"
            )
        self.rows = rows
        self.columns = columns
        self.sensor = sensor
        self.rfid_kind = board_kind(sensor, rfid_board)
        self.clock = clock
        self.cells: tuple[str, ...] | None = tuple(cells) if cells is not None else None
        self.snapshot_ms = snapshot_ms
        self.register_readers = register_readers
        self.timing = timing
        self.baudrate = baudrate
        self.skip_scans = skip_scans
        """Whether a matrix scan with no switch moved since the last is copied rather
        than simulated pin by pin (``SkippedScans``)."""
        self.pass_us = 0.0
        """What the firmware's pass now running has cost so far, in µs (timed boards)."""
        self._free_at: float | None = None
        """When the firmware's next pass starts (timed boards)."""
        self._link_free = 0.0
        self._outgoing: list[tuple[float, list[bytes]]] = []
        """Bytes on their way to the host, with when they arrive (timed boards)."""
        if firmware not in FIRMWARES:
            raise SimulatedBoardError(
                f"unknown firmware runner {firmware!r}: use one of {', '.join(FIRMWARES)}"
            )
        self.firmware_kind = firmware
        self.micropython: MicroPythonFirmware | None = None
        self.figures: PassFigures | None = None
        """With ``firmware="micropython"``: what the loop's passes cost there."""
        self.pieces: dict[int, bytes] = {}
        """What lies on the board: cell index -> tag bytes (b"" for no tag)."""
        self._dir = tempfile.mkdtemp(prefix="tabletop-sim-")
        self.port_name = os.path.join(self._dir, "usb-tabletop-sim-board")
        self._master: int | None = None
        self._slave: int | None = None
        self.firmware: Any = None
        self.boots = 0
        self._noise: LineNoise | None = None
        self.replug()

    def _boot(self) -> None:
        if self.firmware_kind == "micropython":
            self._boot_micropython()
            return
        machine = FakeMachine()
        config = SimpleNamespace(
            **SIM_CONFIG, ROWS=self.rows, COLUMNS=self.columns, SENSOR=self.sensor
        )
        timing = self.timing
        if timing is not None:
            debounce = round(timing.debounce_ms)
            config.DEBOUNCE_MS = config.RFID_DEBOUNCE_MS = debounce
            config.READERS_PER_STEP = timing.readers_per_pass
        self._free_at = None
        self._outgoing = []
        self._matrix: ShiftRegisterMatrix | None = None
        self.rfid_board: AntennaMuxBoard | RowColumnBoard | None = None
        if self.sensor in ("occupancy", "occupancy+rfid"):
            self._matrix = ShiftRegisterMatrix(
                machine.bench,
                spi_bus=config.MATRIX_SPI,
                latch_pin=config.ROW_LATCH,
                load_pin=config.COLUMN_LOAD,
                rows=self.rows,
                columns=self.columns,
                active_low=config.ACTIVE_LOW,
            )
        if self.rfid_kind is not None:
            self.rfid_board = build_rfid(
                machine.bench, config, self.rows, self.columns, self.rfid_kind, timing, self._charge
            )
        scanner: Any = runner.build_scanner(machine, config)
        self.scans: SkippedScans | None = None
        if self._matrix is not None and self.skip_scans:
            # The combined board's matrix scanner, then that scanner's shift registers.
            shift = scanner
            while hasattr(shift, "matrix"):
                shift = shift.matrix
            self.scans = SkippedScans(shift, self._matrix)
        if timing is not None and getattr(scanner, "readers", None) is not None:
            # Every tag read costs its switching, its tag's power-up and its transfers.
            scanner.readers = TimedReaders(scanner.readers, timing, self)
        if self._master is None:
            raise SimulatedBoardError("the simulated board is unplugged")
        self.port = PtyPort(self._master, self._noise)
        self.machine = machine
        self.neopixels = FakeNeoPixels(machine)
        self.firmware = app.Firmware(
            self.port,
            scanner,
            self.rows,
            self.columns,
            self.sensor,
            self.snapshot_ms,
            machine.WDT(timeout=4000),
            leds=leds.Chain(self.neopixels),
        )
        self._wire_pieces()
        self.boots += 1

    def _boot_micropython(self) -> None:
        """The firmware in the MicroPython unix port, its stdin/stdout the pty."""
        if self._master is None:
            raise SimulatedBoardError("the simulated board is unplugged")
        if self.micropython is not None:
            self.micropython.close()
        self._matrix = None
        self.rfid_board = None
        config = micropython_config(
            self.rows, self.columns, self.sensor, self.snapshot_ms, self.rfid_kind
        )
        self.micropython = MicroPythonFirmware(self._master, config)
        self.firmware = self.micropython
        self.figures = self.micropython.figures
        self.port = self.micropython  # type: ignore[assignment]
        self._wire_pieces()
        self.boots += 1

    def _wire_pieces(self) -> None:
        if self.micropython is not None and self.firmware is self.micropython:
            self.micropython.set_pieces(
                set(self.pieces), {i: tag for i, tag in self.pieces.items() if tag}
            )
            return
        if self._matrix is not None:
            self._matrix.closed = set(self.pieces)
        if self.rfid_board is not None:
            self.rfid_board.set_tags({i: tag for i, tag in self.pieces.items() if tag})

    def pixels(self) -> list[tuple[int, int, int]]:
        """What the LED chain shows, one (r, g, b) per LED in chain order, as the
        firmware last wrote it (none before the host set a chain up)."""
        if self.micropython is not None and self.firmware is self.micropython:
            return self.micropython.pixels()
        if self._master is None:
            return []
        return self.neopixels.shown()

    def lights(self, chain: Sequence[str]) -> dict[str, tuple[int, int, int]]:
        """The lit LEDs as cell -> (r, g, b), ``chain`` naming the cell of each LED in
        chain order (the profile's ``LedChain.chain``)."""
        return {
            cell: rgb for cell, rgb in zip(chain, self.pixels(), strict=False) if rgb != (0, 0, 0)
        }

    def index(self, cell: int | str) -> int:
        """The cell index of ``cell`` (an index, or a name when cell names were given)."""
        if isinstance(cell, int):
            if not 0 <= cell < self.rows * self.columns:
                raise SimulatedBoardError(
                    f"cell {cell} is off a board of {self.rows * self.columns} cells"
                )
            return cell
        if self.cells is None or cell not in self.cells:
            raise SimulatedBoardError(f"no cell named {cell!r} on the simulated board")
        return self.cells.index(cell)

    def place(self, cell: int | str, tag: str | None = None) -> None:
        """Lay a piece on ``cell``; ``tag`` is its UID in hex on an RFID board."""
        index = self.index(cell)
        self.pieces[index] = b"" if tag is None else parse_tag(self.rfid_kind, tag)
        self._wire_pieces()

    def lift(self, cell: int | str) -> None:
        """Take whatever lies on ``cell`` off the board."""
        self.pieces.pop(self.index(cell), None)
        self._wire_pieces()

    def step(self, now: float | None = None) -> None:
        """Run the firmware's main loop once at ``now`` (seconds; the clock's by default)."""
        if self._master is None:
            return
        if now is None:
            if self.clock is None:
                raise SimulatedBoardError("step needs a time: give now or a clock")
            now = self.clock.now()
        waiting = pending(self._slave)
        sent = self.port.sent
        if self.micropython is not None:
            self.micropython.host_unread = waiting
        if self.timing is None:
            self.firmware.step(round(now * 1000))
        else:
            self._run_passes(now, self.timing)
        if self.port.sent > sent:
            self._delivered(waiting + self.port.sent - sent)

    def _run_passes(self, now: float, timing: Timing) -> None:
        """Run every pass of the firmware's loop that starts by ``now``, each as long as
        its parts take, and send the host what has crossed the link by ``now``.

        A pass reads the board as it is at ``now``: the simulation changes it only
        between its steps, so a pass started since the last step sees it as it was
        when the pass started."""
        if self._free_at is None:
            self._free_at = now
        scan_us = timing.scan_ms * 1000 if self.sensor != "rfid" else 0.0
        while self._free_at <= now + 1e-9:
            start = self._free_at
            self.pass_us = timing.loop_us + scan_us
            self.port.held = []
            try:
                self.firmware.step(round(start * 1000))
            finally:
                out, self.port.held = self.port.held, None
            end = start + max(self.pass_us / 1e6, _MIN_PASS_S)
            if out:
                size = sum(len(frame) for frame in out)
                begin = max(self._link_free, end)
                self._link_free = begin + size * _BITS_PER_BYTE / self.baudrate
                self._outgoing.append((self._link_free, out))
            self._free_at = end
        while self._outgoing and self._outgoing[0][0] <= now + 1e-9:
            for frame in self._outgoing.pop(0)[1]:
                self.port.send(frame)

    def _charge(self, seconds: float) -> None:
        """The real parts' time, charged to the pass now running (timed boards)."""
        self.pass_us += seconds * 1e6

    def _delivered(self, count: int) -> None:
        """Wait until the host's end of the pty holds ``count`` bytes.

        The kernel hands bytes written into a pty to its other end a moment later,
        from a worker of its own; without this wait, whether the host reads a frame
        in this step or the next would depend on that moment, and a simulated game's
        intermediate states would differ from run to run."""
        count = min(count, _PTY_HOLDS)
        deadline = time.monotonic() + _DELIVERY_S
        while pending(self._slave) < count and time.monotonic() < deadline:
            time.sleep(0)

    @property
    def noise(self) -> LineNoise | None:
        """The damage on the cable, both ways (None: a clean cable)."""
        return self._noise

    @noise.setter
    def noise(self, noise: LineNoise | None) -> None:
        self._noise = noise
        if self._master is not None:
            self.port.noise = noise

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def unplug(self) -> None:
        """Pull the cable: the pty closes and the host's reads fail."""
        if self.micropython is not None:
            self.micropython.close()
            self.micropython = None
        if os.path.islink(self.port_name):
            os.unlink(self.port_name)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    def replug(self) -> None:
        """Plug the cable back in: a new pty behind ``port_name``, the firmware rebooted."""
        if self._master is not None:
            self.unplug()
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        os.symlink(os.ttyname(slave), self.port_name)
        self._boot()

    def close(self) -> None:
        self.unplug()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> SimulatedSerialBoard:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
