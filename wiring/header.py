"""The Raspberry Pi 40-pin header (J8): BCM numbers, physical pins and bus roles.

The layout comes from gpiozero's own board data (the J8 header of a Pi 3B,
identical on every 40-pin Pi), so no Pi is needed to read it. The bus roles are
the ones Raspberry Pi OS gives the pins when an interface is switched on.
"""

from __future__ import annotations

from functools import cache

from msgspec import Struct

from wiring.errors import HeaderError

GPIO_PINS: tuple[int, ...] = tuple(range(28))
"""The BCM numbers brought out on the 40-pin header."""

ID_EEPROM_PINS: tuple[int, ...] = (0, 1)
I2C1_PINS: tuple[int, ...] = (2, 3)
SPI0_PINS: tuple[int, ...] = (7, 8, 9, 10, 11)
UART0_PINS: tuple[int, ...] = (14, 15)

_ROLES: dict[int, str] = {
    0: "ID_SD (HAT EEPROM)",
    1: "ID_SC (HAT EEPROM)",
    2: "I2C1 SDA",
    3: "I2C1 SCL",
    7: "SPI0 CE1",
    8: "SPI0 CE0",
    9: "SPI0 MISO",
    10: "SPI0 MOSI",
    11: "SPI0 SCLK",
    14: "UART0 TXD",
    15: "UART0 RXD",
}

# Any 40-pin board will do: the J8 pinout has not changed since the B+.
_REFERENCE_REVISION = 0xA02082


class HeaderPin(Struct, frozen=True):
    """One pin of J8: its physical number, its name and, for a GPIO, its BCM number.

    ``capabilities`` lists the interfaces the pin can be switched to (``"i2c"``,
    ``"spi"``, ``"uart"``, ``"pwm"``...), as gpiozero reports them.
    """

    physical: int
    name: str
    bcm: int | None
    capabilities: frozenset[str]


@cache
def header_pins() -> tuple[HeaderPin, ...]:
    """All 40 header pins, in physical order."""
    # Imported here: gpiozero takes longer to import than the rest of the layer.
    from gpiozero.pins.pi import PiBoardInfo

    info = PiBoardInfo.from_revision(_REFERENCE_REVISION)
    pins: list[HeaderPin] = []
    for number, pin in sorted(info.headers["J8"].pins.items()):
        name = str(pin.name)
        bcm = int(name[4:]) if name.startswith("GPIO") else None
        caps = frozenset(str(i) for i in pin.interfaces if i not in ("", "gpio"))
        pins.append(HeaderPin(int(number), name, bcm, caps))
    return tuple(pins)


@cache
def _by_bcm() -> dict[int, HeaderPin]:
    return {p.bcm: p for p in header_pins() if p.bcm is not None}


def physical_pin(bcm: int) -> int:
    """The physical header pin (1–40) of a BCM GPIO number."""
    try:
        return _by_bcm()[bcm].physical
    except KeyError:
        raise HeaderError(
            f"GPIO {bcm} is not on the 40-pin header; use a BCM number from 0 to 27"
        ) from None


def bcm_pin(physical: int) -> int | None:
    """The BCM number of a physical pin, or ``None`` for a power or ground pin."""
    for pin in header_pins():
        if pin.physical == physical:
            return pin.bcm
    raise HeaderError(f"the header has pins 1 to 40, not {physical}")


def pins_named(name: str) -> tuple[int, ...]:
    """The physical pins called ``name`` (``"GND"``, ``"3V3"``, ``"5V"``)."""
    return tuple(p.physical for p in header_pins() if p.name == name)


def can_pwm(bcm: int) -> bool:
    """Whether the GPIO can carry a hardware PWM channel."""
    pin = _by_bcm().get(bcm)
    return pin is not None and "pwm" in pin.capabilities


def bus_role(bcm: int) -> str | None:
    """What the pin is for when its interface is on (``"I2C1 SDA"``), if anything."""
    return _ROLES.get(bcm)
