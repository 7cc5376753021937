"""The profile TOML schema: checks a profile's tables and builds a ``Profile``.

Every problem is collected, never just the first: each names the file and the
key, says what is wrong and what to do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, cast

from msgspec import Struct, field
from msgspec.structs import replace

from wiring.cells import SCHEMES, scheme_cells
from wiring.header import GPIO_PINS, I2C1_PINS, ID_EEPROM_PINS, physical_pin
from wiring.leds import read_leds
from wiring.profile import (
    BUTTON_NAMES,
    ButtonWiring,
    MatrixWiring,
    OledDriver,
    OledWiring,
    Profile,
    SensorKind,
    SerialWiring,
    Timing,
)

MAX_SEATS = 4
"""How many seats a profile may give rack cells to."""

KEYS: dict[str, dict[str, str]] = {
    "board": {
        "name": 'name = "my-board"',
        "description": 'description = "What this board is"',
        "games": 'games = ["double-take"]',
        "sensor": 'sensor = "gpio-matrix"',
        "cells": 'cells = "files-ranks"',
        "simulated_only": "simulated_only = false",
        "settle_ms": "settle_ms = 150",
        "specials_printed": "specials_printed = false",
    },
    "matrix": {
        "row_pins": "row_pins = [4, 17, 27]",
        "column_pins": "column_pins = [23, 24, 25]",
        "active_low": "active_low = true",
        "scan_hz": "scan_hz = 50",
    },
    "serial": {
        "port": 'port = "/dev/ttyACM0"',
        "baudrate": "baudrate = 115200",
        "sensor": 'sensor = "occupancy"',
        "rows": "rows = 15",
        "columns": "columns = 15",
    },
    "buttons": {
        "roll": "roll = 10",
        "left": "left = 9",
        "right": "right = 11",
        "ok": "ok = 8",
        "back": "back = 7",
        "hold_time": "hold_time = 1.0",
        "bounce_time": "bounce_time = 0.02",
    },
    "timing": {
        "loop_us": "loop_us = 300",
        "scan_ms": "scan_ms = 7.4",
        "debounce_ms": "debounce_ms = 30",
        "transfer_us": "transfer_us = 40",
        "transfers_empty": "transfers_empty = 67",
        "transfers_tag": "transfers_tag = [135, 178, 221]",
        "switch_us": "switch_us = 50",
        "power_up_ms": "power_up_ms = 5",
        "readers_per_pass": "readers_per_pass = 16",
    },
    "racks": {f"seat{n}": f'seat{n} = ["A{15 + n}", "B{15 + n}"]' for n in range(1, MAX_SEATS + 1)},
    "buzzer": {"pin": "pin = 18"},
    "led": {"pin": "pin = 14"},
    "leds": {
        "pin": "pin = 15",
        "order": 'order = "serpentine"',
        "table": 'table = ["A1", "B1", "C1"]',
        "brightness": "brightness = 0.25",
        "budget_ma": "budget_ma = 2000",
    },
    "oled": {
        "driver": 'driver = "ssd1306"',
        "i2c_port": "i2c_port = 1",
        "i2c_address": "i2c_address = 0x3C",
        "rotate": "rotate = 0",
        "width": "width = 128",
        "height": "height = 64",
    },
}
"""Section → key → an example line, for suggestions and for the reference."""

SENSORS: tuple[SensorKind, ...] = ("gpio-matrix", "serial")
OLED_DRIVERS: tuple[OledDriver, ...] = ("ssd1306", "sh1106")
OLED_ADDRESSES = (0x3C, 0x3D)
OLED_SIZES: dict[str, tuple[tuple[int, int], ...]] = {
    "ssd1306": ((128, 64), (128, 32), (96, 16), (64, 48), (64, 32)),
    "sh1106": ((128, 128), (128, 64), (128, 32)),
}
SERIAL_SENSORS = ("occupancy", "rfid")

# The defaults of [timing], per board kind; docs/timing.md says where each comes from.
PICO_LOOP_US = 300.0
"""The Pico firmware's loop with nothing to scan: 9.7 µs in the MicroPython unix
port, ×30 for the RP2040 at 125 MHz."""
PICO_SCAN_US_PER_CELL = 33.0
"""The Pico's matrix scan and per-cell debounce: 248 µs for 15 × 15 in the unix port,
×30, per cell."""
GPIO_SCAN_US_PER_CELL = 15.0
"""One gpiozero pin read on the Pi, per cell of the matrix."""
PICO_DEBOUNCE_MS = 30.0
"""The firmware's config.py: DEBOUNCE_MS (an RFID board's switches debounce so too)."""
MUX_READ = Timing(power_up_ms=3.0, transfers_empty=36, transfers_tag=(93, 132, 171))
"""One read through the antenna multiplexer (its ``power_up_ms``, ``transfers_empty`` and
``transfers_tag``): config.py's TAG_POWER_US with the field
on, and the driver's transfers counted on the register-level fake (13 empty; 68, 107,
146 for 4-, 7- and 10-byte UIDs) plus some 25 polls while the reader's 1 ms timer runs
out on a frame nobody answers (the empty square's wake-up, a tag's halt)."""
MAX_SCAN_HZ = 1000.0

_MISSING = object()


class Document(Struct):
    """A profile's tables after ``extends`` is applied, with each key's file.

    ``label`` is the profile's own file; ``origins`` maps (section, key) to the
    file the value came from, ``section_origins`` a section to where it began.
    """

    label: str
    default_name: str
    tables: dict[str, dict[str, Any]]
    origins: dict[tuple[str, str], str] = field(default_factory=dict)
    section_origins: dict[str, str] = field(default_factory=dict)


def closest(word: str, choices: list[str]) -> str:
    """A ``did you mean`` hint for a misspelt name, or a list of the choices."""
    import difflib  # here: only a misspelt name needs it

    near = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if near:
        return f"did you mean {near[0]!r}?"
    return "known: " + ", ".join(choices)


def _type_name(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


class _PinUse(Struct, frozen=True):
    pin: int
    section: str
    key: str
    what: str


class _Builder:
    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.problems: list[str] = []
        self.pins: list[_PinUse] = []

    # -- reporting -------------------------------------------------------

    def problem(self, section: str, key: str, what: str, todo: str) -> None:
        base = key.split("[", 1)[0]
        label = (
            self.doc.origins.get((section, base))
            or self.doc.section_origins.get(section)
            or self.doc.label
        )
        where = f"[{section}] {key}" if key else f"[{section}]"
        self.problems.append(f"{label}: {where}: {what}; {todo}")

    # -- typed access ----------------------------------------------------

    def has(self, section: str) -> bool:
        return section in self.doc.tables

    def raw(self, section: str, key: str, required: bool) -> Any:
        table = self.doc.tables.get(section, {})
        if key in table:
            return table[key]
        if required:
            self.problem(section, key, "missing key", f"add `{KEYS[section][key]}`")
        return _MISSING

    def wrong_type(self, section: str, key: str, value: object, want: str) -> None:
        self.problem(
            section,
            key,
            f"{_type_name(value)} ({value!r}) where {want} is needed",
            f"write it like `{KEYS[section][key.split('[', 1)[0]]}`",
        )

    def text(self, section: str, key: str, default: str | None = None) -> str | None:
        value = self.raw(section, key, default is None)
        if value is _MISSING:
            return default
        if not isinstance(value, str):
            self.wrong_type(section, key, value, "a string")
            return None
        return value

    def boolean(self, section: str, key: str, default: bool) -> bool:
        value = self.raw(section, key, False)
        if value is _MISSING:
            return default
        if not isinstance(value, bool):
            self.wrong_type(section, key, value, "true or false")
            return default
        return value

    def integer(
        self, section: str, key: str, default: int | None, lo: int, hi: int | None = None
    ) -> int | None:
        value = self.raw(section, key, default is None)
        if value is _MISSING:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.wrong_type(section, key, value, "an integer")
            return None
        if value < lo or (hi is not None and value > hi):
            span = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
            self.problem(section, key, f"{value} is out of range", f"use a value {span}")
            return None
        return value

    def number(
        self, section: str, key: str, default: float, lo: float, hi: float | None = None
    ) -> float | None:
        value = self.raw(section, key, False)
        if value is _MISSING:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.wrong_type(section, key, value, "a number")
            return None
        if value < lo or (hi is not None and value > hi):
            span = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
            self.problem(section, key, f"{value} is out of range", f"use a value {span}")
            return None
        return float(value)

    def choice(
        self, section: str, key: str, choices: tuple[str, ...], default: str | None
    ) -> str | None:
        value = self.text(section, key, default)
        if value is None:
            return None
        if value not in choices:
            self.problem(
                section, key, f"{value!r} is not a known value", closest(value, list(choices))
            )
            return None
        return value

    def pin(self, section: str, key: str, what: str, required: bool = True) -> int | None:
        value = self.raw(section, key, required)
        if value is _MISSING:
            return None
        return self._pin_value(section, key, what, value)

    def pin_list(self, section: str, key: str, what: str) -> tuple[int, ...] | None:
        value = self.raw(section, key, True)
        if value is _MISSING:
            return None
        if not isinstance(value, list) or not value:
            self.wrong_type(section, key, value, "a non-empty list of BCM pin numbers")
            return None
        pins = [
            self._pin_value(section, f"{key}[{i}]", f"{what} {i}", v) for i, v in enumerate(value)
        ]
        if any(p is None for p in pins):
            return None
        return tuple(cast(list[int], pins))

    def _pin_value(self, section: str, key: str, what: str, value: object) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.wrong_type(section, key, value, "a BCM pin number")
            return None
        if value not in GPIO_PINS:
            self.problem(
                section,
                key,
                f"GPIO {value} is not on the Pi's 40-pin header",
                "use a BCM number from 4 to 27 (0–3 are the ID EEPROM and I2C buses)",
            )
            return None
        self.pins.append(_PinUse(value, section, key, what))
        return value

    # -- sections --------------------------------------------------------

    def check_keys(self) -> None:
        for section, table in self.doc.tables.items():
            if section not in KEYS:
                self.problem(
                    section,
                    "",
                    "unknown section",
                    closest(section, list(KEYS)) + " (or remove the section)",
                )
                continue
            for key in table:
                if key not in KEYS[section] and section != "racks":
                    self.problem(section, key, "unknown key", closest(key, list(KEYS[section])))

    def build(self) -> Profile | None:
        self.check_keys()
        for section in ("board", "buttons", "oled"):
            if not self.has(section):
                self.problem(section, "", "missing section", f"add a [{section}] table")
        name = self.text("board", "name", self.doc.default_name) or self.doc.default_name
        description = self.text("board", "description", "") or ""
        games = self.games()
        sensor = cast(SensorKind | None, self.choice("board", "sensor", SENSORS, None))
        simulated_only = self.boolean("board", "simulated_only", False)
        settle_ms = self.integer("board", "settle_ms", 150, 0, 10_000)
        specials_printed = self.boolean("board", "specials_printed", False)

        matrix = self.matrix() if sensor == "gpio-matrix" else None
        serial = self.serial() if sensor == "serial" else None
        for other, kind in (("matrix", "gpio-matrix"), ("serial", "serial")):
            if sensor is not None and sensor != kind and self.has(other):
                self.problem(
                    other,
                    "",
                    f"this section is only read when sensor = {kind!r}, but sensor = {sensor!r}",
                    f"remove the [{other}] section or set [board] sensor = {kind!r}",
                )
        oled = self.oled()
        buttons = self.buttons()
        buzzer_pin = self.pin("buzzer", "pin", "buzzer") if self.has("buzzer") else None
        led_pin = self.pin("led", "pin", "status LED") if self.has("led") else None
        self.check_pins(oled)
        cells = self.cells(matrix, serial)
        racks = self.racks(cells) if self.has("racks") else {}
        leds = read_leds(self, serial, cells, racks)
        timing = self.timing(matrix, serial)

        if self.problems or cells is None or buttons is None or oled is None:
            return None
        if sensor is None or (matrix is None and serial is None):
            return None
        return Profile(
            name=name,
            description=description,
            games=games,
            sensor=sensor,
            cells=cells,
            buttons=buttons,
            oled=oled,
            matrix=matrix,
            serial=serial,
            buzzer_pin=buzzer_pin,
            led_pin=led_pin,
            leds=leds,
            simulated_only=simulated_only,
            settle_ms=settle_ms if settle_ms is not None else 150,
            racks=racks,
            timing=timing,
            specials_printed=specials_printed,
            source=self.doc.label,
        )

    def games(self) -> tuple[str, ...]:
        value = self.raw("board", "games", True)
        if value is _MISSING:
            return ()
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(g, str) and g for g in value)
        ):
            self.wrong_type("board", "games", value, "a non-empty list of game names")
            return ()
        return tuple(value)

    def matrix(self) -> MatrixWiring | None:
        if not self.has("matrix"):
            self.problem(
                "matrix",
                "",
                "missing section (sensor = 'gpio-matrix' needs it)",
                "add a [matrix] table with row_pins and column_pins",
            )
            return None
        rows = self.pin_list("matrix", "row_pins", "matrix row")
        columns = self.pin_list("matrix", "column_pins", "matrix column")
        active_low = self.boolean("matrix", "active_low", True)
        scan_hz = self.number("matrix", "scan_hz", 50.0, 1.0, MAX_SCAN_HZ)
        if rows is None or columns is None or scan_hz is None:
            return None
        return MatrixWiring(rows, columns, active_low, scan_hz)

    def serial(self) -> SerialWiring | None:
        if not self.has("serial"):
            self.problem(
                "serial",
                "",
                "missing section (sensor = 'serial' needs it)",
                "add a [serial] table with the port the board's microcontroller is on",
            )
            return None
        port = self.text("serial", "port")
        if port is not None and not port.strip():
            self.problem("serial", "port", "empty port", "name the device, e.g. /dev/ttyACM0")
            port = None
        baudrate = self.integer("serial", "baudrate", 115200, 1)
        sensor = self.choice("serial", "sensor", SERIAL_SENSORS, "occupancy")
        rows = self.integer("serial", "rows", 15, 1, 64)
        columns = self.integer("serial", "columns", 15, 1, 64)
        if port is None or baudrate is None or sensor is None or rows is None or columns is None:
            return None
        kind = cast(Literal["occupancy", "rfid"], sensor)
        return SerialWiring(port, baudrate, kind, rows, columns)

    def timing(self, matrix: MatrixWiring | None, serial: SerialWiring | None) -> Timing:
        """The board's parts' times: the defaults for its kind, with ``[timing]``'s figures."""
        if matrix is not None:
            cells = len(matrix.row_pins) * len(matrix.column_pins)
            base = Timing(loop_us=0.0, scan_ms=cells * GPIO_SCAN_US_PER_CELL / 1000)
        elif serial is not None:
            cells = serial.rows * serial.columns
            # Every Pico board scans a switch matrix; an RFID board's reader reads a
            # tag where a switch changed, through the antenna multiplexer.
            base = Timing(
                loop_us=PICO_LOOP_US,
                scan_ms=cells * PICO_SCAN_US_PER_CELL / 1000,
                debounce_ms=PICO_DEBOUNCE_MS,
            )
            if "rfid" in serial.sensor:
                base = replace(
                    base,
                    power_up_ms=MUX_READ.power_up_ms,
                    transfers_empty=MUX_READ.transfers_empty,
                    transfers_tag=MUX_READ.transfers_tag,
                )
        else:
            base = Timing()
        if not self.has("timing"):
            return base
        figures: dict[str, Any] = {}
        for key in ("loop_us", "scan_ms", "debounce_ms", "transfer_us", "switch_us", "power_up_ms"):
            value = self.number("timing", key, getattr(base, key), 0.0, 1e6)
            if value is not None:
                figures[key] = value
        for key in ("transfers_empty", "readers_per_pass"):
            count = self.integer("timing", key, getattr(base, key), 1, 100_000)
            if count is not None:
                figures[key] = count
        tags = self.raw("timing", "transfers_tag", False)
        if tags is not _MISSING:
            if (
                not isinstance(tags, list)
                or len(tags) != 3
                or not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in tags)
            ):
                want = "three positive integers (for 4-, 7- and 10-byte UIDs)"
                self.wrong_type("timing", "transfers_tag", tags, want)
            else:
                figures["transfers_tag"] = tuple(tags)
        return replace(base, **figures)

    def buttons(self) -> ButtonWiring | None:
        if not self.has("buttons"):
            return None
        pins: dict[str, int] = {}
        for button in BUTTON_NAMES:
            pin = self.pin("buttons", button, f"button {button}")
            if pin is not None:
                pins[button] = pin
        hold_time = self.number("buttons", "hold_time", 1.0, 0.1, 10.0)
        bounce = self.number("buttons", "bounce_time", 0.02, 0.0, 1.0)
        if len(pins) != len(BUTTON_NAMES) or hold_time is None or bounce is None:
            return None
        # A bounce time of 0 means no software debouncing, which gpiozero spells None.
        return ButtonWiring(pins, hold_time, bounce or None)

    def oled(self) -> OledWiring | None:
        if not self.has("oled"):
            return None
        driver = cast(OledDriver | None, self.choice("oled", "driver", OLED_DRIVERS, None))
        port = self.integer("oled", "i2c_port", 1, 0, 22)
        address = self.raw("oled", "i2c_address", False)
        if address is _MISSING:
            address = 0x3C
        elif isinstance(address, bool) or not isinstance(address, int):
            self.wrong_type("oled", "i2c_address", address, "an integer")
            address = None
        elif address not in OLED_ADDRESSES:
            self.problem(
                "oled",
                "i2c_address",
                f"0x{address:02X} is not an address these displays answer on",
                "use 0x3C (most modules) or 0x3D (address jumper moved); `i2cdetect -y 1` shows it",
            )
            address = None
        rotate = self.integer("oled", "rotate", 0, 0, 3)
        width = self.integer("oled", "width", 128, 1)
        height = self.integer("oled", "height", 64, 1)
        if width is not None and height is not None and driver in OLED_SIZES:
            sizes = OLED_SIZES[driver]
            if (width, height) not in sizes:
                listed = ", ".join(f"{w}×{h}" for w, h in sizes)
                self.problem(
                    "oled",
                    "width",
                    f"{driver} displays do not come in {width}×{height}",
                    f"use one of {listed}",
                )
                width = None
        if (
            driver is None
            or port is None
            or address is None
            or rotate is None
            or width is None
            or height is None
        ):
            return None
        return OledWiring(driver, port, address, rotate, width, height)

    def check_pins(self, oled: OledWiring | None) -> None:
        oled_on_i2c1 = oled is None or oled.i2c_port == 1
        seen: dict[int, _PinUse] = {}
        for use in self.pins:
            if use.pin in ID_EEPROM_PINS:
                self.problem(
                    use.section,
                    use.key,
                    f"GPIO {use.pin} (physical {physical_pin(use.pin)}) is the HAT ID EEPROM "
                    "bus, read by the Pi's firmware at boot",
                    f"move the {use.what} to a free pin ({self.free_pins(oled_on_i2c1)})",
                )
            elif use.pin in I2C1_PINS and oled_on_i2c1:
                self.problem(
                    use.section,
                    use.key,
                    f"GPIO {use.pin} (physical {physical_pin(use.pin)}) is I2C1, "
                    "which the OLED uses",
                    f"move the {use.what} to a free pin ({self.free_pins(oled_on_i2c1)})",
                )
            first = seen.get(use.pin)
            if first is None:
                seen[use.pin] = use
            else:
                self.problem(
                    use.section,
                    use.key,
                    f"GPIO {use.pin} is already used by [{first.section}] {first.key} "
                    f"({first.what})",
                    f"give the {use.what} its own pin ({self.free_pins(oled_on_i2c1)})",
                )

    def free_pins(self, oled_on_i2c1: bool) -> str:
        used = {u.pin for u in self.pins}
        reserved = set(ID_EEPROM_PINS) | (set(I2C1_PINS) if oled_on_i2c1 else set())
        free = [p for p in GPIO_PINS if p not in used and p not in reserved]
        if not free:
            return "none is left: drop the status LED or the buzzer to make room"
        return "free: " + ", ".join(f"GPIO {p}" for p in free)

    def cells(
        self, matrix: MatrixWiring | None, serial: SerialWiring | None
    ) -> tuple[str, ...] | None:
        value = self.raw("board", "cells", True)
        if value is _MISSING:
            return None
        if matrix is not None:
            rows, columns, what = len(matrix.row_pins), len(matrix.column_pins), "the matrix"
        elif serial is not None:
            rows, columns, what = serial.rows, serial.columns, "the serial board"
        else:
            return None
        if isinstance(value, str):
            if value not in SCHEMES:
                self.problem(
                    "board",
                    "cells",
                    f"unknown cell scheme {value!r}",
                    closest(value, list(SCHEMES)) + " (or list the cell names)",
                )
                return None
            try:
                return scheme_cells(value, rows, columns)
            except ValueError as e:
                self.problem("board", "cells", str(e), "list the cell names row by row")
                return None
        if not isinstance(value, list) or not all(isinstance(c, str) and c for c in value):
            self.wrong_type("board", "cells", value, "a scheme name or a list of cell names")
            return None
        names = tuple(value)
        if len(names) != rows * columns:
            self.problem(
                "board",
                "cells",
                f"{len(names)} cells are listed but {what} has {rows} rows × {columns} "
                f"columns = {rows * columns} sensors",
                "list one cell name per sensor, row by row",
            )
            return None
        dupes = sorted({c for c in names if names.count(c) > 1})
        if dupes:
            self.problem(
                "board",
                "cells",
                "cell names listed more than once: " + ", ".join(dupes),
                "give every sensor its own cell name",
            )
            return None
        return names

    def racks(self, cells: tuple[str, ...] | None) -> dict[int, tuple[str, ...]]:
        """Rack cells by seat (from 0): each a board cell, none in two racks."""
        racks: dict[int, tuple[str, ...]] = {}
        owner: dict[str, str] = {}
        known = set(cells or ())
        for key, value in self.doc.tables.get("racks", {}).items():
            if key not in KEYS["racks"]:
                self.problem(
                    "racks",
                    key,
                    f"not a seat: a board has racks for at most {MAX_SEATS} seats",
                    f"name them seat1 to seat{MAX_SEATS}",
                )
                continue
            if (
                not isinstance(value, list)
                or not value
                or not all(isinstance(c, str) and c for c in value)
            ):
                self.wrong_type("racks", key, value, "a non-empty list of cell names")
                continue
            names = tuple(value)
            if cells is not None:
                stray = [c for c in names if c not in known]
                if stray:
                    self.problem(
                        "racks",
                        key,
                        "not cells of the board: " + ", ".join(stray),
                        "use names from [board] cells (rack cells are board sensors too)",
                    )
                    continue
            for cell in names:
                if cell in owner:
                    where = "twice in this rack" if owner[cell] == key else f"also in {owner[cell]}"
                    self.problem(
                        "racks", key, f"{cell} is {where}", "give every rack cell to one seat once"
                    )
                owner[cell] = key
            racks[int(key.removeprefix("seat")) - 1] = names
        return dict(sorted(racks.items()))


def build_profile(doc: Document) -> tuple[Profile | None, list[str]]:
    """Check a profile's tables; return the profile (if no problem) and the problems."""
    builder = _Builder(doc)
    profile = builder.build()
    return (profile if not builder.problems else None), builder.problems


def section_tables(data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The tables of a parsed profile file (top-level plain keys are left out)."""
    return {k: dict(v) for k, v in data.items() if isinstance(v, dict)}
