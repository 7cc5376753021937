from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from hardware.signals import Signals, SignalTiming

BUZZER = 18
LED_PIN = 25
# Patterns a thousand times faster than on the board, so the tests finish at once.
FAST = SignalTiming(
    beep_s=0.001,
    gap_s=0.001,
    attention_s=0.001,
    game_over_s=0.001,
    blink_s=0.001,
    fast_blink_s=0.001,
)
# Long enough that no test sees a blink pattern move on by itself.
FROZEN = SignalTiming(blink_s=3600, fast_blink_s=3600)


class WatchedPin(MockPin):  # type: ignore[misc]
    """A mock pin that lets a test wait for a number of level changes."""

    def __init__(self, factory: MockFactory, info: object) -> None:
        self.changed = threading.Condition()
        self.threads: list[threading.Thread] = []
        super().__init__(factory, info)

    def _change_state(self, value: bool) -> bool:
        with self.changed:
            result: bool = super()._change_state(value)
            self.threads.append(threading.current_thread())
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


def test_game_over_is_two_short_beeps_and_a_long_one(
    mock_factory: MockFactory, pins: tuple[WatchedPin, WatchedPin]
) -> None:
    timing = SignalTiming(beep_s=0.001, gap_s=0.001, game_over_s=0.05)
    signals = Signals(BUZZER, None, pin_factory=mock_factory, timing=timing)
    pins[0].clear_states()
    signals.game_over()
    assert signals.wait(timeout=10)
    assert levels(pins[0]) == [False] + [True, False] * 3
    ons, offs = pins[0].states[1::2], pins[0].states[2::2]
    lengths = [off.timestamp - on.timestamp for on, off in zip(ons, offs, strict=True)]
    assert lengths[2] > lengths[0] and lengths[2] > lengths[1]
    signals.close()


def test_fix_needed_is_attention(signals: Signals, pins: tuple[WatchedPin, WatchedPin]) -> None:
    signals.fix_needed()
    assert signals.wait(timeout=10)
    signals.attention()
    assert signals.wait(timeout=10)
    assert signals.played == ["fix needed", "fix needed"]
    assert levels(pins[0]) == [False] + [True, False] * 6


def test_every_sound_plays_on_one_long_lived_worker_thread(
    signals: Signals, pins: tuple[WatchedPin, WatchedPin]
) -> None:
    before = threading.active_count()
    pins[0].threads.clear()
    for play in (signals.accepted, signals.rejected, signals.fix_needed, signals.game_over):
        play()
        assert signals.wait(timeout=10)
    assert signals.played == ["accepted", "rejected", "fix needed", "game over"]
    players = set(pins[0].threads)
    assert len(players) == 1
    assert players != {threading.main_thread()}
    assert threading.active_count() <= before + 1


def test_deferred_sounds_wait_for_release(
    mock_factory: MockFactory, pins: tuple[WatchedPin, WatchedPin]
) -> None:
    signals = Signals(BUZZER, LED_PIN, pin_factory=mock_factory, timing=FAST, deferred=True)
    pins[0].clear_states()
    signals.accepted()
    # Nothing reaches the worker before the release: no thread, no pin change.
    assert levels(pins[0]) == [False]
    assert signals.played == []
    signals.rejected()
    signals.release()
    assert signals.wait(timeout=10)
    assert signals.played == ["rejected"]
    assert levels(pins[0]) == [False, True, False, True, False]
    signals.release()
    assert signals.wait(timeout=10)
    assert signals.played == ["rejected"]
    signals.close()


def test_a_new_sound_cuts_the_one_playing_short(
    mock_factory: MockFactory, pins: tuple[WatchedPin, WatchedPin]
) -> None:
    slow = SignalTiming(beep_s=0.001, gap_s=0.001, attention_s=3600)
    signals = Signals(BUZZER, None, pin_factory=mock_factory, timing=slow)
    pins[0].clear_states()
    signals.fix_needed()
    assert pins[0].wait_for_changes(1)
    signals.accepted()
    assert signals.wait(timeout=10)
    assert signals.played == ["fix needed", "accepted"]
    assert levels(pins[0]) == [False, True, False, True, False]
    signals.close()


def test_unknown_sound_is_refused_with_the_choices(signals: Signals) -> None:
    with pytest.raises(ValueError, match=r"'fanfare'.*accepted, rejected, fix needed, game over"):
        signals.play("fanfare")  # type: ignore[arg-type]


def test_led_states_by_their_meaning(
    mock_factory: MockFactory, pins: tuple[WatchedPin, WatchedPin]
) -> None:
    signals = Signals(BUZZER, LED_PIN, pin_factory=mock_factory, timing=FROZEN)
    signals.connected()
    assert signals.led_state == "ok" and pins[1].state
    signals.waiting_for_fix()
    assert signals.led_state == "busy"
    signals.error()
    assert signals.led_state == "fault"
    signals.connected()
    assert pins[1].state
    signals.close()
    assert not pins[1].state
