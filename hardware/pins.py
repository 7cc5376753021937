"""Pin factories: the Pi's own GPIO, or mock pins for the simulation, always chosen explicitly."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from hardware.errors import HardwareError, PinLibraryMissing
from hardware.pi import DEVICE_TREE_MODEL, pi_model, require_pi

__all__ = ["DEVICE_TREE_MODEL", "SimPin", "mock_pin_factory", "pi_model", "real_pin_factory"]


def _lgpio() -> Any:
    from gpiozero.pins.lgpio import LGPIOFactory

    return LGPIOFactory()


def _rpigpio() -> Any:
    from gpiozero.pins.rpigpio import RPiGPIOFactory

    return RPiGPIOFactory()


def real_pin_factory(*, model_path: Path = DEVICE_TREE_MODEL) -> Any:
    """gpiozero's factory for this Pi's GPIO: lgpio, else RPi.GPIO.

    Raises :class:`NotAPi` on any other machine, :class:`PinLibraryMissing`
    when neither library is installed, and :class:`HardwareError` when the
    GPIO chip cannot be opened.
    """
    require_pi(model_path)
    missing: list[str] = []
    failures: list[str] = []
    for name, make in (("lgpio", _lgpio), ("RPi.GPIO", _rpigpio)):
        try:
            return make()
        except ImportError as exc:
            missing.append(f"{name} ({exc})")
        except PermissionError as exc:
            raise HardwareError(
                f"no permission to open the GPIO chip with {name}: add this user to the gpio "
                "group (sudo usermod -aG gpio $USER), then log out and in again"
            ) from exc
        # The libraries raise their own exception types (lgpio.error, RuntimeError, ...).
        except Exception as exc:
            failures.append(f"{name}: {exc}")
    if failures:
        raise HardwareError(
            "the GPIO chip could not be opened (" + "; ".join(failures) + "): check that no "
            "other program holds the pins and that /dev/gpiochip* exists"
        )
    raise PinLibraryMissing(
        "no GPIO library for gpiozero is installed (" + "; ".join(missing) + "): install "
        "lgpio with pip install 'tabletop[pi]' or sudo apt install python3-lgpio"
    )


PIN_HISTORY = 64
"""How many level changes a simulated pin remembers."""


class SimPin(MockPin):  # type: ignore[misc]
    """gpiozero's mock pin, remembering only its last ``PIN_HISTORY`` level changes.

    gpiozero's own keeps every change for tests to inspect: a simulated matrix
    scanned at 50 Hz makes some 60,000 a game, megabytes that nothing reads.
    """

    states: deque[Any]

    def clear_states(self) -> None:
        super().clear_states()
        self.states = deque(self.states, maxlen=PIN_HISTORY)


def mock_pin_factory() -> MockFactory:
    """A fresh gpiozero ``MockFactory`` for the simulated board, of :class:`SimPin` pins."""
    return MockFactory(pin_class=SimPin)
