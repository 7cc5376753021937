"""The LED chain's parts and its 5 V supply, sized from the data sheets.

Figures and their sources (docs/hardware.md shows the arithmetic):

- WS2812B-Mini data sheet (Worldsemi, 3535 package): 12 mA per colour channel, so
  36 mA for one LED at full white; VDD 3.5-5.3 V, characterised at 4.5-5.5 V;
  DIN's VIH is 0.7 × VDD = 3.5 V at 5 V, above the Pico's 3.3 V high.
- 74AHCT125 data sheet (TI SN74AHCT125): VIH 2.0 V at VCC 5 V (TTL-level inputs),
  so the Pico's 3.3 V reads high and the output swings the full 5 V. Its own
  current (ICC in µA, ΔICC about a milliampere while its input sits at 3.3 V
  rather than at a rail) is left out beside the LEDs' amperes.
- Dark current of one LED (its controller, every channel off): about 1 mA, a
  measured figure (the data sheet gives none).
"""

from __future__ import annotations

import math

from msgspec import Struct

from wiring.bomline import BomLine
from wiring.profile import LedChain

CHANNEL_MA = 12.0
"""WS2812B-Mini: current of one colour channel fully on."""
LED_MA = 3 * CHANNEL_MA
"""One LED at full white."""
DARK_MA = 1.0
"""One LED's controller with every channel off (measured; not in the data sheet)."""
HEADROOM = 1.2
"""A supply is not run at its rating: it is chosen for 1.2 × the most the chain draws."""
SUPPLY_AMPS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25)
"""The ratings 5 V supplies are sold in, A."""
PITCH_MM = 19.05
"""One square (3/4 inch), the distance from one LED to the next along the chain."""
RAIL_MOHM_PER_PITCH = 2 * 1.72e-8 * (PITCH_MM / 1000) / (3e-3 * 35e-6) * 1000
"""The 5 V and 0 V rails between two LEDs, both counted: 3 mm wide traces of 1 oz
(35 µm) copper, resistivity 1.72e-8 Ω·m: 6.2 mΩ a square."""
MAX_DROP_V = 0.4
"""The most the rails may drop along a stretch: a supply at 4.9 V or more keeps every
LED within the 4.5-5.5 V the data sheet characterises them at."""


class LedSupply(Struct, frozen=True):
    """The chain's 5 V supply: what it must give and where it feeds the chain."""

    leds: int
    budget_ma: int
    full_white_ma: float
    """What every LED at full white would draw, were the budget not kept."""
    need_ma: float
    """The most the chain draws: its budget and every LED's dark current."""
    supply_a: int
    """The supply's rating, A."""
    per_feed: int
    """LEDs fed from one feed point before the next one (power injection)."""

    @property
    def feeds(self) -> int:
        """Feed points: the chain's start and one every ``per_feed`` LEDs."""
        return math.ceil(self.leds / self.per_feed)

    def drop_v(self, leds: int) -> float:
        """The rails' worst drop along a stretch of ``leds`` fed from one end, every LED
        drawing its share of what the budget lets the stretch draw."""
        amps = min(leds * LED_MA, self.budget_ma) / 1000
        return RAIL_MOHM_PER_PITCH / 1000 * amps * (leds + 1) / 2

    def summary(self) -> str:
        feeds = (
            "fed at its start"
            if self.feeds == 1
            else f"fed at its start and every {self.per_feed} LEDs ({self.feeds} feeds)"
        )
        return (
            f"LED chain at 5 V, its own supply: {self.leds} LEDs draw at most "
            f"{self.budget_ma} mA (budget) + {self.leds * DARK_MA:.0f} mA dark = "
            f"{self.need_ma:.0f} mA (full white would be {self.full_white_ma:.0f} mA); "
            f"× {HEADROOM} → a {self.supply_a} A supply, {feeds}"
        )


def led_supply(chain: LedChain, columns: int) -> LedSupply:
    """Size the supply of ``chain`` and its feed points (a whole number of the board's
    ``columns``-long rows between feeds, when a row fits)."""
    leds = len(chain.chain)
    need = chain.budget_ma + leds * DARK_MA
    rating = next((a for a in SUPPLY_AMPS if a * 1000 >= need * HEADROOM), SUPPLY_AMPS[-1])
    probe = LedSupply(leds, chain.budget_ma, leds * LED_MA, need, rating, leds)
    per_feed = 1
    while per_feed < leds and probe.drop_v(per_feed + 1) <= MAX_DROP_V:
        per_feed += 1
    if per_feed < leds and per_feed >= columns > 0:
        per_feed -= per_feed % columns
    return LedSupply(leds, chain.budget_ma, leds * LED_MA, need, rating, per_feed)


def led_lines(chain: LedChain, columns: int) -> list[BomLine]:
    """The chain's parts: the LEDs, their capacitors, the level shifter, the data
    line's resistor, the bulk capacitor and the supply."""
    supply = led_supply(chain, columns)
    n = supply.leds
    lines = [
        BomLine(
            "Addressable RGB LED, 3535",
            n,
            "WS2812B-Mini (or SK6812 MINI-E, own footprint)",
            "lights a square or rack slot from below",
            0.04,
            0.15,
        ),
        BomLine(
            "Capacitor 100 nF X7R 0603",
            n + 1,
            "GRM188R71H104KA93D",
            "one at every LED's VDD, one at the 74AHCT125",
            0.01,
            0.03,
        ),
        BomLine(
            "Quad buffer, TTL-level inputs",
            1,
            "SN74AHCT125N",
            "data line 3.3 V → 5 V (VIH 2.0 V); spare inputs to GND, their ~OE to 5 V",
            0.3,
            0.7,
        ),
        BomLine(
            "Resistor 330 Ω",
            1,
            "CFR-25 330R",
            "in series with the data line (330-470 Ω): damps ringing, limits fault current",
            0.01,
            0.05,
        ),
        BomLine(
            "Capacitor 1000 µF 10 V electrolytic",
            1,
            "EEU-FR1A102",
            "bulk at the chain's power feed: absorbs the inrush and a frame's steps",
            0.2,
            0.6,
        ),
        BomLine(
            f"Power supply 5 V {supply.supply_a} A",
            1,
            "generic, barrel or screw terminals",
            f"the LEDs alone: {supply.need_ma:.0f} mA × {HEADROOM} (0 V joined to the Pico's GND)",
            5,
            8 + 2 * supply.supply_a,
        ),
    ]
    if supply.feeds > 1:
        lines.append(
            BomLine(
                "Wire pair, 18 AWG, red and black, 0.5 m",
                supply.feeds - 1,
                "generic silicone",
                f"power injection every {supply.per_feed} LEDs, star-wired from the supply",
                0.3,
                0.8,
            )
        )
    return lines
