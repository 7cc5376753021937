from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from hardware.signals import Signals, SignalTiming

BUZZER = 18
LED_PIN = 25
# Patterns a thousand times faster than on the board, so the tests finish at once.
FAST = SignalTiming(beep_s=0.001, gap_s=0.001, attention_s=0.001, blink_s=0.001, fast_blink_s=0.001)
# Long enough that no test sees a blink pattern move on by itself.
FROZEN = SignalTiming(blink_s=3600, fast_blink_s=3600)


class WatchedPin(MockPin):  # type: ignore[misc]
    """A mock pin that lets a test wait for a number of level changes."""

    def __init__(self, factory: MockFactory, info: object) -> None:
        self.changed = threading.Condition()
        super().__init__(factory, info)

    def _change_state(self, value: bool) -> bool:
        with self.changed:
            result: bool = super()._change_state(value)
            self.changed.notify_all()
        return result

    def wait_for_changes(self, count: int) -> bool:
        with self.changed:
            # The timeout only stops a broken test hanging; no timing is asserted.
            return self.changed.wait_for(lambda: len(self.states) > count, timeout=10)


def levels(pin: MockPin) -> list[bool]:
    return [bool(s.state) for s in pin.states]


@pytest.fixture
def pins(mock_factory: MockFactory) -> tuple[WatchedPin, WatchedPin]:
    buzzer = mock_factory.pin(BUZZER, pin_class=WatchedPin)
    led = mock_factory.pin(LED_PIN, pin_class=WatchedPin)
    return buzzer, led


@pytest.fixture
def signals(mock_factory: MockFactory, pins: tuple[WatchedPin, WatchedPin]) -> Iterator[Signals]:
    signals = Signals(BUZZER, LED_PIN, pin_factory=mock_factory, timing=FAST)
    for pin in pins:
        pin.clear_states()
    yield signals
    signals.close()


def test_accepted_is_one_beep(signals: Signals, pins: tuple[WatchedPin, WatchedPin]) -> None:
    signals.accepted()
    assert signals.wait(timeout=10)
    assert levels(pins[0]) == [False, True, False]


def test_rejected_is_two_beeps(signals: Signals, pins: tuple[WatchedPin, WatchedPin]) -> None:
    signals.rejected()
    assert signals.wait(timeout=10)
    assert levels(pins[0]) == [False, True, False, True, False]


def test_attention_is_three_beeps(signals: Signals, pins: tuple[WatchedPin, WatchedPin]) -> None:
    signals.attention()
    assert signals.wait(timeout=10)
    assert levels(pins[0]) == [False, True, False] * 1 + [True, False] * 2


def test_beeps_leave_the_led_alone(signals: Signals, pins: tuple[WatchedPin, WatchedPin]) -> None:
    signals.rejected()
    signals.wait(timeout=10)
    assert levels(pins[1]) == [False]


def test_ok_lights_the_led_steadily(signals: Signals, pins: tuple[WatchedPin, WatchedPin]) -> None:
    signals.led_status("ok")
    assert levels(pins[1]) == [False, True]
    assert signals.led_state == "ok"


@pytest.mark.parametrize("state", ["busy", "fault"])
def test_busy_and_fault_blink(
    state: str, signals: Signals, pins: tuple[WatchedPin, WatchedPin]
) -> None:
    signals.led_status(state)  # type: ignore[arg-type]
    assert pins[1].wait_for_changes(4)
    assert levels(pins[1])[:5] == [False, True, False, True, False]
    assert signals.led_state == state


def test_ok_after_blinking_stops_the_blink_lit(
    mock_factory: MockFactory, pins: tuple[WatchedPin, WatchedPin]
) -> None:
    signals = Signals(BUZZER, LED_PIN, pin_factory=mock_factory, timing=FROZEN)
    signals.led_status("fault")
    assert pins[1].wait_for_changes(1)
    signals.led_status("ok")
    assert pins[1].state
    signals.led_status("off")
    assert not pins[1].state
    signals.close()


def test_unknown_led_state_is_refused_with_the_choices(signals: Signals) -> None:
    with pytest.raises(ValueError, match=r"'blue'.*off, ok, busy, fault"):
        signals.led_status("blue")  # type: ignore[arg-type]


def test_missing_devices_are_silently_skipped(mock_factory: MockFactory) -> None:
    signals = Signals(None, None, pin_factory=mock_factory)
    signals.accepted()
    signals.led_status("busy")
    assert signals.wait(timeout=0)
    assert signals.led_state == "busy"
    signals.close()


def test_close_switches_the_buzzer_off_mid_pattern(
    mock_factory: MockFactory, pins: tuple[WatchedPin, WatchedPin]
) -> None:
    slow = SignalTiming(beep_s=3600, attention_s=3600)
    signals = Signals(BUZZER, LED_PIN, pin_factory=mock_factory, timing=slow)
    signals.attention()
    assert pins[0].wait_for_changes(1)
    assert not signals.wait(timeout=0.001)
    signals.close()
    assert not pins[0].state
