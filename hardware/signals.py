"""The buzzer and the status LED: short sound and light patterns, played in the background."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from gpiozero import LED, Buzzer
from gpiozero.exc import ZombieThread

LedState = Literal["off", "ok", "busy", "fault"]
LED_STATES: tuple[str, ...] = get_args(LedState)


@dataclass(frozen=True)
class SignalTiming:
    """How long each beep, gap and blink lasts, in seconds."""

    beep_s: float = 0.06
    gap_s: float = 0.08
    attention_s: float = 0.25
    blink_s: float = 0.5
    fast_blink_s: float = 0.1


class Signals:
    """Beeps and LED states; either device may be absent from the profile.

    Patterns run on gpiozero's background threads, so every call returns at
    once; a new pattern replaces one still playing.
    """

    def __init__(
        self,
        buzzer_pin: int | None,
        led_pin: int | None,
        *,
        pin_factory: Any,
        timing: SignalTiming | None = None,
    ) -> None:
        self.timing = timing or SignalTiming()
        self._buzzer: Buzzer | None = None
        self._led: LED | None = None
        self._led_state: LedState = "off"
        try:
            if buzzer_pin is not None:
                self._buzzer = Buzzer(buzzer_pin, pin_factory=pin_factory)
            if led_pin is not None:
                self._led = LED(led_pin, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    def _beep(self, on_s: float, n: int) -> None:
        if self._buzzer is not None:
            self._buzzer.beep(on_time=on_s, off_time=self.timing.gap_s, n=n, background=True)

    def accepted(self) -> None:
        """One short beep: the move or answer was taken."""
        self._beep(self.timing.beep_s, 1)

    def rejected(self) -> None:
        """Two short beeps: the move was refused."""
        self._beep(self.timing.beep_s, 2)

    def attention(self) -> None:
        """Three long beeps: look at the display, something needs fixing."""
        self._beep(self.timing.attention_s, 3)

    @property
    def led_state(self) -> LedState:
        return self._led_state

    def led_status(self, state: LedState) -> None:
        """Show ``state`` on the LED: ok is steady, busy blinks, fault blinks fast."""
        if state not in LED_STATES:
            raise ValueError(f"unknown LED state {state!r}: use one of {', '.join(LED_STATES)}")
        self._led_state = state
        if self._led is None:
            return
        if state == "off":
            self._led.off()
        elif state == "ok":
            self._led.on()
        else:
            period = self.timing.blink_s if state == "busy" else self.timing.fast_blink_s
            self._led.blink(on_time=period, off_time=period, background=True)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the beep pattern playing to end; False if it is still playing."""
        # gpiozero keeps the pattern's thread on the device and offers no
        # public way to wait for a background pattern.
        thread = getattr(self._buzzer, "_blink_thread", None)
        if thread is None:
            return True
        try:
            thread.join(timeout)
        except ZombieThread:
            return False
        return True

    def close(self) -> None:
        """Stop every pattern, switch both off and release the pins."""
        for device in (self._buzzer, self._led):
            if device is not None:
                device.off()
                device.close()
        self._buzzer = None
        self._led = None
