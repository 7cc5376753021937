"""What a board is made of: its bill of materials and its power budget at 5 V.

Both are worked out from the profile (its sensor kind, size, games, station), so
every shipped profile has them and a builder's own profile does too. Part numbers
are references, not the only choice: docs/hardware.md says what may replace each.
Costs are indicative ranges per piece in US dollars for small quantities (from
the cheapest marketplace to a distributor; prices move). Currents come from the
parts' data sheets as noted in :func:`power_budget`.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping

from msgspec import Struct

from wiring.bomline import BomLine
from wiring.leds_power import led_lines, led_supply
from wiring.profile import Profile

MUX_CHANNELS = 16
"""Channels of one antenna multiplexer (ADG1606: 16:1)."""


class BoardShape(Struct, frozen=True):
    """The sensor board of a profile, as the electronics see it."""

    rows: int
    columns: int
    cells: int
    on_pico: bool
    rfid: bool

    @property
    def row_drivers(self) -> int:
        """74HC595s: one per 8 rows."""
        return math.ceil(self.rows / 8)

    @property
    def column_readers(self) -> int:
        """74HC165s: one per 8 columns."""
        return math.ceil(self.columns / 8)

    @property
    def antenna_muxes(self) -> int:
        """16:1 multiplexers from the reader to the squares' coils: one per 16
        squares, and one more in front of them when there are several."""
        if not self.rfid:
            return 0
        leaves = math.ceil(self.cells / MUX_CHANNELS)
        return leaves + (1 if leaves > 1 else 0)


def board_shape(profile: Profile) -> BoardShape:
    """The sensor board of ``profile``: matrix size, Pico or GPIO, RFID or not."""
    if profile.serial is not None:
        s = profile.serial
        return BoardShape(s.rows, s.columns, s.rows * s.columns, True, s.sensor == "rfid")
    if profile.matrix is not None:
        m = profile.matrix
        rows, columns = len(m.row_pins), len(m.column_pins)
        return BoardShape(rows, columns, rows * columns, False, False)
    return BoardShape(0, 0, len(profile.cells), False, False)


PieceSets = Mapping[str, tuple[str, int]]
"""The pieces of each game that carry a magnet (and a tag on an RFID board), by game:
(what, how many). Each game's rules state theirs (``firmware_bridge.kits.piece_sets``
gathers them); the wiring knows no game."""


def _pieces(profile: Profile, pieces: PieceSets) -> list[tuple[str, int]]:
    sets: dict[str, int] = {}
    for game in profile.games:
        what, count = pieces.get(game, ("pieces", len(profile.cells)))
        sets[what] = max(sets.get(what, 0), count)
    return sorted(sets.items())


def bill_of_materials(profile: Profile, pieces: PieceSets) -> list[BomLine]:
    """Every part of the board ``profile`` describes, station and sensors, and the
    pieces of the games it lists (``pieces``: each game's set)."""
    shape = board_shape(profile)
    lines = [
        BomLine("Raspberry Pi 4 Model B, 2 GB", 1, "SC0193", "runs the referee", 45, 60),
        BomLine("microSD card, 16 GB, A1", 1, "SDSQUA4-016G", "the Pi's system", 5, 10),
        BomLine("USB-C power supply, 5.1 V 3 A", 1, "SC0218", "powers the Pi and the board", 8, 13),
        BomLine(
            f"OLED {profile.oled.width}×{profile.oled.height} I2C module",
            1,
            profile.oled.driver.upper(),
            "scores, dice, instructions",
            3,
            9,
        ),
        BomLine(
            "Tactile push button, 12 mm",
            len(profile.buttons.pins),
            "B3F-4055",
            "the station's " + ", ".join(profile.buttons.pins),
            0.1,
            0.4,
        ),
        BomLine("Female-female jumper wires, 20 cm", 20, "DuPont", "station wiring", 0.05, 0.1),
    ]
    if profile.buzzer_pin is not None:
        lines += [
            BomLine("Active buzzer, 5 V", 1, "TMB12A05", "beeps", 0.3, 1.0),
            BomLine("NPN transistor", 1, "2N2222A (TO-92)", "switches the buzzer", 0.05, 0.2),
            BomLine("Resistor 1 kΩ", 1, "CFR-25 1K", "transistor base", 0.01, 0.05),
            BomLine("Diode", 1, "1N4148", "buzzer flyback", 0.02, 0.05),
        ]
    if profile.led_pin is not None:
        lines += [
            BomLine("LED, 3 mm", 1, "generic", "status", 0.05, 0.1),
            BomLine("Resistor 330 Ω", 1, "CFR-25 330R", "LED current", 0.01, 0.05),
        ]
    if shape.cells:
        lines += [
            BomLine(
                "Reed switch, normally open, 14 mm glass",
                shape.cells,
                "Standex MKA-14103",
                "a piece on the square (or DRV5032FB hall switch)",
                0.2,
                0.8,
            ),
            BomLine(
                "Schottky diode",
                shape.cells,
                "BAT43 (DO-35)",
                "one per switch: no ghosting, column low ≤ 0.4 V",
                0.03,
                0.1,
            ),
        ]
        for what, count in _pieces(profile, pieces):
            lines.append(
                BomLine(
                    "Disc magnet 6 × 2 mm, N42, axial",
                    count,
                    "generic N42 6x2",
                    f"under the {what}",
                    0.05,
                    0.15,
                )
            )
    if shape.on_pico:
        lines += _pico_board(shape)
    elif shape.cells:
        lines.append(
            BomLine(
                "40-way IDC ribbon cable and connectors",
                1,
                "generic 2×20",
                "matrix rows and columns to the Pi's header",
                2,
                5,
            )
        )
    if shape.rfid:
        lines += _rfid(shape, profile, pieces)
    if profile.leds is not None:
        lines += led_lines(profile.leds, shape.columns)
    return lines


def _pico_board(shape: BoardShape) -> list[BomLine]:
    chips = shape.row_drivers + shape.column_readers
    return [
        BomLine("Raspberry Pi Pico (with headers)", 1, "SC0917 (Pico H)", "scans the board", 4, 6),
        BomLine(
            "USB cable, A to micro-B, 0.5 m",
            1,
            "generic",
            "Pico to Pi: link and 5 V (a Pi Zero needs an OTG adapter)",
            2,
            4,
        ),
        BomLine("74HC595 shift register", shape.row_drivers, "SN74HC595N", "drives rows", 0.2, 0.6),
        BomLine(
            "74HC165 shift register", shape.column_readers, "SN74HC165N", "reads columns", 0.3, 0.7
        ),
        BomLine(
            "Resistor 10 kΩ",
            8 * shape.column_readers,
            "CFR-25 10K",
            "column pull-ups; unused 165 inputs tied high",
            0.01,
            0.05,
        ),
        BomLine(
            "Capacitor 100 nF X7R",
            chips + shape.antenna_muxes + 1,
            "K104K15X7RF5TL2",
            "decoupling, one per chip",
            0.03,
            0.1,
        ),
        BomLine("Capacitor 10 µF", 1, "generic electrolytic 16 V", "3V3 bulk", 0.05, 0.2),
        BomLine(
            "Sensor PCB, 2 layers",
            1,
            "custom (netlist: tabletop netlist)",
            "switches, diodes, chips" + (", antenna coils" if shape.rfid else ""),
            30,
            90,
        ),
    ]


def _rfid(shape: BoardShape, profile: Profile, pieces: PieceSets) -> list[BomLine]:
    tags = sum(count for _what, count in _pieces(profile, pieces))
    return [
        BomLine(
            "MFRC522 reader module",
            1,
            "RC522 (NXP MFRC522, antenna cut off)",
            "the one reader, behind the antenna multiplexer",
            2,
            5,
        ),
        BomLine(
            "16:1 analog multiplexer, 4.5 Ω",
            shape.antenna_muxes,
            "ADG1606BRUZ",
            "switches the reader to one square's coil",
            6,
            10,
        ),
        BomLine(
            "Capacitor C0G, tuning",
            2 * shape.cells,
            "C0G 0603 (value per docs/hardware.md)",
            "each square's coil matched to 50 Ω",
            0.02,
            0.06,
        ),
        BomLine("NFC tag sticker, 12 mm round", tags, "NTAG213", "one per piece", 0.1, 0.3),
    ]


def totals(lines: list[BomLine]) -> tuple[float, float]:
    """The whole board's cost range."""
    return sum(x.total_low for x in lines), sum(x.total_high for x in lines)


def reader_chips(lines: list[BomLine]) -> int:
    """How many RFID reader chips the bill holds."""
    return sum(x.qty for x in lines if "reader module" in x.part)


def bom_table(profile: Profile, pieces: PieceSets) -> str:
    """The bill of materials as a text table with its total."""
    lines = bill_of_materials(profile, pieces)
    width = max(len(x.part) for x in lines)
    ref_width = max(len(x.reference) for x in lines)
    out = [f"Bill of materials: {profile.name} ({profile.description})", ""]
    out.append(
        f"{'qty':>4}  {'part':<{width}}  {'reference':<{ref_width}}  {'each $':>11}  purpose"
    )
    for x in lines:
        out.append(
            f"{x.qty:>4}  {x.part:<{width}}  {x.reference:<{ref_width}}  "
            f"{x.low:>5.2f}–{x.high:<5.2f}  {x.purpose}"
        )
    low, high = totals(lines)
    out += ["", f"Total: ${low:,.0f}–${high:,.0f} for {sum(x.qty for x in lines)} parts"]
    budget = power_budget(profile)
    out.append(f"Power at 5 V: {budget.idle_ma:.0f} mA idle, {budget.peak_ma:.0f} mA peak")
    if profile.leds is not None:
        out.append(led_supply(profile.leds, board_shape(profile).columns).summary())
    return "\n".join(out)


def bom_csv(profile: Profile, pieces: PieceSets) -> str:
    """The bill of materials as CSV, one row per part and a total row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["qty", "part", "reference", "purpose", "each_low_usd", "each_high_usd"])
    lines = bill_of_materials(profile, pieces)
    for x in lines:
        writer.writerow([x.qty, x.part, x.reference, x.purpose, f"{x.low:.2f}", f"{x.high:.2f}"])
    low, high = totals(lines)
    writer.writerow(["", "total", "", "", f"{low:.2f}", f"{high:.2f}"])
    return buffer.getvalue()


# -- power ---------------------------------------------------------------------------

_BUCK = 0.9
"""Efficiency of the Pico's 3V3 buck-boost (RT6150B) taking 5 V down to 3.3 V."""


class PowerBudget(Struct, frozen=True):
    """Current drawn from the 5 V supply, idle and at its peak, with the parts'
    shares (name, idle mA, peak mA)."""

    shares: tuple[tuple[str, float, float], ...]

    @property
    def idle_ma(self) -> float:
        return sum(idle for _name, idle, _peak in self.shares)

    @property
    def peak_ma(self) -> float:
        return sum(peak for _name, _idle, peak in self.shares)


def _from_3v3(ma: float) -> float:
    """A 3.3 V load's current seen at 5 V through the Pico's regulator."""
    return ma * 3.3 / 5.0 / _BUCK


def power_budget(profile: Profile) -> PowerBudget:
    """The 5 V current of the board: Raspberry Pi 4 B typical 600 mA idle and
    1.2 A under load (Raspberry Pi documentation), OLED up to 20 mA with every pixel
    lit, active buzzer 30 mA, LED 4 mA; on a Pico board the Pico (about 25 mA at
    125 MHz), the column pull-ups (a closed switch in the scanned row costs
    0.33 mA) and, on an RFID board, the one MFRC522: 13.5 mA with its field off,
    up to 113.5 mA with it on (data sheet: IDVDD 6.5, IAVDD 7, ITVDD 100 max)."""
    shape = board_shape(profile)
    shares: list[tuple[str, float, float]] = [
        ("Raspberry Pi 4 B", 600.0, 1200.0),
        ("OLED", 8.0, 20.0),
    ]
    if profile.buzzer_pin is not None:
        shares.append(("buzzer", 0.0, 30.0))
    if profile.led_pin is not None:
        shares.append(("status LED", 4.0, 4.0))
    if shape.on_pico:
        shares.append(("Pico", 25.0, 25.0))
        shares.append(("switch matrix", 0.0, _from_3v3(0.33 * shape.columns)))
    if shape.rfid:
        shares.append(("MFRC522 (one field on at a time)", _from_3v3(13.5), _from_3v3(113.5)))
    return PowerBudget(tuple(shares))
