from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

from hardware.buttons import ButtonEvent, ButtonStation, SimButtons
from hardware.clock import FakeClock
from wiring.profile import ButtonWiring

FULL = ButtonWiring(pins={"roll": 17, "left": 27, "right": 22, "ok": 23, "back": 24})
# Most tests need two buttons; each gpiozero Button takes up to 0.1 s to close.
WIRING = ButtonWiring(pins={"ok": 23, "back": 24})


class Rig:
    def __init__(self, factory: MockFactory, wiring: ButtonWiring = WIRING) -> None:
        self.clock = FakeClock()
        self.events: list[ButtonEvent] = []
        self.station = ButtonStation(
            wiring, pin_factory=factory, clock=self.clock, on_event=self.events.append
        )
        self.fingers = SimButtons(factory, wiring, self.clock)


@pytest.fixture
def rig(mock_factory: MockFactory) -> Iterator[Rig]:
    rig = Rig(mock_factory)
    yield rig
    rig.station.close()


def test_short_press_is_reported_once_as_short(rig: Rig) -> None:
    rig.fingers.press("ok")
    assert rig.events == [ButtonEvent("ok", long=False)]


def test_hold_past_hold_time_is_reported_as_long(rig: Rig) -> None:
    rig.fingers.hold("back", 1.5)
    assert rig.events == [ButtonEvent("back", long=True)]


def test_hold_of_exactly_hold_time_is_long(rig: Rig) -> None:
    rig.fingers.hold("ok", WIRING.hold_time)
    assert rig.events == [ButtonEvent("ok", long=True)]


def test_hold_just_under_hold_time_is_short(rig: Rig) -> None:
    rig.fingers.hold("ok", WIRING.hold_time - 0.01)
    assert rig.events == [ButtonEvent("ok", long=False)]


def test_nothing_is_reported_until_release(rig: Rig, mock_factory: MockFactory) -> None:
    pin = mock_factory.pin(WIRING.pins["back"])
    pin.drive_low()
    rig.clock.advance(3.0)
    assert rig.events == []
    pin.drive_high()
    assert rig.events == [ButtonEvent("back", long=True)]


def test_each_button_reports_its_own_name(mock_factory: MockFactory) -> None:
    rig = Rig(mock_factory, FULL)
    for name in FULL.pins:
        rig.fingers.press(name)
    assert [e.name for e in rig.events] == list(FULL.pins)
    rig.station.close()


def test_unknown_button_is_refused_with_the_names(rig: Rig) -> None:
    with pytest.raises(ValueError, match=r"'start'.*ok, back"):
        rig.fingers.press("start")
    with pytest.raises(ValueError, match="'start'"):
        rig.fingers.hold("start", 2.0)


def test_negative_hold_is_refused(rig: Rig) -> None:
    with pytest.raises(ValueError, match="-1"):
        rig.fingers.hold("ok", -1)
    assert rig.events == []


def test_buttons_use_pull_ups(rig: Rig, mock_factory: MockFactory) -> None:
    assert all(mock_factory.pin(p).pull == "up" for p in WIRING.pins.values())


def test_closed_station_reports_nothing(rig: Rig) -> None:
    rig.station.close()
    rig.fingers.press("ok")
    assert rig.events == []


def test_shared_pin_is_refused_and_the_opened_buttons_released(
    mock_factory: MockFactory,
) -> None:
    wiring = ButtonWiring(pins={"ok": 23, "back": 23})
    with pytest.raises(GPIOPinInUse):
        ButtonStation(wiring, pin_factory=mock_factory, clock=FakeClock(), on_event=print)
    ButtonStation(
        ButtonWiring(pins={"ok": 23}), pin_factory=mock_factory, clock=FakeClock(), on_event=print
    ).close()
