"""The Raspberry Pi Pico side of a serial sensor board: its 40 pins and what the
firmware's config.py (firmware_bridge/firmware/config.py) wires to each.

Pins 1-20 run down the Pico's left edge, 21-40 up its right edge (USB at the top),
as in the Raspberry Pi Pico data sheet's pinout.
"""

from __future__ import annotations

import math

from msgspec import Struct

from wiring.profile import Profile

# config.py's pins, GP numbers.
MATRIX_SCK, MATRIX_MOSI, MATRIX_MISO, ROW_LATCH, COLUMN_LOAD = 18, 19, 16, 17, 20
RFID_SCK, RFID_MOSI, RFID_MISO, RFID_CS = 10, 11, 12, 13
RFID_SELECT = (2, 3, 4, 5, 6, 7, 8, 9)
RFID_RST = 26
"""To the reader's reset: the TRF7962A's EN on the row and column board (low powers
it down, high starts it again), the MFRC522's NRSTPD on the older one; pulsed to reset
a reader that stopped answering (config.py's RFID_RST)."""
ANTENNA_SER, ANTENNA_SRCK, ANTENNA_RCK, ANTENNA_G = 27, 28, 21, 14
"""The TPIC6B595 antenna chain of the row and column board (config.py's ANTENNA_SER,
ANTENNA_SRCK, ANTENNA_RCK, ANTENNA_G): SER IN, SRCK and RCK through the LED chain's
74AHCT125 (docs/hardware.md); G through a 74AHCT1G125 wired as an open drain (GP14 on
its ~OE), held high by its 10 kΩ pull-up until the firmware has cleared the chain."""
RFID_BOARDS = ("rowcol", "mux")
"""config.py's RFID_BOARD: the row and column antennas (its default), or the older
board's multiplexed coils."""
RECOVERY_PIN = 22
UART_LINK = (0, 1)
"""UART0 TX/RX: the link to the Pi when the firmware's config.py says LINK = "uart"."""
NOT_BROUGHT_OUT = (23, 24, 25, 29)
"""GPIOs the Pico uses on its own board (SMPS mode, VBUS sense, the LED, VSYS/3)."""
LED_GROUP = "LED chain: 74AHCT125 to 5 V, WS2812B-minis"
GROUND_PINS = (3, 8, 13, 18, 23, 28, 33, 38)


def _pinout() -> dict[int, str]:
    names: dict[int, str] = {}
    gp = iter(range(23))
    for number in range(1, 30):
        names[number] = "GND" if number in GROUND_PINS else f"GP{next(gp)}"
    names.update(
        {
            30: "RUN",
            31: "GP26",
            32: "GP27",
            33: "GND",
            34: "GP28",
            35: "ADC_VREF",
            36: "3V3(OUT)",
            37: "3V3_EN",
            38: "GND",
            39: "VSYS",
            40: "VBUS",
        }
    )
    return names


PINOUT: dict[int, str] = _pinout()
"""Physical pin -> its name on the Pico."""


def firmware_pins(sensor: str, rfid_board: str = "rowcol") -> dict[int, str]:
    """GP number -> what config.py wires to it, on a board of ``sensor`` ("occupancy"
    or "rfid") whose RFID board is ``rfid_board`` (config.py's RFID_BOARD): the pins
    nothing else on that board may take."""
    if rfid_board not in RFID_BOARDS:
        raise ValueError(f"no RFID board {rfid_board!r}: use one of {', '.join(RFID_BOARDS)}")
    used = dict.fromkeys(UART_LINK, 'the UART link (LINK = "uart")')
    for gp in (MATRIX_SCK, MATRIX_MOSI, MATRIX_MISO, ROW_LATCH, COLUMN_LOAD):
        used[gp] = "the switch matrix's SPI0 and latches"
    used[RECOVERY_PIN] = "the recovery strap"
    if sensor == "rfid":
        for gp in (RFID_SCK, RFID_MOSI, RFID_MISO, RFID_CS):
            used[gp] = "the RFID reader's SPI1"
        if rfid_board == "rowcol":
            used[RFID_RST] = "the RFID reader's EN (reset)"
            for gp in (ANTENNA_SER, ANTENNA_SRCK, ANTENNA_RCK, ANTENNA_G):
                used[gp] = "the TPIC6B595 antenna chain"
        else:
            used[RFID_RST] = "the RFID reader's reset (NRSTPD)"
            for gp in RFID_SELECT:
                used[gp] = "the antenna multiplexers' select lines"
    for gp in NOT_BROUGHT_OUT:
        used[gp] = "the Pico's own board (not on its pins)"
    return used


def gp_pin(gp: int) -> int:
    """The physical pin of GPIO ``gp``."""
    return next(n for n, name in PINOUT.items() if name == f"GP{gp}")


class PicoPin(Struct, frozen=True, order=True):
    """One Pico pin the board uses: its physical number, name, use and the part it
    goes to (``group``)."""

    physical: int
    name: str
    use: str
    group: str


def pico_pins(profile: Profile, rfid_board: str = "rowcol") -> list[PicoPin]:
    """Every Pico pin the serial board of ``profile`` uses (none for a GPIO board); an
    RFID board's as config.py's RFID_BOARD ``rfid_board`` wires them."""
    s = profile.serial
    if s is None:
        return []
    if rfid_board not in RFID_BOARDS:
        raise ValueError(f"no RFID board {rfid_board!r}: use one of {', '.join(RFID_BOARDS)}")
    rows, columns = math.ceil(s.rows / 8), math.ceil(s.columns / 8)
    matrix = "Switch matrix: 74HC595 rows, 74HC165 columns"
    pins = [
        PicoPin(gp_pin(MATRIX_MISO), f"GP{MATRIX_MISO}", "SPI0 MISO ← first 74HC165 QH", matrix),
        PicoPin(gp_pin(ROW_LATCH), f"GP{ROW_LATCH}", f"ROW_LATCH → RCLK of {rows} 74HC595", matrix),
        PicoPin(gp_pin(MATRIX_SCK), f"GP{MATRIX_SCK}", "SPI0 SCK → 595 SRCLK, 165 CLK", matrix),
        PicoPin(gp_pin(MATRIX_MOSI), f"GP{MATRIX_MOSI}", "SPI0 MOSI → first 74HC595 SER", matrix),
        PicoPin(
            gp_pin(COLUMN_LOAD),
            f"GP{COLUMN_LOAD}",
            f"COLUMN_LOAD → SH/LD of {columns} 74HC165",
            matrix,
        ),
        PicoPin(gp_pin(RECOVERY_PIN), f"GP{RECOVERY_PIN}", "strap to GND: recovery", "Recovery"),
        PicoPin(36, "3V3(OUT)", "3.3 V to every chip and pull-up", "Supply"),
        PicoPin(38, "GND", "ground of the board", "Supply"),
    ]
    if s.sensor == "rfid" and rfid_board == "rowcol":
        pins += _rowcol_pins(s.rows + s.columns)
    elif s.sensor == "rfid":
        reader = "MFRC522 reader module (SPI1, 3.3 V)"
        mux = "ADG1606 antenna multiplexers"
        pins += [
            PicoPin(gp_pin(RFID_SCK), f"GP{RFID_SCK}", "SPI1 SCK → reader SCK", reader),
            PicoPin(gp_pin(RFID_MOSI), f"GP{RFID_MOSI}", "SPI1 MOSI → reader MOSI", reader),
            PicoPin(gp_pin(RFID_MISO), f"GP{RFID_MISO}", "SPI1 MISO ← reader MISO", reader),
            PicoPin(gp_pin(RFID_CS), f"GP{RFID_CS}", "reader SDA (chip select)", reader),
            PicoPin(gp_pin(RFID_RST), f"GP{RFID_RST}", "reader RST (NRSTPD): reset", reader),
            PicoPin(40, "VBUS", "5 V to the multiplexers' VDD", "Supply"),
        ]
        for bit, gp in enumerate(RFID_SELECT):
            level = "leaf A" if bit < 4 else "first-level A"
            pins.append(
                PicoPin(gp_pin(gp), f"GP{gp}", f"antenna select bit {bit} → {level}{bit % 4}", mux)
            )
    if profile.leds is not None:
        gp = profile.leds.pin
        pins.append(
            PicoPin(gp_pin(gp), f"GP{gp}", "LED data → 74AHCT125 1A → 330 Ω → first DIN", LED_GROUP)
        )
        pins.append(PicoPin(18, "GND", "0 V of the LEDs' 5 V supply and the 74AHCT125", LED_GROUP))
    return sorted(pins)


def _rowcol_pins(antennas: int) -> list[PicoPin]:
    """The row and column board's Pico pins (config.py, RFID_BOARD = "rowcol"): the
    TRF7962A on SPI1 with its EN, the TPIC6B595 chain's four lines (docs/rf.md,
    docs/hardware.md)."""
    reader = "TRF7962A reader site (SPI1)"
    chain = f"TPIC6B595 antenna chain ({math.ceil(antennas / 8)} for {antennas} antennas)"
    buffer = "→ 74AHCT125 (5 V) →"
    return [
        PicoPin(gp_pin(RFID_SCK), f"GP{RFID_SCK}", "SPI1 SCK → reader SCLK", reader),
        PicoPin(gp_pin(RFID_MOSI), f"GP{RFID_MOSI}", "SPI1 MOSI → reader MOSI", reader),
        PicoPin(gp_pin(RFID_MISO), f"GP{RFID_MISO}", "SPI1 MISO ← reader MISO", reader),
        PicoPin(gp_pin(RFID_CS), f"GP{RFID_CS}", "reader chip select", reader),
        PicoPin(gp_pin(RFID_RST), f"GP{RFID_RST}", "reader EN: low powers it down", reader),
        PicoPin(
            gp_pin(ANTENNA_SER), f"GP{ANTENNA_SER}", f"ANTENNA_SER {buffer} first SER IN", chain
        ),
        PicoPin(
            gp_pin(ANTENNA_SRCK), f"GP{ANTENNA_SRCK}", f"ANTENNA_SRCK {buffer} every SRCK", chain
        ),
        PicoPin(gp_pin(ANTENNA_RCK), f"GP{ANTENNA_RCK}", f"ANTENNA_RCK {buffer} every RCK", chain),
        PicoPin(
            gp_pin(ANTENNA_G),
            f"GP{ANTENNA_G}",
            "ANTENNA_G → 74AHCT1G125 ~OE → every G",
            chain,
        ),
        PicoPin(40, "VBUS", "5 V to the radio: reader, TPIC6B595s, 24 V boost", "Supply"),
    ]
