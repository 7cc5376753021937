"""The board profile: what is wired to what, as plain frozen dataclasses.

A profile is read from TOML by ``wiring.loader``; everything here is already
validated. Pins are BCM numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

SensorKind = Literal["gpio-matrix", "serial"]
OledDriver = Literal["ssd1306", "sh1106"]
BUTTON_NAMES: tuple[str, ...] = ("roll", "left", "right", "ok", "back")


@dataclass(frozen=True)
class MatrixWiring:
    """A diode matrix scanned from Pi GPIO: rows driven one at a time, columns read.

    With ``active_low`` the driven row is pulled low and a closed switch pulls its
    column low through the diode; columns have pull-ups.
    """

    row_pins: tuple[int, ...]
    column_pins: tuple[int, ...]
    active_low: bool = True
    scan_hz: float = 50.0


@dataclass(frozen=True)
class SerialWiring:
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


@dataclass(frozen=True)
class ButtonWiring:
    """The button station: one BCM pin per button, wired to ground (pull-ups on)."""

    pins: dict[str, int]
    hold_time: float = 1.0
    bounce_time: float | None = 0.02


@dataclass(frozen=True)
class OledWiring:
    driver: OledDriver = "ssd1306"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    rotate: int = 0
    width: int = 128
    height: int = 64


@dataclass(frozen=True)
class Profile:
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
    simulated_only: bool = False
    settle_ms: int = 150
    racks: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """Rack cells by seat, counted from 0 (``[racks] seat1`` is seat 0): cells of
    ``cells`` where a player's rack tiles stand, so the board can see the rack.
    Empty when the board has none."""
    specials_printed: bool = False
    """The board has DoubleCross's special spaces printed on it, so the set-up does not
    list where to put their markers."""
    source: str = field(default="", compare=False)
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
