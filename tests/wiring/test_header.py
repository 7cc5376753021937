"""The 40-pin header map: BCM ↔ physical pins and what each pin can do."""

from __future__ import annotations

import pytest

from wiring.errors import HeaderError
from wiring.header import bcm_pin, bus_role, can_pwm, header_pins, physical_pin, pins_named


@pytest.mark.parametrize(
    ("bcm", "physical"),
    [(2, 3), (3, 5), (4, 7), (14, 8), (15, 10), (17, 11), (18, 12), (27, 13), (21, 40), (0, 27)],
)
def test_physical_pin_of_bcm(bcm: int, physical: int) -> None:
    assert physical_pin(bcm) == physical
    assert bcm_pin(physical) == bcm


def test_header_has_40_pins_and_28_gpios() -> None:
    pins = header_pins()
    assert [p.physical for p in pins] == list(range(1, 41))
    assert sorted(p.bcm for p in pins if p.bcm is not None) == list(range(28))


def test_power_and_ground_pins_have_no_bcm_number() -> None:
    assert pins_named("3V3") == (1, 17)
    assert pins_named("GND") == (6, 9, 14, 20, 25, 30, 34, 39)
    assert bcm_pin(6) is None


def test_pin_off_the_header_is_an_error() -> None:
    with pytest.raises(HeaderError, match="GPIO 28 is not on the 40-pin header"):
        physical_pin(28)
    with pytest.raises(ValueError, match="pins 1 to 40"):
        bcm_pin(41)


def test_hardware_pwm_pins() -> None:
    assert [b for b in range(28) if can_pwm(b)] == [12, 13, 18, 19]


def test_bus_roles_of_the_default_interfaces() -> None:
    assert bus_role(2) == "I2C1 SDA"
    assert bus_role(3) == "I2C1 SCL"
    assert bus_role(14) == "UART0 TXD"
    assert bus_role(10) == "SPI0 MOSI"
    assert bus_role(17) is None


def test_capabilities_come_from_gpiozero_board_data() -> None:
    by_bcm = {p.bcm: p for p in header_pins()}
    assert "i2c" in by_bcm[2].capabilities
    assert "uart" in by_bcm[14].capabilities
    assert "spi" in by_bcm[11].capabilities
