"""The RFID boards' radio as PCB parts: every component ``wiring.rf.design`` computes
(EMC filter, attenuator, receive tap, series and parallel match, bias feed, one BAR67
PIN diode, loop, far-end capacitor and pull-up per row and column antenna, the
TPIC6B595 select chain and the TPS61040 bias boost with its feedback divider), each
given its KiCad symbol and footprint, its value from the design (none typed here),
the TPS61040's inductor, diode and capacitors from its data sheet's typical
application, and the 74AHCT1G125 that drives the chain's G from the Pico.

The reader itself (TI TRF7962A) is not among them: KiCad 9 has no symbol for it and
the project has no copy of its data sheet's pin table (SLOS757) to draw one from, so
its site is a header carrying what the reader needs and gives (its supplies, SPI1,
its reset, TX_OUT's net and the receive tap's), and its crystal waits with it.
"""

from __future__ import annotations

import math

from msgspec import Struct

from wiring.errors import NetlistError
from wiring.pcb.antenna import footprint_name
from wiring.pcb.library import OWN_LIBRARY, symbol
from wiring.pico import ANTENNA_G
from wiring.profile import Profile
from wiring.rf.design import Part as RadioPart
from wiring.rf.design import RadioDesign, design

NC = ""

CAP_C0G = "Capacitor_SMD:C_0805_2012Metric"
RES_0805 = "Resistor_SMD:R_0805_2012Metric"
RES_1206 = "Resistor_SMD:R_1206_3216Metric"
RES_2512 = "Resistor_SMD:R_2512_6332Metric"
RF_INDUCTOR = "Inductor_SMD:L_1210_3225Metric"
PIN_DIODE_FP = "Diode_SMD:D_SOD-523"
"""The BAR67-02V's SC79 package drawn as KiCad's SOD-523 (the two-lead outline of the
same class): not yet checked against Infineon's SC79 package drawing, which the
project has no copy of; check the pads against it before ordering boards."""

SELECT_DRIVER = f"{OWN_LIBRARY}:TPIC6B595"
SELECT_FP = "Package_SO:SOIC-20W_7.5x12.8mm_P1.27mm"
BOOST = "Regulator_Switching:TPS61040DBV"
BOOST_FP = "Package_TO_SOT_SMD:SOT-23-5"


class SheetPart(Struct, frozen=True):
    """A part the board takes from a data sheet rather than from the radio's design
    (the TPS61040's typical application, the chain's enable buffer): reference prefix,
    symbol, value, footprint, nets, what to buy (name and part number), where the
    data sheet names it, and what one costs (USD, low and high)."""

    prefix: str
    lib_id: str
    value: str
    footprint: str
    pins: dict[str, str]
    name: str
    reference: str
    source: str
    low: float = 0.05
    high: float = 0.5


BOOST_PARTS = (  # TI SLVS413I §8.2, Figure 12, and its Tables 3–5
    SheetPart("L", "Device:L", "10uH", "Inductor_SMD:L_1210_3225Metric",
              {"1": "+5V", "2": "BIAS_SW"}, "Inductor 10 µH, boost", "Sumida CR32-100",
              "SLVS413I Figure 12 and Table 3 (or Murata LQH4C100K04)"),
    SheetPart("D", "Device:D_Schottky", "MBR0530", "Diode_SMD:D_SOD-123",
              {"A": "BIAS_SW", "K": "VBIAS"}, "Schottky diode 30 V, SOD-123", "MBR0530",
              "SLVS413I Figure 12 and Table 5"),
    SheetPart("C", "Device:C", "4.7uF", "Capacitor_SMD:C_0805_2012Metric",
              {"1": "+5V", "2": "GND"}, "Capacitor 4.7 µF X5R 6.3 V 0805", "JMK212BY475MG",
              "SLVS413I §8.2.2.5 and Table 4: the input capacitor"),
    SheetPart("C", "Device:C", "1uF 35V", "Capacitor_SMD:C_1206_3216Metric",
              {"1": "VBIAS", "2": "GND"}, "Capacitor 1 µF X5R 35 V 1206", "GMK316BJ105KL",
              "SLVS413I Table 4: the output capacitor (35 V for the 24 V output)"),
    SheetPart("C", "Device:C", "10pF", "Capacitor_SMD:C_0805_2012Metric",
              {"1": "VBIAS", "2": "BIAS_FB"}, "Capacitor 10 pF C0G 0805", "generic (C0G)",
              "SLVS413I §8.2.2.2: the feedforward capacitor across R1, 10 pF to start"),
)  # fmt: skip

DECOUPLER = ("100nF", "Capacitor_SMD:C_0805_2012Metric")
"""Each TPIC6B595's VCC bypass (SLIS032B §8.3: ceramic bypass capacitors near the VCC
pin), the 100 nF the board's other logic gets."""

READER_SITE = (
    "+3V3", "GND", "+5V", "GND", "RFID_SCK", "RFID_MOSI", "RFID_MISO", "RFID_CS",
    "RFID_RST", "GND", "RF_TX", "RF_RX",
)  # fmt: skip
"""The reader site's header, pin by pin (Conn_02x06, odd/even)."""

SELECT_BUFFERS = (("SEL_SER", 27), ("SEL_CLK", 28), ("SEL_LATCH", 21))
"""The select chain's inputs, each from a Pico GPIO (the numbers the firmware's
config.py gives ANTENNA_SER, ANTENNA_SRCK and ANTENNA_RCK) through one of the three
spare gates of the LED chain's 74AHCT125: the TPIC6B595s run on 5 V (docs/rf.md). The
chain's G has a buffer of its own (``SELECT_ENABLE``): the 74AHCT125 has no fourth
spare gate."""


def select_net(net: str) -> str:
    """The 3.3 V net of a select line, between the Pico and its buffer."""
    return f"{net}_3V3"


SELECT_ENABLE = ("SEL_OE", ANTENNA_G)
"""The chain's G (SEL_OE, active low) and the GPIO that drives it (config.py's
ANTENNA_G), through ``ENABLE_PARTS``' 74AHCT1G125 on its own."""

ENABLE_BUFFER = "74xGxx:74AHCT1G125"
ENABLE_FP = "Package_TO_SOT_SMD:SOT-23-5"

ENABLE_PARTS = (
    SheetPart("U", ENABLE_BUFFER, "74AHCT1G125", ENABLE_FP,
              {"1": select_net(SELECT_ENABLE[0]), "2": "GND", "3": "GND",
               "4": SELECT_ENABLE[0], "5": "+5V"},
              "74AHCT1G125 single buffer, 3-state, SOT-23-5", "SN74AHCT1G125DBVR",
              "SCLS378P §4, DBV pins 1 OE, 2 A, 3 GND, 4 Y, 5 VCC; §5.3, VIH 2 V at VCC "
              "4.5–5.5 V: the Pico's 3.3 V is high", 0.1, 0.5),
    SheetPart("C", "Device:C", "100nF", "Capacitor_SMD:C_0805_2012Metric",
              {"1": "+5V", "2": "GND"}, "Capacitor 100 nF X7R 0805", "generic (X7R 0805)",
              "SCLS378P §8.3: a bypass capacitor at VCC, 0.1 µF for one supply", 0.02, 0.1),
    SheetPart("R", "Device:R", "10k", RES_0805, {"1": "+3V3", "2": select_net(SELECT_ENABLE[0])},
              "Resistor 10 kΩ 0805", "generic (0805 5 %)",
              f"GP{ANTENNA_G}'s pull-up: it holds the buffer off while the Pico boots, over "
              "the GPIO's own 50–80 kΩ pull-down, RP2040 data sheet Table 632", 0.01, 0.1),
)  # fmt: skip
"""G's driver, wired as an open drain: A is tied low and GP14 works the buffer's own
~OE, so the buffer pulls G low only while the Pico drives GP14 low, and leaves it to
R_OE's 10 kΩ pull-up to 5 V (the design's) otherwise. Its output low (0.44 V at most
at 8 mA, SCLS378P §5.5; R_OE draws 0.5 mA) is within the TPIC6B595's VIL of 0.15 VCC
and the pull-up's 5 V within its VIH of 0.85 VCC (SLIS032B, Recommended Operating
Conditions): G is high, every output off, while GP14 is high or an input. While the
Pico boots its GPIOs are inputs with their pull-downs on (RP2040 data sheet §2.19.6.3,
PADS_BANK0 PDE resets to 1): the 10 kΩ pull-up to 3V3 holds ~OE at 3.3 × 50 / 60 =
2.75 V at least, over the 2 V VIH, so the buffer stays off. With the Pico unpowered
the board has no 5 V either (its +5V is the Pico's VBUS): the TPIC6B595s are off and
the buffer drives nothing. Only while the Pico's 3V3 comes up after VBUS (its
regulator's start-up) can ~OE read low with the buffer powered."""


class PcbPart(Struct, frozen=True):
    """A radio part as the board adds it: reference prefix, symbol, value, footprint,
    nets by pin name or number, and the design's own reference."""

    prefix: str
    lib_id: str
    value: str
    footprint: str
    pins: dict[str, str]
    design_ref: str


def _si(value: float, unit: str) -> str:
    """A KiCad value: 172pF, 1.5k, 560nH (three figures, no trailing zeros)."""
    for factor, prefix in ((1e-12, "p"), (1e-9, "n"), (1e-6, "u"), (1e-3, "m"), (1, ""),
                           (1e3, "k"), (1e6, "M")):  # fmt: skip
        if abs(value) < factor * 1000:
            return f"{float(f'{value / factor:.3g}'):g}{prefix}{unit}"
    return f"{value:.3g}{unit}"


def _resistor_fp(p: RadioPart) -> str:
    if "2512" in p.part:
        return RES_2512
    if "1206" in p.part:
        return RES_1206
    return RES_0805


def _select_pins(p: RadioPart) -> dict[str, str]:
    given = dict(p.pins)
    pins: dict[str, str] = {"1": NC, "20": NC, "10": "GND", "11": "GND", "19": "GND"}
    for name in ("VCC", "SER_IN", "SRCK", "RCK", "G", "SRCLR"):
        pins[name] = given[name]
    for k in range(8):
        pins[f"DRAIN{k}"] = given.get(f"DRAIN{k}", NC)
    pins["SER_OUT"] = given.get("SER_OUT", NC)
    return pins


def radio_parts(radio: RadioDesign) -> list[PcbPart]:
    """Every part of ``radio`` but the reader, as PCB parts, and the boost's own."""
    out: list[PcbPart] = []
    for p in radio.parts:
        pins = dict(p.pins)
        if p.kind == "C":
            out.append(PcbPart("C", "Device:C", _si(p.value, "F"), CAP_C0G, pins, p.ref))
        elif p.kind == "R":
            out.append(PcbPart("R", "Device:R", _si(p.value, ""), _resistor_fp(p), pins, p.ref))
        elif p.kind == "L":
            out.append(PcbPart("L", "Device:L", _si(p.value, "H"), RF_INDUCTOR, pins, p.ref))
        elif p.kind == "D":
            out.append(PcbPart("D", "Device:D", "BAR67-02V", PIN_DIODE_FP, pins, p.ref))
        elif p.kind == "ANT":
            name = p.ref.removeprefix("ANT_")
            out.append(PcbPart("AE", "Device:Antenna_Loop", _si(p.value, "H"),
                               f"tabletop:{footprint_name(radio.antenna(name))}", pins,
                               p.ref))  # fmt: skip
        elif p.ref.startswith("U_SEL"):
            out.append(PcbPart("U", SELECT_DRIVER, "TPIC6B595", SELECT_FP, _select_pins(p), p.ref))
            out.append(PcbPart("C", "Device:C", DECOUPLER[0], DECOUPLER[1],
                               {"1": "+5V", "2": "GND"}, p.ref + "_BYPASS"))  # fmt: skip
        elif p.ref == "U_BIAS":
            out.append(PcbPart("U", BOOST, "TPS61040", BOOST_FP, pins, p.ref))
            out += [PcbPart(b.prefix, b.lib_id, b.value, b.footprint, b.pins, "U_BIAS")
                    for b in BOOST_PARTS]  # fmt: skip
        elif p.ref == "U_RF":
            continue  # the reader's site is a header (module docstring)
        else:
            raise NetlistError(f"the radio's part {p.ref} ({p.part}) has no PCB part")
    if any(p.ref.startswith("U_SEL") for p in radio.parts):
        out += [PcbPart(b.prefix, b.lib_id, b.value, b.footprint, b.pins, "U_SEL_OE")
                for b in ENABLE_PARTS]  # fmt: skip
    return out


def profile_radio(profile: Profile) -> list[PcbPart]:
    """The radio parts of ``profile``'s board (wiring.rf.design)."""
    return radio_parts(design(profile))


def select_drivers(radio: RadioDesign) -> int:
    """How many TPIC6B595s the antennas take (eight outputs each)."""
    return math.ceil(len(radio.antennas) / 8)


def check_symbols(parts: list[PcbPart]) -> None:
    """Fail if a part's pins are not its symbol's (every symbol pin named once)."""
    for part in parts:
        sym = symbol(part.lib_id)
        numbers = {sym.pin(key).number for key in part.pins}
        if numbers != {p.number for p in sym.pins}:
            raise NetlistError(f"{part.design_ref}: pins {sorted(numbers)} are not "
                               f"{part.lib_id}'s")  # fmt: skip
