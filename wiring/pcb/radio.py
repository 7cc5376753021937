"""The RFID boards' radio as PCB parts: every component ``wiring.rf.design`` computes
(EMC filter, attenuator, receive tap, series and parallel match, bias feed, one BAR67
PIN diode, loop, far-end capacitor and pull-up per row and column antenna, the
TPIC6B595 select chain and the TPS61040 bias boost with its feedback divider), each
given its KiCad symbol and footprint, its value from the design (none typed here),
and the TPS61040's inductor, diode and capacitors from its data sheet's typical
application.

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


class BoostPart(Struct, frozen=True):
    """One part of the TPS61040's typical application (TI SLVS413I §8.2, Figure 12,
    and its Tables 3–5): reference prefix, symbol, value, footprint, nets, what to buy
    (name and part number) and where the data sheet names it."""

    prefix: str
    lib_id: str
    value: str
    footprint: str
    pins: dict[str, str]
    name: str
    reference: str
    source: str


BOOST_PARTS = (
    BoostPart("L", "Device:L", "10uH", "Inductor_SMD:L_1210_3225Metric",
              {"1": "+5V", "2": "BIAS_SW"}, "Inductor 10 µH, boost", "Sumida CR32-100",
              "SLVS413I Figure 12 and Table 3 (or Murata LQH4C100K04)"),
    BoostPart("D", "Device:D_Schottky", "MBR0530", "Diode_SMD:D_SOD-123",
              {"A": "BIAS_SW", "K": "VBIAS"}, "Schottky diode 30 V, SOD-123", "MBR0530",
              "SLVS413I Figure 12 and Table 5"),
    BoostPart("C", "Device:C", "4.7uF", "Capacitor_SMD:C_0805_2012Metric",
              {"1": "+5V", "2": "GND"}, "Capacitor 4.7 µF X5R 6.3 V 0805", "JMK212BY475MG",
              "SLVS413I §8.2.2.5 and Table 4: the input capacitor"),
    BoostPart("C", "Device:C", "1uF 35V", "Capacitor_SMD:C_1206_3216Metric",
              {"1": "VBIAS", "2": "GND"}, "Capacitor 1 µF X5R 35 V 1206", "GMK316BJ105KL",
              "SLVS413I Table 4: the output capacitor (35 V for the 24 V output)"),
    BoostPart("C", "Device:C", "10pF", "Capacitor_SMD:C_0805_2012Metric",
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
chain's G (SEL_OE) has only its pull-up here: the 74AHCT125 has no fourth spare gate
for it."""


def select_net(net: str) -> str:
    """The 3.3 V net of a select line, between the Pico and its buffer."""
    return f"{net}_3V3"


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
