"""The LED chain's parts and its 5 V supply, sized from the data sheets.

Figures and their sources (docs/hardware.md shows the arithmetic):

- One current model on both sides of the link: 20 mA for one colour channel fully
  on and 1 mA for a dark LED's controller, the figures the Pico firmware scales a
  frame by (``CHANNEL_MA`` and ``IDLE_MA`` in firmware_bridge/firmware/leds.py, a
  test keeps them equal): the cautious figure for the WS2812B and the SK6812 MINI
  (whose data sheet gives 12 mA a channel), so 60 mA for one LED at full white.
- WS2812B-Mini data sheet (Worldsemi, 3535 package): VDD 3.5-5.3 V, characterised
  at 4.5-5.5 V; DIN's VIH is 0.7 × VDD = 3.5 V at 5 V, above the Pico's 3.3 V high.
- 74AHCT125 data sheet (TI SN74AHCT125): VIH 2.0 V at VCC 5 V (TTL-level inputs),
  so the Pico's 3.3 V reads high and the output swings the full 5 V. Its own
  current (ICC in µA, ΔICC about a milliampere while its input sits at 3.3 V
  rather than at a rail) is left out beside the LEDs' amperes.
- The square pitch, which sets the rails' length from one LED to the next: 21 mm
  on a board 15 or more squares wide (19 mm tiles and a 2 mm gap), 30 mm on the
  8 × 9 and 9 × 9 boards (docs/hardware.md, "Size, top and pieces").
- The fuse: IEC 60127-2 time-lag 5 × 20 mm ratings, run at most at 75 % of their
  rating (Littelfuse "Fuseology" selection guide: derate 25 % at 25 °C).
"""

from __future__ import annotations

import math

from msgspec import Struct

from wiring.bomline import BomLine
from wiring.profile import LedChain

CHANNEL_MA = 20.0
"""One colour channel fully on: the firmware's ``CHANNEL_MA``."""
LED_MA = 3 * CHANNEL_MA
"""One LED at full white."""
DARK_MA = 1.0
"""One LED's controller with every channel off: the firmware's ``IDLE_MA``."""
HEADROOM = 1.2
"""A supply is not run at its rating: it is chosen for 1.2 × the most the chain draws."""
SUPPLY_AMPS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25)
"""The ratings 5 V supplies are sold in, A."""
WIDE_PITCH_MM = 21.0
"""A square of the 15 × 15 boards: a 19 mm tile and a 2 mm gap."""
POINT_PITCH_MM = 30.0
"""A point or spot of the 8 × 9 and 9 × 9 boards."""
WIDE_FROM_COLUMNS = 15
"""Boards this many columns wide or wider are laid at ``WIDE_PITCH_MM``."""
COPPER_OHM_M = 1.72e-8
"""Resistivity of copper at 20 °C."""
RAIL_WIDTH_M, RAIL_THICKNESS_M = 3e-3, 35e-6
"""The rails: 3 mm wide traces of 1 oz (35 µm) copper."""
FUSE_RATINGS_A = (1.0, 1.25, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3, 8.0, 10.0, 12.5, 16.0, 20.0)
"""IEC 60127-2 5 × 20 mm time-lag ratings (12.5-20 A: the 6.3 × 32 mm range)."""
FUSE_DERATING = 0.75
"""A fuse carries at most this share of its rating continuously."""


def square_pitch_mm(columns: int) -> float:
    """The distance from one square's LED to the next on a board ``columns`` wide."""
    return WIDE_PITCH_MM if columns >= WIDE_FROM_COLUMNS else POINT_PITCH_MM


def rail_mohm_per_pitch(pitch_mm: float) -> float:
    """The 5 V and 0 V rails between two LEDs ``pitch_mm`` apart, both counted, mΩ."""
    return 2 * COPPER_OHM_M * (pitch_mm / 1000) / (RAIL_WIDTH_M * RAIL_THICKNESS_M) * 1000


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
    pitch_mm: float
    """From one LED to the next."""

    @property
    def feeds(self) -> int:
        """Feed points: the chain's start and one every ``per_feed`` LEDs."""
        return math.ceil(self.leds / self.per_feed)

    def drop_v(self, leds: int) -> float:
        """The rails' worst drop along a stretch of ``leds`` fed from one end, every LED
        drawing its share of what the budget lets the stretch draw."""
        amps = min(leds * LED_MA, self.budget_ma) / 1000
        return rail_mohm_per_pitch(self.pitch_mm) / 1000 * amps * (leds + 1) / 2

    @property
    def fuse_a(self) -> float:
        """The LED supply's fuse: the smallest rating that carries the most the chain
        draws at ``FUSE_DERATING`` of itself."""
        amps = self.need_ma / 1000 / FUSE_DERATING
        return next((a for a in FUSE_RATINGS_A if a >= amps), FUSE_RATINGS_A[-1])

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
            f"× {HEADROOM} → a {self.supply_a} A supply, a {self.fuse_a:g} A fuse, {feeds} "
            f"at {self.pitch_mm:g} mm a square"
        )


def led_supply(chain: LedChain, columns: int) -> LedSupply:
    """Size the supply of ``chain`` and its feed points (a whole number of the board's
    ``columns``-long rows between feeds, when a row fits) at the board's pitch."""
    leds = len(chain.chain)
    need = chain.budget_ma + leds * DARK_MA
    rating = next((a for a in SUPPLY_AMPS if a * 1000 >= need * HEADROOM), SUPPLY_AMPS[-1])
    pitch = square_pitch_mm(columns)
    probe = LedSupply(leds, chain.budget_ma, leds * LED_MA, need, rating, leds, pitch)
    per_feed = 1
    while per_feed < leds and probe.drop_v(per_feed + 1) <= MAX_DROP_V:
        per_feed += 1
    if per_feed < leds and per_feed >= columns > 0:
        per_feed -= per_feed % columns
    return LedSupply(leds, chain.budget_ma, leds * LED_MA, need, rating, per_feed, pitch)


FUSE_PARTS: dict[float, str] = {
    1.0: "0218001.MXP", 1.25: "02181.25MXP", 1.6: "021801.6MXP", 2.0: "0218002.MXP",
    2.5: "02182.5MXP", 3.15: "02183.15MXP", 4.0: "0218004.MXP", 5.0: "0218005.MXP",
    6.3: "02186.3MXP", 8.0: "0218008.MXP", 10.0: "0218010.MXP",
}  # fmt: skip
"""Littelfuse 218 series (5 × 20 mm, time-lag) part numbers by rating, A."""


def led_lines(chain: LedChain, columns: int) -> list[BomLine]:
    """The chain's parts: on the PCB the LEDs, their capacitors, the level shifter,
    its input's pull-down, the data line's resistor, the bulk capacitor, the feed
    terminals and the fuse holder; bought beside it the fuse, the supply and its
    adapter and the injection wires."""
    supply = led_supply(chain, columns)
    n = supply.leds
    fuse = FUSE_PARTS.get(supply.fuse_a, f"218 series, {supply.fuse_a:g} A")
    lines = [
        BomLine(
            "Addressable RGB LED, 3535",
            n,
            "SK6812MINI",
            "lights a square or rack slot from below (a WS2812B-Mini numbers its pins "
            "otherwise: not a drop-in)",
            0.04,
            0.15,
            "Opsco Optoelectronics",
            "",
            "pcb",
        ),
        BomLine(
            "Capacitor 100 nF X7R 0603",
            n,
            "GRM188R71H104KA93D",
            "one at every LED's VDD (the 74AHCT125's is a 2.5 mm disc, with the chips')",
            0.01,
            0.03,
            "Murata",
            "81-GRM188R71H104KA93D",
            "pcb",
        ),
        BomLine(
            "Quad buffer, TTL-level inputs, DIP-14",
            1,
            "SN74AHCT125N",
            "data line 3.3 V → 5 V (VIH 2.0 V); spare inputs to GND, their ~OE to 5 V",
            0.3,
            0.7,
            "Texas Instruments",
            "595-SN74AHCT125N",
            "pcb",
        ),
        BomLine(
            "Resistor 330 Ω",
            1,
            "CFR-25JB-52-330R",
            "in series with the data line (330-470 Ω): damps ringing, limits fault current",
            0.01,
            0.05,
            "Yageo",
            "603-CFR-25JB-52-330R",
            "pcb",
        ),
        BomLine(
            "Capacitor 1000 µF 10 V electrolytic",
            1,
            "EEU-FR1A102",
            "bulk at the chain's power feed: absorbs the inrush and a frame's steps",
            0.2,
            0.6,
            "Panasonic",
            "667-EEU-FR1A102",
            "pcb",
        ),
        BomLine(
            "Screw terminal 2-way, 5.0 mm",
            supply.feeds + 1,
            "1935161",
            "Phoenix MKDS 1,5/ 2: the supply's input (before the fuse), the first LED, "
            "each injection point",
            0.4,
            0.9,
            "Phoenix Contact",
            "651-1935161",
            "pcb",
        ),
        BomLine(
            "Fuse holder 5 × 20 mm, PCB",
            1,
            "0031.8201",
            "holds the LED supply's fuse, between feed 1 and the rails",
            0.5,
            1.5,
            "Schurter",
            "693-0031.8201",
            "pcb",
        ),
        BomLine(
            f"Fuse {supply.fuse_a:g} A time-lag, 5 × 20 mm",
            1,
            fuse,
            f"the LED supply: {supply.need_ma:.0f} mA at most ≤ {FUSE_DERATING:.0%} of its rating",
            0.3,
            0.8,
            "Littelfuse",
            f"576-{fuse}" if supply.fuse_a in FUSE_PARTS else "",
        ),
        BomLine(
            f"Power supply 5 V {supply.supply_a} A, 5.5 × 2.1 mm plug",
            1,
            "generic, regulated",
            f"the LEDs alone: {supply.need_ma:.0f} mA × {HEADROOM} (0 V joined to the Pico's GND)",
            5,
            8 + 2 * supply.supply_a,
        ),
        BomLine(
            "DC jack 5.5 × 2.1 mm to screw terminal adapter",
            1,
            "generic, female",
            "the supply's plug into feed 1's terminal",
            0.3,
            1.0,
        ),
    ]
    if supply.feeds > 1:
        lines.append(
            BomLine(
                "Wire pair, 18 AWG, red and black, 0.5 m",
                supply.feeds - 1,
                "generic silicone",
                f"power injection every {supply.per_feed} LEDs, star-wired from feed 1",
                0.3,
                0.8,
            )
        )
    return lines
