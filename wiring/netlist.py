"""The netlist of a Pico sensor board, drawn up with SKiDL and checked by its ERC.

The circuit is the one docs/hardware.md describes and firmware_bridge/firmware
drives, on the pins of its config.py: the Pico; the rows through chained
74HC595s and the columns through chained 74HC165s (SPI0: GP18 SCK, GP19 MOSI,
GP16 MISO, GP17 latch, GP20 load), 10 kΩ pull-ups on the columns; a reed switch
and a Schottky diode per square (column → switch → anode, cathode → row, the
driven row low); on an RFID board the MFRC522 on SPI1 (GP10-13) and the ADG1606
16:1 multiplexers that GP2-9 address, switching the reader's antenna output to
one square's coil (with its two C0G tuning capacitors); a 100 nF capacitor at
every chip and a bulk one on 3V3; the recovery strap (GP22); the LED chain of
the profile's [leds] (wiring.netlist_leds). Every unused chip input is tied to a
rail; unused outputs are marked no-connect.

Parts are defined here, in code, so no KiCad library is needed: each has the
pin names and numbers of its data sheet (the ADG1606's from its data sheet's table
in wiring/pcb/parts/) and the KiCad footprint `tabletop pcb` gives it.
`tabletop pcb` draws the same board from KiCad's own symbols.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from msgspec import Struct

from wiring.bom import MUX_CHANNELS, board_shape
from wiring.errors import NetlistError
from wiring.netlist_leds import draw_leds
from wiring.pcb.parts import adg1606_pins
from wiring.pico import (
    COLUMN_LOAD,
    MATRIX_MISO,
    MATRIX_MOSI,
    MATRIX_SCK,
    RECOVERY_PIN,
    RFID_CS,
    RFID_MISO,
    RFID_MOSI,
    RFID_RST,
    RFID_SCK,
    RFID_SELECT,
    ROW_LATCH,
)
from wiring.profile import LedChain, Profile
from wiring.skidl_env import captured, import_skidl, template


class NetlistResult(Struct, frozen=True):
    """What SKiDL found: its ERC's errors and warnings, and the parts written."""

    errors: int
    warnings: int
    parts: int
    switches: int
    diodes: int
    erc_text: str
    leds: int = 0


class _Tally(logging.Handler):
    """Counts the error and warning records a logger emits while attached."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.errors = self.warnings = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR:
            self.errors += 1
        elif record.levelno >= logging.WARNING:
            self.warnings += 1


def _templates(skidl: Any) -> dict[str, Any]:
    """The parts, from their data sheets' pinouts."""
    t = skidl.Pin.types

    def part(name: str, prefix: str, footprint: str, pins: list[tuple[int, str, Any]]) -> Any:
        return template(skidl, name, prefix, footprint, pins)

    pico_pins: list[tuple[int, str, Any]] = []
    # Raspberry Pi Pico data sheet, pinout: GP0-GP22 on pins 1-29 between grounds.
    gp = iter(range(23))
    for number in range(1, 30):
        if number in (3, 8, 13, 18, 23, 28):
            pico_pins.append((number, f"GND{number}", t.PWRIN))
        else:
            pico_pins.append((number, f"GP{next(gp)}", t.BIDIR))
    pico_pins += [
        (30, "RUN", t.INPUT),
        (31, "GP26", t.BIDIR),
        (32, "GP27", t.BIDIR),
        (33, "GND33", t.PWRIN),
        (34, "GP28", t.BIDIR),
        (35, "ADC_VREF", t.PWRIN),
        (36, "3V3", t.PWROUT),
        (37, "3V3_EN", t.INPUT),
        (38, "GND38", t.PWRIN),
        (39, "VSYS", t.PWRIN),
        (40, "VBUS", t.PWROUT),
    ]
    hc595 = [
        (1, "QB", t.OUTPUT), (2, "QC", t.OUTPUT), (3, "QD", t.OUTPUT), (4, "QE", t.OUTPUT),
        (5, "QF", t.OUTPUT), (6, "QG", t.OUTPUT), (7, "QH", t.OUTPUT), (8, "GND", t.PWRIN),
        (9, "QH'", t.OUTPUT), (10, "~SRCLR", t.INPUT), (11, "SRCLK", t.INPUT),
        (12, "RCLK", t.INPUT), (13, "~OE", t.INPUT), (14, "SER", t.INPUT), (15, "QA", t.OUTPUT),
        (16, "VCC", t.PWRIN),
    ]  # fmt: skip
    hc165 = [
        (1, "SH/~LD", t.INPUT), (2, "CLK", t.INPUT), (3, "E", t.INPUT), (4, "F", t.INPUT),
        (5, "G", t.INPUT), (6, "H", t.INPUT), (7, "~QH", t.OUTPUT), (8, "GND", t.PWRIN),
        (9, "QH", t.OUTPUT), (10, "SER", t.INPUT), (11, "A", t.INPUT), (12, "B", t.INPUT),
        (13, "C", t.INPUT), (14, "D", t.INPUT), (15, "CLK_INH", t.INPUT), (16, "VCC", t.PWRIN),
    ]  # fmt: skip
    # ADG1606 (TSSOP-28): its data sheet's pin table, kept as data.
    kinds = {"power_in": t.PWRIN, "no_connect": t.NOCONNECT, "passive": t.PASSIVE,
             "input": t.INPUT}  # fmt: skip
    adg = [
        (number, f"NC{number}" if name == "NC" else name, kinds[kind])
        for number, name, kind in adg1606_pins()
    ]
    # An RC522 module: its 8-pin header, and the matched antenna output (the
    # module's own coil cut off) on two pads.
    rc522 = [
        (1, "SDA", t.INPUT), (2, "SCK", t.INPUT), (3, "MOSI", t.INPUT), (4, "MISO", t.OUTPUT),
        (5, "IRQ", t.OUTPUT), (6, "GND", t.PWRIN), (7, "RST", t.INPUT), (8, "3.3V", t.PWRIN),
        (9, "ANT", t.PASSIVE), (10, "ANT_GND", t.PASSIVE),
    ]  # fmt: skip
    two = [(1, "1", t.PASSIVE), (2, "2", t.PASSIVE)]
    return {
        "pico": part("Pico", "U", "Module:RaspberryPi_Pico_Common_THT", pico_pins),
        "595": part("74HC595", "U", "Package_DIP:DIP-16_W7.62mm", hc595),
        "165": part("74HC165", "U", "Package_DIP:DIP-16_W7.62mm", hc165),
        "adg": part("ADG1606", "U", "Package_SO:TSSOP-28_4.4x9.7mm_P0.65mm", adg),
        "rc522": part(
            "RC522_module", "U", "Connector_PinHeader_2.54mm:PinHeader_1x10_P2.54mm", rc522
        ),
        "R": part("R", "R", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal", two),
        "C": part("C", "C", "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm", two),
        "Cs": part("C", "C", "Capacitor_SMD:C_0603_1608Metric", two),
        "L": part("L_PCB_coil", "L", "tabletop:Antenna_Coil_16x16mm", two),
        "SW": part("Reed_NO", "SW", "tabletop:Reed_MDSR-7_P17.78mm", two),
        "D": part(
            "BAT43",
            "D",
            "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
            [(1, "K", t.PASSIVE), (2, "A", t.PASSIVE)],
        ),
        "J2": part("Strap", "J", "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical", two),
    }


def build_netlist(profile: Profile, path: Path) -> NetlistResult:
    """Draw up the board of ``profile``, run SKiDL's ERC and write a KiCad netlist."""
    shape = board_shape(profile)
    if not shape.on_pico:
        raise NetlistError(
            f"profile {profile.name} is wired to the Pi's header, not a Pico board: its "
            "wiring is `tabletop wiring`; netlists are for the Pico boards"
        )
    skidl = import_skidl()
    from skidl.logger import erc_logger

    with captured(skidl) as log:
        circuit = skidl.Circuit()
        result = _draw(skidl, circuit, shape, profile.leds)
        # Counted from the ERC's own records: SKiDL's counters are reset by some
        # calls and not by others, so a difference of counters miscounts a second run.
        tally = _Tally()
        erc_logger.addHandler(tally)
        try:
            circuit.ERC()
        finally:
            erc_logger.removeHandler(tally)
        errors, warnings = tally.errors, tally.warnings
        circuit.generate_netlist(file_=str(path), tool=skidl.KICAD8, do_backup=False)
    report = "\n".join(line for line in log.getvalue().splitlines() if "ERC" in line)
    parts, switches, diodes, leds = result
    return NetlistResult(errors, warnings, parts, switches, diodes, report, leds)


def _draw(
    skidl: Any, circuit: Any, shape: Any, chain: LedChain | None
) -> tuple[int, int, int, int]:
    parts = _templates(skidl)
    count = {"parts": 0}

    def make(kind: str, value: str = "") -> Any:
        made = parts[kind](circuit=circuit)
        if value:
            made.value = value
        count["parts"] += 1
        made.tag = f"{made.ref}"
        return made

    def net(name: str) -> Any:
        return skidl.Net(name, circuit=circuit)

    nc = circuit.NC
    v33, gnd = net("+3V3"), net("GND")
    v5 = net("+5V") if shape.rfid else None
    for rail in (v33, gnd, v5):
        if rail is not None:
            rail.drive = skidl.POWER

    pico = make("pico", "Raspberry Pi Pico")
    for n in (3, 8, 13, 18, 23, 28, 33, 38):
        gnd += pico[f"GND{n}"]
    v33 += pico["3V3"]
    if v5 is not None:
        v5 += pico["VBUS"]  # the multiplexers' analog supply
    else:
        pico["VBUS"] += nc
    pico["VSYS"] += nc
    pico["ADC_VREF"] += nc
    pico["RUN"] += nc  # pulled up on the Pico
    pico["3V3_EN"] += nc  # pulled up on the Pico

    def gpio(number: int) -> Any:
        return pico[f"GP{number}"]

    used = {MATRIX_SCK, MATRIX_MOSI, MATRIX_MISO, ROW_LATCH, COLUMN_LOAD, RECOVERY_PIN}

    def decouple(supply: Any) -> None:
        """A 100 nF capacitor at a chip's supply pin."""
        cap = make("C", "100nF")
        cap[1] += supply
        cap[2] += gnd

    bulk = make("C", "10uF")
    v33 += bulk[1]
    gnd += bulk[2]

    sck, mosi, miso = net("MATRIX_SCK"), net("MATRIX_MOSI"), net("MATRIX_MISO")
    latch, load = net("ROW_LATCH"), net("COLUMN_LOAD")
    sck += gpio(MATRIX_SCK)
    mosi += gpio(MATRIX_MOSI)
    miso += gpio(MATRIX_MISO)
    latch += gpio(ROW_LATCH)
    load += gpio(COLUMN_LOAD)
    strap = make("J2", "recovery strap")
    strap[1] += gpio(RECOVERY_PIN)
    strap[2] += gnd

    rows = [net(f"ROW{r + 1}") for r in range(shape.rows)]
    columns = [net(f"COL{c + 1}") for c in range(shape.columns)]

    # The rows: 74HC595s chained from MOSI, QA-QH = rows 8k..8k+7.
    serial_in = mosi
    for k in range(shape.row_drivers):
        chip = make("595", "74HC595")
        v33 += chip["VCC"], chip["~SRCLR"]
        gnd += chip["GND"], chip["~OE"]
        sck += chip["SRCLK"]
        latch += chip["RCLK"]
        serial_in += chip["SER"]
        decouple(v33)
        # By number: SKiDL matches names as patterns, and "QH" would match "QH'".
        for i, number in enumerate((15, 1, 2, 3, 4, 5, 6, 7)):  # QA..QH
            r = 8 * k + i
            if r < shape.rows:
                rows[r] += chip[number]
            else:
                chip[number] += nc
        if k + 1 < shape.row_drivers:
            serial_in = net(f"ROW_CHAIN{k + 1}")
            serial_in += chip[9]  # QH'
        else:
            chip[9] += nc

    # The columns: 74HC165s, the first one's QH to MISO, later ones into its SER.
    out_net = miso
    for k in range(shape.column_readers):
        chip = make("165", "74HC165")
        v33 += chip["VCC"]
        gnd += chip["GND"], chip["CLK_INH"]
        sck += chip["CLK"]
        load += chip["SH/~LD"]
        out_net += chip[9]  # QH (by number: "QH" would match "~QH" too)
        chip[7] += nc  # ~QH
        decouple(v33)
        for i, number in enumerate((11, 12, 13, 14, 3, 4, 5, 6)):  # A..H
            c = 8 * k + i
            pull = make("R", "10k")
            v33 += pull[1]
            if c < shape.columns:
                columns[c] += chip[number], pull[2]
            else:
                # An unused input, tied high through its resistor: reads "no switch".
                spare = net(f"SPARE{k + 1}{'ABCDEFGH'[i]}")
                spare += chip[number], pull[2]
        if k + 1 < shape.column_readers:
            out_net = net(f"COL_CHAIN{k + 1}")
            out_net += chip["SER"]
        else:
            v33 += chip["SER"]  # the chain's end: tied

    # A switch and a Schottky diode per square.
    switches = diodes = 0
    for r in range(shape.rows):
        for c in range(shape.columns):
            sw, d = make("SW", "reed NO"), make("D", "BAT43")
            switches += 1
            diodes += 1
            node = net(f"SQ{r + 1}_{c + 1}")
            columns[c] += sw[1]
            node += sw[2], d["A"]
            rows[r] += d["K"]

    if shape.rfid:
        used |= {RFID_SCK, RFID_MOSI, RFID_MISO, RFID_CS, RFID_RST, *RFID_SELECT}
        reader = make("rc522", "MFRC522 module")
        v33 += reader["3.3V"]
        reset = net("RFID_RST")
        reset += reader["RST"], gpio(RFID_RST)
        gnd += reader["GND"], reader["ANT_GND"]
        for name, number in (("SDA", RFID_CS), ("SCK", RFID_SCK), ("MOSI", RFID_MOSI)):
            wire = net(f"RFID_{name}")
            wire += reader[name], gpio(number)
        rfid_miso = net("RFID_MISO")
        rfid_miso += reader["MISO"], gpio(RFID_MISO)
        reader["IRQ"] += nc
        decouple(v33)
        select = [net(f"ANT_SEL{b}") for b in range(len(RFID_SELECT))]
        for b, number in enumerate(RFID_SELECT):
            select[b] += gpio(number)
        antenna = net("ANT_RF")
        antenna += reader["ANT"]
        leaves = -(-shape.cells // MUX_CHANNELS)

        def mux(address: list[Any]) -> Any:
            chip = make("adg", "ADG1606")
            chip["VDD"] += v5
            chip["VSS"] += gnd
            chip["GND"] += gnd
            chip["EN"] += v33
            for b in range(4):
                chip[f"A{b}"] += address[b]
            for spare in ("NC2", "NC3", "NC13"):
                chip[spare] += nc
            decouple(v5)
            return chip

        top = mux(select[4:8]) if leaves > 1 else None
        if top is not None:
            antenna += top["D"]
        for k in range(leaves):
            leaf = mux(select[0:4])
            if top is None:
                antenna += leaf["D"]
            else:
                branch = net(f"ANT_BRANCH{k + 1}")
                branch += leaf["D"], top[f"S{k + 1}"]
            for ch in range(MUX_CHANNELS):
                square = k * MUX_CHANNELS + ch
                if square >= shape.cells:
                    gnd += leaf[f"S{ch + 1}"]  # an unused channel, tied
                    continue
                coil, series, parallel = make("L", "16x16mm 4 turns"), make("Cs"), make("Cs")
                series.value = "Cs (tune)"
                parallel.value = "Cp (tune)"
                feed, tank = net(f"ANT_FEED{square + 1}"), net(f"ANT{square + 1}")
                feed += leaf[f"S{ch + 1}"], series[1]
                tank += series[2], coil[1], parallel[1]
                gnd += coil[2], parallel[2]
        if top is not None:
            for ch in range(leaves, MUX_CHANNELS):
                gnd += top[f"S{ch + 1}"]
    leds = 0
    if chain is not None:
        used.add(chain.pin)
        added, leds = draw_leds(skidl, circuit, chain, gpio(chain.pin), gnd, shape.columns)
        count["parts"] += added
    for number in range(29):
        if number in (23, 24, 25):
            continue  # not brought out on the Pico
        if number not in used:
            spare_pin = gpio(number)
            spare_pin += nc
    return count["parts"], switches, diodes, leds


def write_netlist(profile: Profile, path: Path, out: Any) -> int:
    """``tabletop netlist``: write the netlist, print the ERC's findings; 1 on errors."""
    try:
        result = build_netlist(profile, path)
    except OSError as exc:
        raise NetlistError(f"--kicad {path}: {exc.strerror or exc}") from None
    print(result.erc_text, file=out)
    print(
        f"netlist of {profile.name} written to {path}: {result.parts} parts, "
        f"{result.switches} switches, {result.diodes} diodes and {result.leds} LEDs; "
        f"ERC: {result.errors} errors, {result.warnings} warnings",
        file=out,
    )
    return 1 if result.errors else 0
