from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.errors import HardwareError, NotAPi, PinLibraryMissing
from hardware.pins import mock_pin_factory, pi_model, real_pin_factory


def model_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "model"
    path.write_bytes(text.encode() + b"\0")
    return path


def test_pi_model_reads_the_device_tree_name(tmp_path: Path) -> None:
    path = model_file(tmp_path, "Raspberry Pi 4 Model B Rev 1.4")
    assert pi_model(path) == "Raspberry Pi 4 Model B Rev 1.4"


def test_other_boards_are_not_a_pi(tmp_path: Path) -> None:
    assert pi_model(model_file(tmp_path, "Radxa ROCK 5B")) is None
    assert pi_model(tmp_path / "missing") is None


def test_real_pins_on_a_machine_without_a_device_tree_raise_not_a_pi(tmp_path: Path) -> None:
    with pytest.raises(NotAPi, match=r"not a Raspberry Pi.*tabletop sim"):
        real_pin_factory(model_path=tmp_path / "missing")


def test_not_a_pi_is_a_hardware_error_and_a_runtime_error(tmp_path: Path) -> None:
    with pytest.raises(HardwareError):
        real_pin_factory(model_path=model_file(tmp_path, "Generic x86 PC"))
    assert issubclass(NotAPi, RuntimeError)


@pytest.mark.skipif(
    importlib.util.find_spec("lgpio") is not None or importlib.util.find_spec("RPi") is not None,
    reason="a GPIO library is installed here",
)
def test_pi_without_gpio_library_says_what_to_install(tmp_path: Path) -> None:
    path = model_file(tmp_path, "Raspberry Pi 5 Model B Rev 1.0")
    with pytest.raises(PinLibraryMissing, match=r"lgpio.*pip install 'tabletop\[pi\]'"):
        real_pin_factory(model_path=path)


def test_mock_factory_is_fresh_each_time() -> None:
    first, second = mock_pin_factory(), mock_pin_factory()
    assert isinstance(first, MockFactory)
    assert first is not second
    first.close()
    second.close()


@pytest.mark.hardware
def test_real_factory_opens_on_the_pi() -> None:
    factory = real_pin_factory()
    factory.close()
