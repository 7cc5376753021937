"""The button station: gpiozero buttons reporting short and long presses on release."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from hardware.board import ButtonEvent
from hardware.clock import Clock, FakeClock
from wiring.profile import ButtonWiring

if TYPE_CHECKING:
    from gpiozero import Button
    from gpiozero.pins.mock import MockFactory

__all__ = ["ButtonEvent", "ButtonStation", "SimButtons"]


def _check_name(wiring: ButtonWiring, name: str) -> int:
    try:
        return wiring.pins[name]
    except KeyError:
        raise ValueError(
            f"there is no button {name!r}; the buttons are: {', '.join(wiring.pins)}"
        ) from None


class ButtonStation:
    """The buttons of a profile, each a gpiozero ``Button`` wired to ground.

    A press is reported when the button is released, so its length is known:
    long when it was held for at least ``wiring.hold_time`` by ``clock``.
    ``on_event`` is called from gpiozero's callback thread and should only
    queue the event.
    """

    def __init__(
        self,
        wiring: ButtonWiring,
        *,
        pin_factory: Any,
        clock: Clock,
        on_event: Callable[[ButtonEvent], None],
    ) -> None:
        self._hold_time = wiring.hold_time
        self._clock = clock
        self._on_event = on_event
        # gpiozero is imported when a station is built, not with the events module:
        # what only reads or replays games never loads it.
        from gpiozero import Button

        self._lock = threading.Lock()
        self._pressed_at: dict[str, float] = {}
        self._buttons: dict[str, Button] = {}
        try:
            for name, pin in wiring.pins.items():
                button = Button(
                    pin, pull_up=True, bounce_time=wiring.bounce_time, pin_factory=pin_factory
                )
                self._buttons[name] = button
                button.when_pressed = partial(self._pressed, name)
                button.when_released = partial(self._released, name)
        except BaseException:
            self.close()
            raise

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._buttons)

    def _pressed(self, name: str) -> None:
        with self._lock:
            self._pressed_at[name] = self._clock.now()

    def _released(self, name: str) -> None:
        with self._lock:
            since = self._pressed_at.pop(name, None)
        # A release with no press seen (held down at start-up) is no answer.
        if since is not None:
            held = self._clock.now() - since
            self._on_event(ButtonEvent(name, long=held >= self._hold_time))

    def close(self) -> None:
        """Release the button pins."""
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()


class SimButtons:
    """Fingers for the simulation: press buttons by driving their mock pins."""

    def __init__(self, factory: MockFactory, wiring: ButtonWiring, clock: FakeClock) -> None:
        self._factory = factory
        self._wiring = wiring
        self._clock = clock

    def _pin(self, name: str) -> Any:
        return self._factory.pin(_check_name(self._wiring, name))

    def press(self, name: str) -> None:
        """A short press: the pin goes low and straight back high."""
        pin = self._pin(name)
        pin.drive_low()
        pin.drive_high()

    def hold(self, name: str, seconds: float) -> None:
        """Hold the button down while the clock moves ``seconds``, then release."""
        if seconds < 0:
            raise ValueError(f"a button cannot be held for {seconds} s")
        pin = self._pin(name)
        pin.drive_low()
        self._clock.advance(seconds)
        pin.drive_high()
