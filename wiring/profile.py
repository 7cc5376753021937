"""The board profile: what is wired to what, as frozen records (``msgspec.Struct``).

A profile is read from TOML by ``wiring.loader``; everything here is already
validated. Pins are BCM numbers.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct, field

SensorKind = Literal["gpio-matrix", "serial"]
OledDriver = Literal["ssd1306", "sh1106"]
BUTTON_NAMES: tuple[str, ...] = ("roll", "left", "right", "ok", "back")


class MatrixWiring(Struct, frozen=True):
    """A diode matrix scanned from Pi GPIO: rows driven one at a time, columns read.

    With ``active_low`` the driven row is pulled low and a closed switch pulls its
    column low through the diode; columns have pull-ups.
    """

    row_pins: tuple[int, ...]
    column_pins: tuple[int, ...]
    active_low: bool = True
    scan_hz: float = 50.0


class SerialWiring(Struct, frozen=True):
    """A sensor board behind a microcontroller on a serial link.

    ``port`` is a device path, a ``/dev/serial/by-id`` name or a pyserial URL.
    ``rows``/``columns`` are the board size the firmware reports; ``sensor`` is
    ``"occupancy"`` or ``"rfid"``.
    """

    port: str
    baudrate: int = 115200
    sensor: Literal["occupancy", "rfid"] = "occupancy"
    rows: int = 15
    columns: int = 15


class Timing(Struct, frozen=True):
    """How long the board's real parts take, in the profile's ``[timing]`` section.

    The simulator runs the board's firmware in this time (simulated, so it costs no
    wall time), and the host expects a sweep of the board to take about
    :meth:`sweep_s`. Every figure has a default per board kind, with its source in
    docs/timing.md; a builder enters their own board's measured figures.
    """

    loop_us: float = 800.0
    """The firmware's main loop per pass, besides scanning and reading: the link's
    reads and writes and the bookkeeping (Pico boards)."""
    scan_ms: float = 0.0
    """One scan of the whole occupancy matrix: through the shift registers and the
    firmware's per-cell debounce on a Pico, reading the pins on Pi GPIO."""
    debounce_ms: float = 0.0
    """The firmware's debounce: a new reading must be seen again this much later
    (Pico boards; on Pi GPIO the host's settle window is the only filter)."""
    transfer_us: float = 40.0
    """One register transfer with an RFID reader: MicroPython's cost of the driver's
    call plus the bytes' time on SPI."""
    transfers_empty: int = 67
    """Transfers to find a reader's square empty (the driver polls until it gives up)."""
    transfers_tag: tuple[int, int, int] = (135, 178, 221)
    """Transfers to read a tag's 4-, 7- and 10-byte UID (wake, anticollision, select,
    halt)."""
    switch_us: float = 50.0
    """Choosing the next reader or antenna (the multiplexer's select lines)."""
    power_up_ms: float = 0.0
    """Field on to tag ready, paid on every read when the field is on only while a
    square is read (an antenna multiplexer); 0 when every reader's field stays on."""
    readers_per_pass: int = 16
    """Readers read per pass of the firmware's loop, round the board."""

    def read_us(self, tag: bytes | None) -> float:
        """The time of one RFID read that found ``tag`` (None: nothing answered)."""
        if tag is None:
            transfers = self.transfers_empty
        else:
            transfers = self.transfers_tag[min(2, max(0, (len(tag) - 4) // 3))]
        return self.switch_us + self.power_up_ms * 1000 + transfers * self.transfer_us

    def sweep_s(self, cells: int, rfid: bool) -> float:
        """About how long one sweep of a board of ``cells`` takes (every cell read once):
        what the host allows for a sweep. A board of switches scans them all; with a
        reader beside them it also reads the tags of the squares that changed, allowed
        for as a line of 15 long tags; readers alone read every square."""
        if self.scan_ms > 0 or not rfid:
            reads = min(cells, LINE_READS) * self.read_us(bytes(10)) if rfid else 0.0
            return (self.scan_ms * 1000 + self.loop_us + reads) / 1e6
        passes = -(-cells // max(1, self.readers_per_pass))
        return (passes * self.loop_us + cells * self.read_us(None)) / 1e6


LINE_READS = 15
"""Tag reads a sweep of switches and a reader is allowed: a whole line laid at once."""


class LedChain(Struct, frozen=True):
    """A chain of addressable LEDs (WS2812B or SK6812 minis), one under each square
    and under the rack slots and spots the profile has, driven by the Pico.

    ``chain`` is every lit cell in the order the data line reaches it: index 0 is
    the LED nearest the Pico's data pin.
    """

    pin: int
    """The Pico GPIO that drives the data line (through the level shifter)."""
    order: Literal["rows", "serpentine", "table"]
    """How the chain runs: along each row; along a row and back along the next;
    or as the profile's ``table`` lists the cells."""
    chain: tuple[str, ...]
    """The cells in chain order."""
    brightness: float = 0.25
    """The share of full brightness every colour is sent at, 0 to 1."""
    budget_ma: int = 2000
    """The most current the chain may draw, in mA: the firmware scales a frame down
    to stay within it."""


class ButtonWiring(Struct, frozen=True):
    """The button station: one BCM pin per button, wired to ground (pull-ups on)."""

    pins: dict[str, int]
    hold_time: float = 1.0
    bounce_time: float | None = 0.02


class OledWiring(Struct, frozen=True):
    driver: OledDriver = "ssd1306"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    rotate: int = 0
    width: int = 128
    height: int = 64


class Profile(Struct, frozen=True):
    """One board: its sensors, cell map, button station, buzzer, LED and OLED.

    ``cells`` lists the cell names in sensor order: for a matrix, row by row
    (``cells[r * columns + c]`` is the cell at driven row ``r``, read column ``c``);
    for a serial board, in the firmware's cell index order.
    """

    name: str
    description: str
    games: tuple[str, ...]
    sensor: SensorKind
    cells: tuple[str, ...]
    buttons: ButtonWiring
    oled: OledWiring
    matrix: MatrixWiring | None = None
    serial: SerialWiring | None = None
    buzzer_pin: int | None = None
    led_pin: int | None = None
    leds: LedChain | None = None
    """The LED chain under the squares, on Pico boards that have one."""
    simulated_only: bool = False
    settle_ms: int = 150
    racks: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """Rack cells by seat, counted from 0 (``[racks] seat1`` is seat 0): cells of
    ``cells`` where a player's rack tiles stand, so the board can see the rack.
    Empty when the board has none."""
    timing: Timing = field(default_factory=Timing)
    """How long the board's real parts take (``[timing]``)."""
    specials_printed: bool = False
    """The board has DoubleCross's special spaces printed on it, so the set-up does not
    list where to put their markers."""
    source: str = field(default="")
    """Where the profile was read from, for messages."""

    def used_pins(self) -> dict[int, str]:
        """Every BCM pin the profile uses, with what it is for."""
        used: dict[int, str] = {}
        if self.matrix is not None:
            for i, pin in enumerate(self.matrix.row_pins):
                used[pin] = f"matrix row {i}"
            for i, pin in enumerate(self.matrix.column_pins):
                used[pin] = f"matrix column {i}"
        for name, pin in self.buttons.pins.items():
            used[pin] = f"button {name}"
        if self.buzzer_pin is not None:
            used[self.buzzer_pin] = "buzzer"
        if self.led_pin is not None:
            used[self.led_pin] = "status LED"
        return used
