"""The buzzer and the status LED: short sound patterns and LED states.

The buzzer is an active one (it sounds at its own pitch when powered), switched
through an NPN transistor by gpiozero's on/off ``Buzzer``: a sound is a pattern of
beeps and gaps, not of tones (docs/wiring.md, "Buzzer and status LED").

Sounds play on one long-lived worker thread, so asking for one returns at once
and never starts a thread. A sound asked for while another plays cuts it short.
Built ``deferred``, sounds wait for :meth:`Signals.release`, which the daemon and
the simulation call after each step of the loop: the beep for a move then starts
once its frame has been handed to the OLED, never competing with drawing it.
The LED's blinking runs on gpiozero's own background thread.
"""

from __future__ import annotations

import threading
from typing import Any, Literal, get_args

from msgspec import Struct

LedState = Literal["off", "ok", "busy", "fault"]
LED_STATES: tuple[str, ...] = get_args(LedState)

Sound = Literal["accepted", "rejected", "fix needed", "game over"]
SOUNDS: tuple[str, ...] = get_args(Sound)

Pattern = tuple[tuple[float, float], ...]
"""(seconds on, seconds off) for each beep of a sound."""


class SignalTiming(Struct, frozen=True):
    """How long each beep, gap and blink lasts, in seconds."""

    beep_s: float = 0.06
    gap_s: float = 0.08
    attention_s: float = 0.25
    game_over_s: float = 0.6
    blink_s: float = 0.5
    fast_blink_s: float = 0.1

    def pattern(self, sound: Sound) -> Pattern:
        """The beeps of ``sound``: one short for accepted, two short for rejected,
        three long for a fix needed, two short and a very long one for game over."""
        short = (self.beep_s, self.gap_s)
        if sound == "accepted":
            return (short,)
        if sound == "rejected":
            return (short, short)
        if sound == "fix needed":
            return ((self.attention_s, self.gap_s),) * 3
        return (short, short, (self.game_over_s, self.gap_s))


class Signals:
    """Beeps and LED states; either device may be absent from the profile."""

    def __init__(
        self,
        buzzer_pin: int | None,
        led_pin: int | None,
        *,
        pin_factory: Any,
        timing: SignalTiming | None = None,
        deferred: bool = False,
    ) -> None:
        # Imported here: only a board with a buzzer or an LED needs gpiozero.
        from gpiozero import LED, Buzzer

        self.timing = timing or SignalTiming()
        self.deferred = deferred
        self._buzzer: Any = None
        self._led: Any = None
        self._led_state: LedState = "off"
        self._changed = threading.Condition()
        self._asked: Sound | None = None
        """The sound the worker is to play next."""
        self._held: Sound | None = None
        """In deferred mode, the sound waiting for release()."""
        self._asks = 0
        """How many sounds were handed to the worker: a new one cuts the one playing."""
        self._playing = False
        self._closing = False
        self._worker: threading.Thread | None = None
        self.played: list[Sound] = []
        """Every sound the worker started, in order (for tests and logs)."""
        try:
            if buzzer_pin is not None:
                self._buzzer = Buzzer(buzzer_pin, pin_factory=pin_factory)
            if led_pin is not None:
                self._led = LED(led_pin, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    # -- sounds -----------------------------------------------------------------
    def accepted(self) -> None:
        """One short beep: the move or answer was taken."""
        self.play("accepted")

    def rejected(self) -> None:
        """Two short beeps: the move was refused."""
        self.play("rejected")

    def fix_needed(self) -> None:
        """Three long beeps: look at the display, something on the board needs fixing."""
        self.play("fix needed")

    def attention(self) -> None:
        """The same as :meth:`fix_needed`."""
        self.play("fix needed")

    def game_over(self) -> None:
        """Two short beeps and a long one: the game has ended."""
        self.play("game over")

    def play(self, sound: Sound) -> None:
        """Play ``sound`` (one of :data:`SOUNDS`), cutting short one still playing."""
        if sound not in SOUNDS:
            raise ValueError(f"unknown sound {sound!r}: use one of {', '.join(SOUNDS)}")
        if self._buzzer is None:
            return
        if self.deferred:
            self._held = sound
        else:
            self._hand_over(sound)

    @property
    def held(self) -> Sound | None:
        """In deferred mode, the sound waiting for :meth:`release`."""
        return self._held

    def release(self) -> None:
        """In deferred mode, play the sound asked for since the last release, if any."""
        sound, self._held = self._held, None
        if sound is not None and self._buzzer is not None:
            self._hand_over(sound)

    def _hand_over(self, sound: Sound) -> None:
        with self._changed:
            if self._closing:
                return
            self._asked = sound
            self._asks += 1
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="buzzer", daemon=True)
                self._worker.start()
            self._changed.notify_all()

    def _work(self) -> None:
        buzzer = self._buzzer
        with self._changed:
            while True:
                self._changed.wait_for(lambda: self._asked is not None or self._closing)
                if self._closing:
                    return
                sound, self._asked = self._asked, None
                assert sound is not None
                ask = self._asks
                self._playing = True
                self.played.append(sound)

                def cut(ask: int = ask) -> bool:
                    return self._asks != ask or self._closing

                for on_s, off_s in self.timing.pattern(sound):
                    buzzer.on()
                    stopped = self._changed.wait_for(cut, on_s)
                    buzzer.off()
                    if stopped or self._changed.wait_for(cut, off_s):
                        break
                self._playing = False
                self._changed.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no sound is playing or handed over; False if one still is."""
        with self._changed:
            return self._changed.wait_for(
                lambda: (not self._playing and self._asked is None) or self._closing, timeout
            )

    # -- the LED ----------------------------------------------------------------
    def connected(self) -> None:
        """Steady light: the board is connected and play can go on."""
        self.led_status("ok")

    def waiting_for_fix(self) -> None:
        """Slow blink: the board must be fixed before play goes on."""
        self.led_status("busy")

    def error(self) -> None:
        """Fast blink: something is wrong (the board is unplugged, a device failed)."""
        self.led_status("fault")

    @property
    def led_state(self) -> LedState:
        return self._led_state

    def led_status(self, state: LedState) -> None:
        """Show ``state`` on the LED: ok is steady, busy blinks, fault blinks fast."""
        if state not in LED_STATES:
            raise ValueError(f"unknown LED state {state!r}: use one of {', '.join(LED_STATES)}")
        if state == self._led_state and self._led is not None and state != "off":
            return
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

    def close(self) -> None:
        """Stop every pattern, switch both off and release the pins; closing twice is harmless."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        if self._worker is not None:
            self._worker.join()
            self._worker = None
        for device in (self._buzzer, self._led):
            if device is not None:
                device.off()
                device.close()
        self._buzzer = None
        self._led = None
