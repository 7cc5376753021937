"""The host's LED device on a serial board: only the LEDs that changed go out, a full
frame after a (re)connect or a chain found wrong, a lost message sent again; with the
real firmware behind a pty showing the result."""

from __future__ import annotations

from collections.abc import Iterator

import msgspec
import pytest

from firmware_bridge.link.board import SerialSensorBoard
from firmware_bridge.link.leds import CHECK_S, RESEND_S, SerialLights, check_chain
from firmware_bridge.link.messages import LedAck, LedRun, LedSet, Message
from firmware_bridge.runtime.lightsink import NoLights
from firmware_bridge.runtime.table import light_sink
from firmware_bridge.screen import palette
from firmware_bridge.sim.pico.simboard import SimulatedSerialBoard
from hardware.clock import FakeClock
from wiring.loader import load_profile
from wiring.profile import LedChain, SerialWiring

ROWS, COLUMNS = 3, 4
CELLS = [f"{'abcd'[c]}{r + 1}" for r in range(ROWS) for c in range(COLUMNS)]
# A serpentine chain: along row 1, back along row 2, along row 3.
CHAIN = tuple(CELLS[0:4] + CELLS[4:8][::-1] + CELLS[8:12])
LEDS = LedChain(pin=15, order="serpentine", chain=CHAIN, brightness=0.5, budget_ma=500)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


@pytest.fixture
def sim(clock: FakeClock) -> Iterator[SimulatedSerialBoard]:
    with SimulatedSerialBoard(ROWS, COLUMNS, "occupancy", clock, cells=CELLS) as board:
        yield board


class Rig:
    """The simulated board, the host's board and lights, and every LED message sent."""

    def __init__(self, sim: SimulatedSerialBoard, clock: FakeClock) -> None:
        wiring = SerialWiring(port=sim.port_name, rows=ROWS, columns=COLUMNS)
        self.sim = sim
        self.clock = clock
        self.host = SerialSensorBoard(wiring, CELLS, clock=clock, settle_window_s=0.15)
        self.lights = SerialLights(self.host, LEDS, clock)
        self.sent: list[LedSet] = []
        self.drop = 0
        send = self.host.send

        def spy(now: float, message: Message) -> bool:
            if isinstance(message, LedSet):
                if self.drop:
                    self.drop -= 1
                    return True  # lost on the line
                self.sent.append(message)
            return send(now, message)

        self.host.send = spy  # type: ignore[method-assign]

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / 0.01)):
            self.clock.advance(0.01)
            self.sim.step()
            self.host.poll(self.clock.now())

    def take(self) -> set[int]:
        """The LEDs the messages sent since the last call set."""
        indexes = {
            i for m in self.sent for run in m.runs for i in range(run.first, run.first + run.count)
        }
        self.sent.clear()
        return indexes

    def scaled(self, name: str) -> tuple[int, int, int]:
        r, g, b = palette.rgb(name)
        return (round(r / 2), round(g / 2), round(b / 2))


@pytest.fixture
def rig(sim: SimulatedSerialBoard, clock: FakeClock) -> Iterator[Rig]:
    rig = Rig(sim, clock)
    rig.run(0.3)
    yield rig
    rig.host.close()


def test_the_chain_shows_the_lit_cells_and_only_changes_go_out(rig: Rig) -> None:
    # First use: every LED goes out, dark ones included.
    assert rig.take() == set(range(12))
    rig.lights.show_lights({"a1": palette.LIFT_NOW, "b2": palette.TO})
    rig.run(0.05)
    assert rig.sim.lights(CHAIN) == {"a1": rig.scaled("lift-now"), "b2": rig.scaled("to")}
    # b2 is the 7th LED: row 2 runs back from d2.
    assert rig.take() == {0, 6}
    rig.lights.show_lights({"b2": palette.TO, "c3": palette.HINT})
    rig.run(0.05)
    assert rig.take() == {0, 10}
    assert rig.sim.lights(CHAIN) == {"b2": rig.scaled("to"), "c3": rig.scaled("hint")}
    rig.run(0.5)
    assert rig.take() == set()  # nothing changed, nothing sent
    assert rig.lights.share == 100


def test_a_reconnect_sends_a_full_frame(rig: Rig) -> None:
    rig.lights.show_lights({"d3": palette.SPOT})
    rig.run(0.1)
    rig.take()
    rig.sim.unplug()
    rig.run(0.2)
    rig.sim.replug()
    rig.run(1.5)
    assert rig.take() == set(range(12))
    assert rig.sim.lights(CHAIN) == {"d3": rig.scaled("spot")}


def test_a_lost_message_is_sent_again(rig: Rig) -> None:
    rig.take()  # the first frame
    rig.drop = 1
    rig.lights.show_lights({"c1": palette.DESTROYED})
    rig.run(RESEND_S - 0.05)
    assert rig.sim.lights(CHAIN) == {}  # lost; not sent again before its ack is due
    assert rig.take() == set()
    rig.run(0.1)
    assert rig.take() == {2}
    assert rig.sim.lights(CHAIN) == {"c1": rig.scaled("destroyed")}


def test_a_chain_that_is_not_as_believed_gets_a_full_frame(rig: Rig) -> None:
    rig.lights.show_lights({"a3": palette.PLACE_NOW})
    rig.run(0.1)
    rig.take()
    # The Pico restarted unnoticed, say: its chain went dark.
    chain = rig.sim.firmware.leds
    chain.apply([(0, 12, 0, 0, 0)])
    chain.show()
    rig.run(CHECK_S + 0.1)
    assert rig.take() == set(range(12))
    assert rig.sim.lights(CHAIN) == {"a3": rig.scaled("place-now")}


def test_a_chain_the_firmware_could_not_drive_is_refused_with_the_fix() -> None:
    with pytest.raises(ValueError, match="budget_ma is 10 mA but 12 LEDs draw 12 mA dark"):
        check_chain(msgspec.structs.replace(LEDS, budget_ma=10))
    with pytest.raises(ValueError, match="GP30: the Pico has GP0 to GP29"):
        check_chain(msgspec.structs.replace(LEDS, pin=30))
    with pytest.raises(ValueError, match="lists a cell twice"):
        check_chain(msgspec.structs.replace(LEDS, chain=("a1", "a1")))


def test_a_cell_without_an_led_is_left_out(rig: Rig) -> None:
    rig.lights.show_lights({"z9": palette.SPOT, "a1": palette.SPOT})
    rig.run(0.05)
    assert rig.sim.lights(CHAIN) == {"a1": rig.scaled("spot")}


def test_boards_without_a_chain_get_no_lights(clock: FakeClock) -> None:
    gpio = load_profile("double-take-gpio")
    assert isinstance(light_sink(gpio, object(), clock), NoLights)  # type: ignore[arg-type]
    with_leds = msgspec.structs.replace(gpio, leds=LEDS)
    assert isinstance(light_sink(with_leds, object(), clock), NoLights)  # type: ignore[arg-type]


def test_a_lost_ack_has_the_leds_sent_again_and_nothing_more(rig: Rig) -> None:
    rig.take()  # the first frame
    on_ack = rig.lights.on_ack
    lost: list[object] = []

    def lose_first(ack: LedAck) -> None:
        if not lost:
            lost.append(ack)  # the board showed it; its answer was lost on the line
            return
        on_ack(ack)

    rig.lights.on_ack = lose_first  # type: ignore[method-assign]
    rig.lights.show_lights({"b3": palette.LAST})
    rig.run(RESEND_S + 0.1)
    assert len(lost) == 1
    # Sent, then sent again once its ack was overdue.
    assert [m.runs for m in rig.sent] == [(LedRun(9, 1, rig.scaled("last")),)] * 2
    assert rig.sim.lights(CHAIN) == {"b3": rig.scaled("last")}
    assert rig.lights.shown[9] == rig.scaled("last")
    rig.take()
    rig.run(1.0)
    assert rig.take() == set()
