"""The systemd unit: the groups and devices a board needs, and the shipped unit fitted to them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib import resources
from pathlib import PurePosixPath

from msgspec import Struct

from wiring.profile import Profile

from ..errors import InstallError
from .places import CONFIG, UNIT_NAME

SERIAL_CLASSES = ("ttyACM", "ttyUSB", "ttyAMA", "ttyS")
"""Serial device classes (names in /proc/devices) a board's port may be."""


class Needs(Struct, frozen=True):
    """The groups and device classes the service needs for a profile."""

    groups: tuple[str, ...]
    devices: tuple[str, ...]


def serial_classes(port: str, target: str | None) -> tuple[str, ...]:
    """The device classes a serial port may be: from the device it points to, when known."""
    name = target or PurePosixPath(port).name
    for kind in SERIAL_CLASSES:
        if re.fullmatch(rf"{kind}\d+", name):
            return (kind,)
    if "/by-id/" in port or "/by-path/" in port:
        return ("ttyACM", "ttyUSB")  # a USB serial device not plugged in yet
    if port in ("/dev/serial0", "/dev/serial1"):
        return ("ttyAMA", "ttyS")  # the Pi's own UARTs
    raise InstallError(
        f"the serial port {port!r} is not a serial device the service can be given: name a "
        "/dev/ttyACM*, /dev/ttyUSB*, /dev/ttyAMA*, /dev/serial0 or /dev/serial/by-id/ device"
    )


def needs(profile: Profile, serial_targets: dict[str, str]) -> Needs:
    """The buttons, buzzer, LED (and a matrix) are on GPIO, the OLED is on I2C, and a
    serial board needs dialout and its tty. No shipped board uses SPI."""
    groups = ["gpio", "i2c"]
    devices = ["char-gpiochip", "char-i2c"]
    if profile.serial is not None:
        groups.append("dialout")
        port = profile.serial.port
        devices += [f"char-{c}" for c in serial_classes(port, serial_targets.get(port))]
    return Needs(tuple(groups), tuple(devices))


def render_unit(
    template: str, bin_dir: PurePosixPath, groups: Sequence[str], devices: Sequence[str]
) -> str:
    """The shipped unit, fitted to this venv, these groups and these devices."""
    out: list[str] = []
    for line in template.splitlines():
        if line.startswith("ExecStart="):
            out.append(f"ExecStart={bin_dir / 'tabletop'} run --config {CONFIG}")
        elif line.startswith("SupplementaryGroups="):
            if groups:
                out.append(f"SupplementaryGroups={' '.join(groups)}")
        elif line.startswith("DeviceAllow="):
            out += [f"DeviceAllow={d} rw" for d in devices]
            devices = ()
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def shipped_unit() -> str:
    return (resources.files("firmware_bridge") / "systemd" / UNIT_NAME).read_text(encoding="utf-8")
