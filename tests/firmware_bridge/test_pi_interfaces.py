"""The Pi's interfaces over a profile's pins: read from the boot files, said plainly."""

from __future__ import annotations

from pathlib import Path

from firmware_bridge.apps.pi_interfaces import check_interfaces
from wiring.loader import load_profile

PINS = load_profile("double-take-gpio").used_pins()


def pi(tmp_path: Path, config: str, cmdline: str) -> Path:
    (tmp_path / "boot/firmware").mkdir(parents=True)
    (tmp_path / "boot/firmware/config.txt").write_text(config)
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/cmdline").write_text(cmdline)
    return tmp_path


def test_double_take_gpio_uses_the_spi_uart_and_one_wire_pins() -> None:
    assert {4, 7, 8, 9, 10, 11, 14, 15} <= PINS.keys()


def test_a_pi_set_up_as_the_wiring_guide_says_has_nothing_to_report(tmp_path: Path) -> None:
    root = pi(tmp_path, "dtparam=i2c_arm=on\n#dtparam=spi=on\n", "console=tty1 root=/dev/sda2")
    report = check_interfaces(PINS, root)
    assert report.problems == [] and report.unchecked == []


def test_spi_a_serial_console_and_one_wire_left_on_are_each_named_with_the_fix(
    tmp_path: Path,
) -> None:
    root = pi(
        tmp_path,
        "dtparam=i2c_arm=on,spi=on\ndtoverlay=w1-gpio\n",
        "console=serial0,115200 console=tty1 root=/dev/sda2",
    )
    spi, one_wire, console = check_interfaces(PINS, root).problems
    assert "SPI is on (dtparam=spi=on in /boot/firmware/config.txt)" in spi
    assert "GPIO 10 (button roll)" in spi and "sudo raspi-config nonint do_spi 1" in spi
    assert "1-Wire is on (dtoverlay=w1-gpio" in one_wire and "GPIO 4" in one_wire
    assert "console=serial0" in console and "do_serial_cons 1" in console


def test_a_later_line_turning_spi_off_wins(tmp_path: Path) -> None:
    root = pi(tmp_path, "dtparam=spi=on\ndtparam=spi=off\n", "console=tty1")
    assert check_interfaces(PINS, root).problems == []


def test_what_cannot_be_read_is_said_and_a_board_off_those_pins_is_not_checked(
    tmp_path: Path,
) -> None:
    report = check_interfaces(PINS, tmp_path)
    assert len(report.unchecked) == 2 and "docs/wiring.md" in report.unchecked[0]
    assert check_interfaces({17: "matrix row 0"}, tmp_path).unchecked == []
