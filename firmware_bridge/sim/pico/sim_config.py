"""The firmware's config.py for a simulated board: the Pico's pins as the real
config.py has them, the sensor the firmware reads, the row and column antennas'
chain, and the antenna multiplexers' address pins for any number of squares."""

from __future__ import annotations

SIM_CONFIG = {
    "MATRIX_SPI": 0,
    "MATRIX_SCK": 18,
    "MATRIX_MOSI": 19,
    "MATRIX_MISO": 16,
    "ROW_LATCH": 17,
    "COLUMN_LOAD": 20,
    "ACTIVE_LOW": True,
    "DEBOUNCE_MS": 30,
    "RFID_DEBOUNCE_MS": 60,
    "TAG_RETRY_MS": 250,
    "TAG_RETRIES_PER_PASS": 4,
    "SNAPSHOT_MS": 2000,
    "RFID_SPI": 1,
    "RFID_SCK": 10,
    "RFID_MOSI": 11,
    "RFID_MISO": 12,
    "RFID_CS": 13,
    "RFID_RST": 26,
    "RFID_IRQ": None,
    "ANTENNA_SER": 27,
    "ANTENNA_SRCK": 28,
    "ANTENNA_RCK": 21,
    "ANTENNA_G": 14,
    "ANTENNA_SRCLR": None,
    # The antenna's settling costs the board's time (ANTENNA_SETTLE_US below), not a
    # busy wait here.
    "ANTENNA_SETTLE_US": 0,
    "READERS_PER_STEP": 64,
    # The simulated card answers as soon as the field is on; the time a real tag
    # takes to power up belongs to the board's timing, not to a busy wait here.
    "TAG_POWER_US": 0,
    "ROW_SETTLE_US": 0,
    "SWEEP_MS": 100,
    "RECOVERY_PIN": None,
    "RECOVERY_WINDOW_MS": 0,
}
ANTENNA_SETTLE_US = 300
"""What config.py has the firmware wait after an antenna switch (docs/rf.md, "Switching
time"): charged to the simulated board's time each time the field comes on after one."""
SENSORS = ("occupancy", "rfid", "occupancy+rfid")
FIRMWARES = ("python", "micropython")
"""What runs the firmware: CPython in this process, or the MicroPython unix port."""


def select_pins(cells: int) -> tuple[int, ...]:
    """The antenna multiplexers' address pins: the Pico's GPIO 2-9 as in config.py;
    a bigger simulated board borrows more."""
    bits = max(1, (cells - 1).bit_length())
    return tuple(range(2, 2 + bits)) if bits <= 8 else tuple(range(40, 40 + bits))


def firmware_sensor(profile_sensor: str) -> str:
    """The firmware's SENSOR for a profile's ``[serial] sensor``: an RFID board is
    built with a switch under every square as well (docs/hardware.md), so its
    firmware reads a tag where a switch changed."""
    return "occupancy+rfid" if profile_sensor == "rfid" else profile_sensor
