"""The Pi's interfaces that would take pins a profile uses as plain GPIO.

A board that uses every free pin (``double-take-gpio``) needs SPI0 off (GPIO 7–11),
no login console on the serial pins (GPIO 14, 15) and no 1-Wire on GPIO 4, as
docs/wiring.md says. ``tabletop run`` reads the Pi's boot files and says what is
still on, and what it could not check; it refuses nothing, since a board can be
wired differently from the profile's names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from msgspec import Struct, field

BOOT_CONFIGS = ("boot/firmware/config.txt", "boot/config.txt")
"""The boot config, where Raspberry Pi OS keeps it (Bookworm first)."""
CMDLINE = "proc/cmdline"
"""The kernel's command line as the Pi booted (with its serial console, if any)."""
SPI0 = frozenset({7, 8, 9, 10, 11})
UART0 = frozenset({14, 15})
ONE_WIRE = frozenset({4})
_SERIAL_CONSOLE = re.compile(r"(?:^|\s)console=(serial0|ttyAMA0|ttyS0)\b")


class Report(Struct):
    """What is on that should be off, and what could not be checked."""

    problems: list[str] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)


def _last_spi(lines: list[str]) -> str | None:
    """``on`` or ``off`` as the boot config's last ``dtparam=spi=...`` sets it (None:
    not set, which leaves SPI off)."""
    value = None
    for line in lines:
        if line.startswith("dtparam="):
            for param in line.removeprefix("dtparam=").split(","):
                if param.startswith("spi="):
                    value = param.removeprefix("spi=")
    return value


def _pins(pins: Mapping[int, str], wanted: frozenset[int]) -> str:
    return ", ".join(f"GPIO {p} ({pins[p]})" for p in sorted(wanted & pins.keys()))


def check_interfaces(pins: Mapping[int, str], root: Path = Path("/")) -> Report:
    """Check the interfaces over ``pins`` (BCM pin: what it is for) on the system
    under ``root``."""
    report = Report()
    if not pins.keys() & (SPI0 | UART0 | ONE_WIRE):
        return report
    config = next((root / p for p in BOOT_CONFIGS if (root / p).is_file()), None)
    if config is None:
        report.unchecked.append(
            "no boot config (/boot/firmware/config.txt) to check SPI and 1-Wire: "
            "see docs/wiring.md for the raspi-config steps"
        )
    else:
        lines = config.read_text(encoding="utf-8", errors="replace").splitlines()
        spi = [line.split("#", 1)[0].strip().lower().replace(" ", "") for line in lines]
        if pins.keys() & SPI0 and _last_spi(spi) == "on":
            report.problems.append(
                f"SPI is on (dtparam=spi=on in /{config.relative_to(root)}) but the profile "
                f"uses its pins: {_pins(pins, SPI0)}; turn it off with "
                "sudo raspi-config nonint do_spi 1, then reboot"
            )
        overlays = [
            line.split("#", 1)[0].strip() for line in lines if "w1-gpio" in line.split("#", 1)[0]
        ]
        if pins.keys() & ONE_WIRE and overlays:
            report.problems.append(
                f"1-Wire is on ({overlays[0]} in /{config.relative_to(root)}) but the profile "
                f"uses {_pins(pins, ONE_WIRE)}; take that line out, then reboot"
            )
    if pins.keys() & UART0:
        cmdline = root / CMDLINE
        try:
            text = cmdline.read_text(encoding="utf-8", errors="replace")
        except OSError:
            report.unchecked.append(
                f"cannot read /{CMDLINE} to check for a serial console: see docs/wiring.md"
            )
        else:
            found = _SERIAL_CONSOLE.search(text)
            if found is not None:
                report.problems.append(
                    f"a login console runs on the serial pins (console={found.group(1)} in "
                    f"/{CMDLINE}) but the profile uses {_pins(pins, UART0)}; turn it off with "
                    "sudo raspi-config nonint do_serial_cons 1, then reboot"
                )
    return report
