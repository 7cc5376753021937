"""What a board is made of: its bill of materials and its power budget at 5 V.

Both are worked out from the profile (its sensor kind, size, games, station), so
every shipped profile has them and a builder's own profile does too. Each part has
its manufacturer's part number and, where one is known, Mouser's order number (its
manufacturer prefix and the part number); they are references, not the only
choice: docs/hardware.md says what may replace each.
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

from wiring.bomline import BomLine, Section
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
    pieces of the games it lists (``pieces``: each game's set). Lines of section
    "pcb" are the sensor PCB's schematic parts (``tabletop pcb`` draws them, and
    KiCad's BOM of that schematic lists the same); the rest is what else to buy."""
    shape = board_shape(profile)
    lines = [
        BomLine(
            "Raspberry Pi 4 Model B, 2 GB", 1, "SC0193", "runs the referee", 45, 60,
            "Raspberry Pi", "358-SC0193",
        ),
        BomLine(
            "microSD card, 16 GB, A1", 1, "SDSQUA4-016G-GN6MA", "the Pi's system", 5, 10,
            "SanDisk",
        ),
        BomLine(
            "USB-C power supply, 5.1 V 3 A", 1, "SC0218", "powers the Pi and the board", 8, 13,
            "Raspberry Pi", "358-SC0218",
        ),
        BomLine(
            f"OLED {profile.oled.width}×{profile.oled.height} I2C module",
            1,
            f"generic module, {profile.oled.driver.upper()} controller",
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
            "Omron",
            "653-B3F-4055",
        ),
        BomLine("Female-female jumper wires, 20 cm", 20, "generic DuPont", "station wiring",
                0.05, 0.1),
    ]  # fmt: skip
    if profile.buzzer_pin is not None:
        lines += [
            BomLine("Active buzzer, 5 V", 1, "TMB12A05", "beeps", 0.3, 1.0),
            BomLine("NPN transistor", 1, "2N2222A (TO-92)", "switches the buzzer", 0.05, 0.2),
            BomLine("Resistor 1 kΩ", 1, "CFR-25JB-52-1K", "transistor base", 0.01, 0.05,
                    "Yageo", "603-CFR-25JB-52-1K"),
            BomLine("Signal diode", 1, "1N4148", "buzzer flyback (a switching diode: speed, "
                    "not drop, matters here)", 0.02, 0.05, "onsemi", "512-1N4148"),
        ]  # fmt: skip
    if profile.led_pin is not None:
        lines += [
            BomLine("LED, 3 mm", 1, "generic", "status", 0.05, 0.1),
            BomLine("Resistor 330 Ω", 1, "CFR-25JB-52-330R", "LED current", 0.01, 0.05,
                    "Yageo", "603-CFR-25JB-52-330R"),
        ]  # fmt: skip
    on: Section = "pcb" if shape.on_pico else "buy"
    if shape.cells:
        lines += [
            BomLine(
                "Reed switch, normally open, 12.7 mm glass",
                shape.cells,
                "MDSR-7-15-20",
                "a piece on the square (15-20 AT; or a DRV5032FB hall switch)",
                0.4,
                1.2,
                "Littelfuse (Hamlin)",
                "934-MDSR-7-15-20",
                on,
            ),
            BomLine(
                "Schottky diode",
                shape.cells,
                "BAT43-TAP",
                "one per switch: no ghosting, column low ≤ 0.4 V",
                0.03,
                0.1,
                "Vishay",
                "78-BAT43-TAP",
                on,
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
        lines += _pico_board(shape, profile)
    elif shape.cells:
        lines += _gpio_board(shape)
    if shape.rfid:
        lines += _rfid(shape, profile, pieces)
    if profile.leds is not None:
        lines += led_lines(profile.leds, shape.columns)
    if shape.cells:
        lines += _case(shape, profile, pieces)
    return lines


def _gpio_board(shape: BoardShape) -> list[BomLine]:
    """A matrix wired to the Pi's header: perfboard, a header breakout and wire
    (docs/gpio-build.md shows how)."""
    wire_m = math.ceil((shape.rows + shape.columns) * 0.6 + shape.cells * 0.05)
    return [
        BomLine(
            "40-way IDC ribbon cable, 30 cm, with 2×20 sockets",
            1,
            "generic 2×20 IDC, 2.54 mm",
            "the matrix's rows and columns to the Pi's header",
            2,
            5,
        ),
        BomLine(
            "GPIO breakout with 2×20 box header, for perfboard",
            1,
            "T-Cobbler Plus (product 2028)",
            "takes the ribbon cable onto the perfboard, pins labelled",
            5,
            8,
            "Adafruit",
            "485-2028",
        ),
        BomLine(
            "Perfboard, 2.54 mm, copper pads, 160 × 100 mm",
            math.ceil(shape.cells / 40),
            "generic FR-4 Eurocard",
            "one strip of squares' diodes and the breakout (or wire the diodes in the air "
            "under the top)",
            2,
            5,
        ),
        BomLine(
            "Hook-up wire 24 AWG solid, m",
            wire_m,
            "generic PVC, 2 colours",
            "a row wire and a column wire along each line of squares",
            0.1,
            0.3,
        ),
    ]


def _case(shape: BoardShape, profile: Profile, pieces: PieceSets) -> list[BomLine]:
    """The top, its light diffusers and the pieces' own bodies."""
    lit = profile.leds is not None
    sets = _pieces(profile, pieces)
    lines = [
        BomLine(
            "Board top, 3 mm " + ("opal (light-diffusing) acrylic" if lit else "plywood or MDF"),
            1,
            "generic sheet, cut to the board",
            "the playing surface: at most 3 mm over the switches"
            + (" and it lets the LEDs' light through" if lit else ""),
            15,
            40,
        ),
    ]  # fmt: skip
    if lit:
        lines.append(
            BomLine(
                "Light baffle grid, 3 mm black foam or card",
                1,
                "generic, cut with a hole per square",
                "between PCB and top: each LED lights its own square only",
                3,
                10,
            )
        )
    for what, count in sets:
        lines.append(
            BomLine(f"Game pieces: {what}", count, "made or bought to the game's rules",
                    "carry the magnet" + (" and the tag" if shape.rfid else ""), 0.1, 1.0)
        )  # fmt: skip
    lines.append(
        BomLine("M3 × 10 mm standoffs, screws", 4, "generic nylon", "hold the PCB under the top",
                0.1, 0.3)
    )  # fmt: skip
    return lines


def _pico_board(shape: BoardShape, profile: Profile) -> list[BomLine]:
    chips = shape.row_drivers + shape.column_readers
    pcb: Section = "pcb"
    return [
        BomLine("Raspberry Pi Pico H (with headers)", 1, "SC0917", "scans the board", 4, 6,
                "Raspberry Pi", "358-SC0917", pcb),
        BomLine(
            "USB cable, A to micro-B, 0.5 m",
            1,
            "generic",
            "Pico to Pi: link and 5 V (a Pi Zero needs an OTG adapter)",
            2,
            4,
        ),
        BomLine("74HC595 shift register, DIP-16", shape.row_drivers, "SN74HC595N", "drives rows",
                0.2, 0.6, "Texas Instruments", "595-SN74HC595N", pcb),
        BomLine("74HC165 shift register, DIP-16", shape.column_readers, "SN74HC165N",
                "reads columns", 0.3, 0.7, "Texas Instruments", "595-SN74HC165N", pcb),
        BomLine(
            "Resistor 10 kΩ",
            8 * shape.column_readers + (1 if profile.leds is not None else 0),
            "CFR-25JB-52-10K",
            "column pull-ups; unused 165 inputs tied high"
            + ("; the 74AHCT125 input's pull-down" if profile.leds is not None else ""),
            0.01,
            0.05,
            "Yageo",
            "603-CFR-25JB-52-10K",
            pcb,
        ),
        BomLine(
            "Capacitor 100 nF X7R, 2.5 mm",
            chips + shape.antenna_muxes + (1 if shape.rfid else 0)
            + (1 if profile.leds is not None else 0),
            "K104K15X7RF5TL2",
            "decoupling, one at each chip" + (" and the reader" if shape.rfid else "")
            + (" and the 74AHCT125" if profile.leds is not None else ""),
            0.03,
            0.1,
            "Vishay",
            "594-K104K15X7RF5TL2",
            pcb,
        ),
        BomLine("Capacitor 10 µF 16 V electrolytic", 1, "UVR1C100MDD", "3V3 bulk", 0.05, 0.2,
                "Nichicon", "647-UVR1C100MDD", pcb),
        BomLine("Pin header 1×2, 2.54 mm, and a jumper", 1, "61300211121",
                "the recovery strap (GP22 to GND)", 0.1, 0.3, "Würth Elektronik",
                "710-61300211121", pcb),
        BomLine(
            "Sensor PCB, 2 layers",
            1,
            "custom (tabletop pcb PROFILE DIR --fab)",
            "switches, diodes, chips" + (", antenna coils" if shape.rfid else ""),
            30,
            90,
        ),
    ]  # fmt: skip


def _rfid(shape: BoardShape, profile: Profile, pieces: PieceSets) -> list[BomLine]:
    tags = sum(count for _what, count in _pieces(profile, pieces))
    return [
        BomLine(
            "Pin header 2×9, 2.54 mm",
            1,
            "61301821121",
            "the sensor PCB's connector to the reader's board: SPI1, the reader's reset, "
            "the 8 antenna select lines, 3V3, 5 V, GND",
            0.3,
            0.8,
            "Würth Elektronik",
            "710-61301821121",
            "pcb",
        ),
        *_radio(profile),
        BomLine(
            "RFID tag, ISO/IEC 15693, coil within 10 × 10 mm",
            tags,
            "NXP ICODE SLIX2 inlay (or ST25TV), 10 mm",
            "one per piece, centred in its base (docs/rf.md)",
            0.15,
            0.5,
        ),
    ]


RADIO_PURPOSE = "the radio (docs/rf.md); tabletop pcb does not place it yet"

_RADIO_CHIPS = {
    # design part -> (BOM part, manufacturer's part number, maker, low, high)
    "TI TRF7962A": ("RFID reader TRF7962A, VQFN-32", "TRF7962ARHBR", "Texas Instruments", 3, 6),
    "TI TPIC6B595": ("TPIC6B595 power shift register, SOIC-20", "TPIC6B595DWR",
                     "Texas Instruments", 1, 2),
    "TI TPS61040": ("TPS61040 boost converter, SOT-23-5", "TPS61040DBVR", "Texas Instruments",
                    0.6, 1.5),
    "Infineon BAR67-02V": ("PIN diode BAR67-02V, SC79", "BAR67-02V", "Infineon", 0.1, 0.3),
}  # fmt: skip


def _radio(profile: Profile) -> list[BomLine]:
    """The radio's parts, as ``wiring.rf.design`` computes them (``radio_bom``), the
    parts of the TPS61040's typical application and the select chain's G driver
    (wiring.pcb.radio), to buy."""
    from wiring.pcb.radio import BOOST_PARTS, DECOUPLER, ENABLE_PARTS, select_drivers
    from wiring.rf.design import design, radio_bom

    radio = design(profile)
    lines: list[BomLine] = []
    for part, value, qty in radio_bom(radio):
        if part in _RADIO_CHIPS:
            name, ref, maker, low, high = _RADIO_CHIPS[part]
            lines.append(BomLine(name, qty, ref, RADIO_PURPOSE, low, high, maker))
        elif value.endswith("F"):
            lines.append(BomLine(f"Capacitor {value} {part}", qty, f"generic ({part})",
                                 RADIO_PURPOSE, 0.02, 0.1))  # fmt: skip
        elif value.endswith("Ω"):
            lines.append(BomLine(f"Resistor {value} {part}", qty, f"generic ({part})",
                                 RADIO_PURPOSE, 0.01, 0.1))  # fmt: skip
        else:
            lines.append(BomLine(f"Inductor {value}, {part}", qty, f"generic ({part})",
                                 RADIO_PURPOSE, 0.1, 0.5))  # fmt: skip
    for b in BOOST_PARTS:
        lines.append(BomLine(b.name, 1, b.reference, f"the 24 V bias boost ({b.source})",
                             b.low, b.high))  # fmt: skip
    for b in ENABLE_PARTS:
        lines.append(BomLine(b.name, 1, b.reference, f"the select chain's G driver ({b.source})",
                             b.low, b.high))  # fmt: skip
    bypass = f"Capacitor {DECOUPLER[0]} X7R 0805"
    lines.append(BomLine(bypass, select_drivers(radio), "generic (X7R 0805)",
                         "a bypass at each TPIC6B595", 0.02, 0.1))  # fmt: skip
    lines.append(BomLine("Crystal 13.56 MHz, 3.2 × 2.5 mm", 1, "generic (13.56 MHz)",
                         "the reader's clock (its load capacitors as its data sheet asks)",
                         0.2, 0.6))  # fmt: skip
    return lines


def totals(lines: list[BomLine]) -> tuple[float, float]:
    """The whole board's cost range."""
    return sum(x.total_low for x in lines), sum(x.total_high for x in lines)


def reader_chips(lines: list[BomLine]) -> int:
    """How many RFID reader chips the bill holds."""
    return sum(x.qty for x in lines if x.part.startswith("RFID reader"))


SECTION_TITLES = {
    "pcb": "On the sensor PCB (its schematic's parts: tabletop pcb)",
    "buy": "What else to buy",
}


def bom_table(profile: Profile, pieces: PieceSets) -> str:
    """The bill of materials as a text table, the PCB's parts first, with its total."""
    lines = bill_of_materials(profile, pieces)
    width = max(len(x.part) for x in lines)
    ref_width = max(len(x.reference) for x in lines)
    maker_width = max(len(x.maker) for x in lines)
    dist_width = max(len(x.distributor) for x in lines)
    out = [f"Bill of materials: {profile.name} ({profile.description})"]
    for section, title in SECTION_TITLES.items():
        group = [x for x in lines if x.section == section]
        if not group:
            continue
        out += ["", title, ""]
        out.append(
            f"{'qty':>4}  {'part':<{width}}  {'maker':<{maker_width}}  "
            f"{'part number':<{ref_width}}  {'Mouser':<{dist_width}}  {'each $':>11}  purpose"
        )
        for x in group:
            out.append(
                f"{x.qty:>4}  {x.part:<{width}}  {x.maker:<{maker_width}}  "
                f"{x.reference:<{ref_width}}  {x.distributor:<{dist_width}}  "
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
    writer.writerow(
        ["section", "qty", "part", "maker", "reference", "mouser", "purpose",
         "each_low_usd", "each_high_usd"]
    )  # fmt: skip
    lines = bill_of_materials(profile, pieces)
    for x in lines:
        writer.writerow(
            [x.section, x.qty, x.part, x.maker, x.reference, x.distributor, x.purpose,
             f"{x.low:.2f}", f"{x.high:.2f}"]
        )  # fmt: skip
    low, high = totals(lines)
    writer.writerow(["", "", "total", "", "", "", "", f"{low:.2f}", f"{high:.2f}"])
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
    0.33 mA) and, on an RFID board, the radio (``radio_power``)."""
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
        shares.extend(radio_power(profile))
    return PowerBudget(tuple(shares))


READER_IDLE_MA = 14.0
"""The TRF7962A at VIN = 5 V with its field off, receiver on: ION1 14 mA max (TRF796xA
electrical characteristics, TRF7964A SLOS787J §5.4)."""
READER_FIELD_MA = 78.0
"""The same with the field on at half power (100 mW): ION2 78 mA max (the same table)."""
BOOST_EFFICIENCY = 0.8
"""The TPS61040's conversion efficiency from 5 V to 24 V taken for the budget: read off
its efficiency curves (SLVS413K §6.6, efficiency against load current) for a load of
tens of milliamperes; to be measured at bring-up (docs/rf.md)."""


def radio_power(profile: Profile) -> list[tuple[str, float, float]]:
    """The radio's 5 V current, idle and at peak: the reader (one field on at a time)
    and the PIN-diode bias from the 24 V boost, which draws only while an antenna is
    selected: the selected diode's feed current plus 0.23 mA through each unselected
    antenna's pull-up (``wiring.rf.design``), times 24 V / 5 V over the boost's
    efficiency."""
    from wiring.rf.design import BIAS_V, PIN_VF, PULLUP_R, bias_current, design

    antennas = len(design(profile).antennas)
    at_24v = bias_current() + (antennas - 1) * (BIAS_V - PIN_VF) / PULLUP_R
    bias_ma = 1e3 * at_24v * BIAS_V / 5.0 / BOOST_EFFICIENCY
    return [
        ("TRF7962A reader at 5 V (one field on at a time)", READER_IDLE_MA, READER_FIELD_MA),
        (f"PIN-diode bias, {antennas} antennas (TPS61040, 24 V)", 0.0, bias_ma),
    ]
