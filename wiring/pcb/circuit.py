"""The sensor PCB of a Pico board as parts and nets, each part a symbol of KiCad's own
libraries (or of the project's, for those KiCad lacks) joined by its pins' names
as the library gives them, so no pin number is typed here.

The circuit is the one wiring/netlist.py draws up for SKiDL and docs/hardware.md
describes: the Pico, the rows through chained 74HC595s, the columns through chained
74HC165s with 10 kΩ pull-ups, a reed switch and a BAT43 per square (column →
switch → anode, cathode → row), the recovery strap, the LED chain with its buffer,
pull-down, fuse and feed terminals. An RFID board's radio is a board of its own:
here it is the connector its cable plugs into (SPI1, the reader's reset, the eight
antenna select lines and the supplies), which the radio's own design fills in.
"""

from __future__ import annotations

from collections import defaultdict

from msgspec import Struct

from wiring.bom import BoardShape, board_shape
from wiring.bomline import BomLine
from wiring.errors import NetlistError
from wiring.leds_power import led_supply
from wiring.pcb.antenna import antenna_footprint, footprint_name
from wiring.pcb.library import Symbol, symbol
from wiring.pcb.radio import (
    READER_SITE,
    SELECT_BUFFERS,
    SELECT_ENABLE,
    radio_parts,
    select_net,
)
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
from wiring.profile import Profile
from wiring.rf.design import design

NC = ""
"""The net of a pin left unconnected on purpose (a no-connect flag)."""

REED_FOOTPRINT = "tabletop:Reed_MDSR-7_P17.78mm"


class Part(Struct):
    """One part: reference, library symbol, value, footprint, BOM fields, and the net
    of each of its pins by number ("" for a pin left open on purpose)."""

    ref: str
    lib_id: str
    value: str
    footprint: str
    line: BomLine | None
    nets: dict[str, str]
    square: str = ""
    """The square a sensor part sits under ("" for the controller's parts)."""

    @property
    def sym(self) -> Symbol:
        return symbol(self.lib_id)


class Board(Struct):
    """The PCB's circuit."""

    name: str
    shape: BoardShape
    parts: list[Part]
    cells: tuple[str, ...]
    footprints: dict[str, str] = {}
    """The board's own footprints made from geometry (name -> .kicad_mod text): the
    radio's antenna loops."""

    def nets(self) -> dict[str, list[tuple[str, str]]]:
        """Net name -> (reference, pin number) of every connected pin."""
        found: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for part in self.parts:
            for pin, net in part.nets.items():
                if net:
                    found[net].append((part.ref, pin))
        return dict(found)


def _line(lines: dict[str, BomLine], part: str) -> BomLine:
    return lines[part]


def build_board(profile: Profile, bom: list[BomLine], radio: bool = False) -> Board:
    """The PCB of ``profile``'s Pico board; ``bom`` is its bill of materials, whose
    PCB lines give each part its manufacturer and order numbers. With ``radio`` an
    RFID board carries the radio itself (wiring.pcb.radio) in place of the header to
    a reader's board (the schematic only: its layout is not made yet)."""
    shape = board_shape(profile)
    if not shape.on_pico:
        raise NetlistError(
            f"profile {profile.name} is wired to the Pi's header, not a Pico board: it needs "
            "no PCB (docs/gpio-build.md shows how to build it on perfboard)"
        )
    lines = {x.part: x for x in bom if x.section == "pcb"}
    own_footprints: dict[str, str] = {}
    parts: list[Part] = []
    counters: dict[str, int] = defaultdict(int)

    def add(
        prefix: str, lib_id: str, value: str, footprint: str, line: str | None,
        pins: dict[str, str], square: str = "",
    ) -> Part:  # fmt: skip
        counters[prefix] += 1
        sym = symbol(lib_id)
        nets: dict[str, str] = {}
        for key, net in pins.items():
            nets[sym.pin(key).number] = net
        for pin in sym.pins:
            if pin.number not in nets:
                raise NetlistError(f"{lib_id} pin {pin.number} ({pin.name}) left unwired")
        part = Part(
            f"{prefix}{counters[prefix]}", lib_id, value, footprint,
            _line(lines, line) if line else None, nets, square,
        )  # fmt: skip
        parts.append(part)
        return part

    cap_tht = "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm"
    res_tht = "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal"
    c100 = "Capacitor 100 nF X7R, 2.5 mm"

    def gp(n: int) -> str:
        return f"GPIO{n}"

    used = {MATRIX_SCK: "MATRIX_SCK", MATRIX_MOSI: "MATRIX_MOSI", MATRIX_MISO: "MATRIX_MISO",
            ROW_LATCH: "ROW_LATCH", COLUMN_LOAD: "COLUMN_LOAD",
            RECOVERY_PIN: "RECOVERY"}  # fmt: skip
    if shape.rfid:
        used |= {RFID_SCK: "RFID_SCK", RFID_MOSI: "RFID_MOSI", RFID_MISO: "RFID_MISO",
                 RFID_CS: "RFID_CS", RFID_RST: "RFID_RST"}  # fmt: skip
        if radio:
            used |= {g: select_net(net) for net, g in (*SELECT_BUFFERS, SELECT_ENABLE)}
        else:
            used |= {g: f"ANT_SEL{b}" for b, g in enumerate(RFID_SELECT)}
    if profile.leds is not None:
        used[profile.leds.pin] = "LED_DATA_3V3"
    pico = {gp(n): used.get(n, NC) for n in (*range(23), 26, 27)}
    pico["GPIO26_ADC0"] = pico.pop(gp(26))
    pico["GPIO27_ADC1"] = pico.pop(gp(27))
    pico["GPIO28_ADC2"] = used.get(28, NC)
    for n in ("3", "8", "13", "18", "23", "28", "38"):
        pico[n] = "GND"
    pico["33"] = "AGND"  # the ADC's own ground, joined to GND by a net tie
    pico |= {"3V3": "+3V3", "RUN": NC, "3V3_EN": NC, "VSYS": NC, "ADC_VREF": NC,
             "VBUS": "+5V" if shape.rfid else NC}  # fmt: skip
    add("U", "MCU_Module:RaspberryPi_Pico", "Raspberry Pi Pico H",
        "Module:RaspberryPi_Pico_Common_THT", "Raspberry Pi Pico H (with headers)",
        pico)  # fmt: skip
    add("NT", "Device:NetTie_2", "AGND-GND", "NetTie:NetTie-2_THT_Pad0.3mm", None,
        {"1": "AGND", "2": "GND"})  # fmt: skip
    add("C", "Device:C_Polarized", "10uF", "Capacitor_THT:CP_Radial_D5.0mm_P2.50mm",
        "Capacitor 10 µF 16 V electrolytic", {"1": "+3V3", "2": "GND"})  # fmt: skip
    add("J", "Connector_Generic:Conn_01x02", "recovery strap",
        "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical",
        "Pin header 1×2, 2.54 mm, and a jumper", {"1": "RECOVERY", "2": "GND"})  # fmt: skip

    # Test points for the bring-up (docs/hardware.md): the rails, the clock, the chain.
    probes = ["GND", "+3V3", "MATRIX_SCK"]
    if profile.leds is not None:
        probes += ["+5V_LED", "LED_DIN1"]
    for net in probes:
        add("TP", "Connector:TestPoint", net, "TestPoint:TestPoint_THTPad_2.0x2.0mm_Drill1.0mm",
            None, {"1": net})  # fmt: skip

    def decouple(supply: str = "+3V3") -> None:
        add("C", "Device:C", "100nF", cap_tht, c100, {"1": supply, "2": "GND"})

    # Rows: 74HC595s chained from MOSI, QA..QH = rows 8k..8k+7.
    serial_in = "MATRIX_MOSI"
    for k in range(shape.row_drivers):
        pins = {"VCC": "+3V3", "~{SRCLR}": "+3V3", "GND": "GND", "~{OE}": "GND",
                "SRCLK": "MATRIX_SCK", "RCLK": "ROW_LATCH", "SER": serial_in}  # fmt: skip
        for i, out in enumerate(("QA", "QB", "QC", "QD", "QE", "QF", "QG", "QH")):
            r = 8 * k + i
            pins[out] = f"ROW{r + 1}" if r < shape.rows else NC
        last = k + 1 == shape.row_drivers
        pins["QH'"] = NC if last else f"ROW_CHAIN{k + 1}"
        serial_in = pins["QH'"]
        add("U", "74xx:74HC595", "74HC595", "Package_DIP:DIP-16_W7.62mm",
            "74HC595 shift register, DIP-16", pins)  # fmt: skip
        decouple()
    # Columns: 74HC165s, the first one's Q7 to MISO, later ones into its DS.
    out_net = "MATRIX_MISO"
    for k in range(shape.column_readers):
        last = k + 1 == shape.column_readers
        pins = {"VCC": "+3V3", "GND": "GND", "~{CE}": "GND", "CP": "MATRIX_SCK",
                "~{PL}": "COLUMN_LOAD", "Q7": out_net, "~{Q7}": NC,
                "DS": "+3V3" if last else f"COL_CHAIN{k + 1}"}  # fmt: skip
        for i in range(8):
            c = 8 * k + i
            net = f"COL{c + 1}" if c < shape.columns else f"SPARE{k + 1}{'ABCDEFGH'[i]}"
            pins[f"D{i}"] = net
            add("R", "Device:R", "10k", res_tht, "Resistor 10 kΩ", {"1": "+3V3", "2": net})
        out_net = pins["DS"]
        add("U", "74xx:74HC165", "74HC165", "Package_DIP:DIP-16_W7.62mm",
            "74HC165 shift register, DIP-16", pins)  # fmt: skip
        decouple()
    if shape.rfid and radio:
        add("J", "Connector_Generic:Conn_02x06_Odd_Even", "TRF7962A site",
            "Connector_PinHeader_2.54mm:PinHeader_2x06_P2.54mm_Vertical", None,
            {str(n + 1): net for n, net in enumerate(READER_SITE)})  # fmt: skip
        if profile.leds is None:
            raise NetlistError(
                f"profile {profile.name}: the radio's select chain is driven "
                "through the LED chain's 74AHCT125, and it has no LED chain"
            )
        radio_design = design(profile)
        for part in radio_parts(radio_design):
            add(part.prefix, part.lib_id, part.value, part.footprint, None, part.pins)
        own_footprints = {footprint_name(a): antenna_footprint(a) for a in radio_design.antennas}
    elif shape.rfid:
        reader = {str(n + 1): net for n, net in enumerate(
            ["+3V3", "GND", "+5V", "GND", "RFID_SCK", "RFID_MOSI", "RFID_MISO", "RFID_CS",
             *(f"ANT_SEL{b}" for b in range(8)), "RFID_RST", "GND"]
        )}  # fmt: skip
        add("J", "Connector_Generic:Conn_02x09_Odd_Even", "to the reader's board",
            "Connector_PinHeader_2.54mm:PinHeader_2x09_P2.54mm_Vertical",
            "Pin header 2×9, 2.54 mm", reader)  # fmt: skip
    # A switch and a Schottky diode per square.
    cells = profile.cells
    for r in range(shape.rows):
        for c in range(shape.columns):
            cell = cells[r * shape.columns + c] if r * shape.columns + c < len(cells) else ""
            node = f"SQ{r + 1}_{c + 1}"
            add("SW", "Switch:SW_Reed", "MDSR-7-15-20", REED_FOOTPRINT,
                "Reed switch, normally open, 12.7 mm glass", {"1": f"COL{c + 1}", "2": node},
                cell)  # fmt: skip
            add("D", "Diode:BAT43", "BAT43", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
                "Schottky diode", {"A": node, "K": f"ROW{r + 1}"}, cell)  # fmt: skip
    chain = profile.leds
    if chain is not None:
        supply = led_supply(chain, shape.columns)
        v5 = "+5V_LED"
        terminal = "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2_1x02_P5.00mm_Horizontal"
        add("J", "Connector:Screw_Terminal_01x02", f"5V {supply.supply_a}A in", terminal,
            "Screw terminal 2-way, 5.0 mm", {"1": "+5V_LED_IN", "2": "GND"})  # fmt: skip
        add("F", "Device:Fuse", f"{supply.fuse_a:g}A T",
            "Fuse:Fuseholder_Cylinder-5x20mm_Schurter_0031_8201_Horizontal_Open",
            "Fuse holder 5 × 20 mm, PCB", {"1": "+5V_LED_IN", "2": v5})  # fmt: skip
        add("C", "Device:C_Polarized", "1000uF", "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
            "Capacitor 1000 µF 10 V electrolytic", {"1": v5, "2": "GND"})  # fmt: skip
        buffer = {"1": "GND", "2": "LED_DATA_3V3", "3": "LED_DATA_5V",
                  "4": v5, "5": "GND", "6": NC, "10": v5, "9": "GND", "8": NC,
                  "13": v5, "12": "GND", "11": NC, "14": v5, "7": "GND"}  # fmt: skip
        if shape.rfid and radio:  # the three spare gates drive the select chain
            for (oe, a, y), (sel, _gpio) in zip((("4", "5", "6"), ("10", "9", "8"),
                                                ("13", "12", "11")), SELECT_BUFFERS,
                                               strict=True):  # fmt: skip
                buffer |= {oe: "GND", a: select_net(sel), y: sel}
        add("U", "74xx:74AHCT125", "74AHCT125", "Package_DIP:DIP-14_W7.62mm",
            "Quad buffer, TTL-level inputs, DIP-14", buffer)  # fmt: skip
        add("C", "Device:C", "100nF", cap_tht, c100, {"1": v5, "2": "GND"})
        add("R", "Device:R", "10k", res_tht, "Resistor 10 kΩ",
            {"1": "LED_DATA_3V3", "2": "GND"})  # fmt: skip
        add("R", "Device:R", "330", res_tht, "Resistor 330 Ω",
            {"1": "LED_DATA_5V", "2": "LED_DIN1"})  # fmt: skip
        for k in range(supply.feeds):
            add("J", "Connector:Screw_Terminal_01x02", f"5V feed {k + 1}", terminal,
                "Screw terminal 2-way, 5.0 mm", {"1": v5, "2": "GND"})  # fmt: skip
        for i, cell in enumerate(chain.chain):
            last = i + 1 == len(chain.chain)
            add("D", "LED:SK6812MINI", "SK6812MINI",
                "LED_SMD:LED_SK6812MINI_PLCC4_3.5x3.5mm_P1.75mm", "Addressable RGB LED, 3535",
                {"VDD": v5, "VSS": "GND", "DIN": f"LED_DIN{i + 1}",
                 "DOUT": NC if last else f"LED_DIN{i + 2}"}, cell)  # fmt: skip
            add("C", "Device:C", "100nF", "Capacitor_SMD:C_0603_1608Metric",
                "Capacitor 100 nF X7R 0603", {"1": v5, "2": "GND"}, cell)  # fmt: skip
    return Board(profile.name, shape, parts, tuple(cells), own_footprints)
