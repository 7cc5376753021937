"""The LED chain's part of a Pico board's netlist (SKiDL), as docs/hardware.md draws it.

The LED supply comes in on its own terminal and through a time-lag fuse onto the
rails (+5V_LED); a feed terminal on the fused rails stands at the first LED and at
every power injection point, the injection wires running from the first one. The
Pico's data pin drives gate 1 of a 74AHCT125 powered from the LEDs' 5 V (its
TTL-level input reads the Pico's 3.3 V as high: VIH 2.0 V), a 10 kΩ pull-down on
that input holding it low while the Pico boots or is unplugged (so the LEDs see
no noise as data: TI's SCBA004 "Implications of Slow or Floating CMOS Inputs");
its output goes through
the 330 Ω series resistor to the first LED's DIN, and every LED's DOUT to the next
one's DIN (the last DOUT is left open). Every LED has a 100 nF capacitor from VDD to
VSS; the 1000 µF bulk capacitor sits at the first feed, where the chain's own 5 V
supply comes in, and a feed connector stands at every power injection point. The
buffer's three spare gates are disabled (~OE high) with their inputs on GND.

Pinouts from the data sheets and KiCad's LED:SK6812MINI symbol (the footprint
LED_SK6812MINI_PLCC4 is drawn for it): SK6812MINI 1 DOUT, 2 VSS, 3 DIN, 4 VDD (a
WS2812B-Mini numbers its pins otherwise and is no drop-in on this footprint);
SN74AHCT125 (DIP/SOIC-14) 1OE 1A 1Y 2OE 2A 2Y GND 3Y 3A 3OE 4Y 4A 4OE VCC.
"""

from __future__ import annotations

from typing import Any

from wiring.leds_power import led_supply
from wiring.profile import LedChain
from wiring.skidl_env import template

FUSE_FOOTPRINT = "Fuse:Fuseholder_Cylinder-5x20mm_Schurter_0031_8201_Horizontal_Open"
"""Schurter 0031.8201, the 5 × 20 mm PCB holder the bill names."""


def _templates(skidl: Any) -> dict[str, Any]:
    t = skidl.Pin.types

    def part(name: str, prefix: str, footprint: str, pins: list[tuple[int, str, Any]]) -> Any:
        return template(skidl, name, prefix, footprint, pins)

    ahct125 = [
        (1, "1OE", t.INPUT), (2, "1A", t.INPUT), (3, "1Y", t.OUTPUT), (4, "2OE", t.INPUT),
        (5, "2A", t.INPUT), (6, "2Y", t.TRISTATE), (7, "GND", t.PWRIN), (8, "3Y", t.TRISTATE),
        (9, "3A", t.INPUT), (10, "3OE", t.INPUT), (11, "4Y", t.TRISTATE), (12, "4A", t.INPUT),
        (13, "4OE", t.INPUT), (14, "VCC", t.PWRIN),
    ]  # fmt: skip
    led = [(1, "DOUT", t.OUTPUT), (2, "VSS", t.PWRIN), (3, "DIN", t.INPUT), (4, "VDD", t.PWRIN)]
    two = [(1, "1", t.PASSIVE), (2, "2", t.PASSIVE)]
    return {
        "led": part("SK6812MINI", "D", "LED_SMD:LED_SK6812MINI_PLCC4_3.5x3.5mm_P1.75mm", led),
        "buffer": part("74AHCT125", "U", "Package_DIP:DIP-14_W7.62mm", ahct125),
        "R": part("R", "R", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal", two),
        "C": part("C", "C", "Capacitor_SMD:C_0603_1608Metric", two),
        "bulk": part("CP", "C", "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm", two),
        "fuse": part("Fuse", "F", FUSE_FOOTPRINT, two),
        "feed": part(
            "5V_feed",
            "J",
            "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2_1x02_P5.00mm_Horizontal",
            two,
        ),
    }


def draw_leds(
    skidl: Any, circuit: Any, chain: LedChain, data_pin: Any, gnd: Any, columns: int
) -> tuple[int, int]:
    """Add ``chain`` to ``circuit``, driven from the Pico's ``data_pin``; returns the
    parts added and how many of them are LEDs."""
    templates = _templates(skidl)
    parts = 0

    def make(kind: str, value: str) -> Any:
        nonlocal parts
        made = templates[kind](circuit=circuit)
        made.value = value
        parts += 1
        return made

    def net(name: str) -> Any:
        return skidl.Net(name, circuit=circuit)

    v5 = net("+5V_LED")
    v5.drive = skidl.POWER
    nc = circuit.NC

    def decouple(value: str = "100nF", kind: str = "C") -> None:
        cap = make(kind, value)
        cap[1] += v5
        cap[2] += gnd

    buffer = make("buffer", "74AHCT125")
    v5 += buffer["VCC"]
    gnd += buffer["GND"], buffer["1OE"]  # gate 1 always on
    decouple()
    for gate in (2, 3, 4):
        v5 += buffer[f"{gate}OE"]  # spare gates off, their outputs open
        gnd += buffer[f"{gate}A"]
        buffer[f"{gate}Y"] += nc
    data_3v3, data_5v = net("LED_DATA_3V3"), net("LED_DATA_5V")
    data_3v3 += data_pin, buffer["1A"]
    pull_down = make("R", "10k")
    data_3v3 += pull_down[1]
    gnd += pull_down[2]
    data_5v += buffer["1Y"]
    series = make("R", "330")
    data_5v += series[1]
    din = net("LED_DIN1")
    din += series[2]

    supply = led_supply(chain, columns)
    v5_in = net("+5V_LED_IN")
    v5_in.drive = skidl.POWER
    inlet = make("feed", f"5V {supply.supply_a} A supply in")
    v5_in += inlet[1]
    gnd += inlet[2]
    fuse = make("fuse", f"{supply.fuse_a:g} A T")
    v5_in += fuse[1]
    v5 += fuse[2]
    for k in range(supply.feeds):
        feed = make("feed", f"5V feed {k + 1} (at LED {k * supply.per_feed + 1})")
        v5 += feed[1]
        gnd += feed[2]
    decouple("1000uF", "bulk")

    for i, cell in enumerate(chain.chain):
        led = make("led", f"SK6812MINI {cell}")
        v5 += led["VDD"]
        gnd += led["VSS"]
        din += led["DIN"]
        decouple()
        if i + 1 < len(chain.chain):
            din = net(f"LED_DIN{i + 2}")
            din += led["DOUT"]
        else:
            led["DOUT"] += nc
    return parts, len(chain.chain)
