"""The LED chain: its messages split and round-trip, the firmware's current budget,
and the firmware (in CPython and in the MicroPython unix port) showing what the
host's LED messages set."""

from __future__ import annotations

import importlib
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.link.codec import LED_RUNS, decode, encode, led_parts
from firmware_bridge.link.decoder import LinkDecoder
from firmware_bridge.link.framing import MAX_PACKET
from firmware_bridge.link.messages import RGB, BoardError, LedAck, LedRun, LedSet
from firmware_bridge.sim.pico.fake_machine import FakeMachine, FakeNeoPixels, ShiftRegisterMatrix
from firmware_bridge.sim.pico.simboard import SimulatedSerialBoard
from tests.firmware_bridge.test_firmware_scan import ListPort

# The firmware is untyped MicroPython, outside mypy: imported by name.
app: Any = importlib.import_module("firmware_bridge.firmware.app")
leds: Any = importlib.import_module("firmware_bridge.firmware.leds")
scanners: Any = importlib.import_module("firmware_bridge.firmware.scanners")
wire: Any = importlib.import_module("firmware_bridge.firmware.wire")

CHAIN = 300
rgbs = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))


def flat(frame: list[RGB]) -> bytearray:
    return bytearray(level for rgb in frame for level in rgb)


# -- messages ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.integers(0, CHAIN - 1), rgbs, max_size=CHAIN))
def test_any_set_of_changes_round_trips_in_messages_that_fit(changes: dict[int, RGB]) -> None:
    chain = leds.Chain(FakeNeoPixels(FakeMachine()))
    chain.set_up(15, CHAIN, 60000)
    parts = led_parts(changes)
    for token, runs in enumerate(parts):
        message = LedSet(token, 15, CHAIN, 60000, runs)
        frame = encode(message, token)
        assert 1 <= len(runs) <= LED_RUNS
        assert len(frame) <= MAX_PACKET + 4
        assert decode(frame[1:-1]).message == message
        # The firmware reads the same runs from the payload the host wrote.
        fields = wire.led_set_fields(frame_payload(frame))
        assert fields is not None
        assert fields[1:4] == (15, CHAIN, 60000)
        assert fields[4] == [(r.first, r.count, *r.rgb) for r in runs]
        chain.apply(fields[4])
    # Only as many messages as the runs need: a full one before the last.
    assert all(len(runs) == LED_RUNS for runs in parts[:-1])
    expected = [changes.get(i, (0, 0, 0)) for i in range(CHAIN)]
    assert chain.colours == flat(expected)


def frame_payload(frame: bytes) -> bytes:
    packets = wire.Deframer().feed(frame)
    assert len(packets) == 1
    return bytes(packets[0][2])


def test_neighbours_of_one_colour_share_a_run_of_at_most_255() -> None:
    changes = dict.fromkeys(range(300), (0, 0, 0)) | {7: (9, 9, 9), 8: (9, 9, 9)}
    [runs] = led_parts(changes)
    assert runs == (
        LedRun(0, 7, (0, 0, 0)),
        LedRun(7, 2, (9, 9, 9)),
        LedRun(9, 255, (0, 0, 0)),
        LedRun(264, 36, (0, 0, 0)),
    )


# -- the current budget -----------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.lists(rgbs, min_size=1, max_size=CHAIN), st.integers(0, 20000))
def test_a_scaled_frame_stays_within_the_budget_and_one_within_it_is_unchanged(
    frame: list[RGB], budget: int
) -> None:
    pixels = flat(frame)
    scaled = leds.scale(pixels, budget)
    idle = len(frame) * leds.IDLE_MA
    assert len(scaled) == len(pixels)
    assert all(s <= p for s, p in zip(scaled, pixels, strict=True))
    if budget >= idle:
        assert leds.current_ma(scaled) <= budget
    else:
        assert not any(scaled)  # the LEDs' idle draw alone is over the budget
    if leds.current_ma(pixels) <= budget:
        assert scaled == pixels
        assert leds.share(pixels, budget) == 100


def test_the_current_model_is_the_datasheet_figures() -> None:
    white = flat([(255, 255, 255)] * 100)
    # 100 LEDs at full white: 100 x (3 x 20 mA + 1 mA idle).
    assert leds.current_ma(white) == 6100
    assert leds.current_ma(flat([(0, 0, 0)] * 100)) == 100
    scaled = leds.scale(white, 2000)
    assert 1950 < leds.current_ma(scaled) <= 2000  # levels rounded down
    assert set(scaled) == {scaled[0]}  # every LED by one factor
    assert leds.share(white, 2000) == 31


# -- the firmware -----------------------------------------------------------------------


def answers(port: ListPort) -> list[object]:
    """What the firmware sent since the last call, decoded."""
    return [e.message for e in LinkDecoder().feed(port.take())]


def led_rig() -> tuple[Any, FakeNeoPixels, ListPort]:
    machine = FakeMachine()
    ShiftRegisterMatrix(
        machine.bench, spi_bus=0, latch_pin=17, load_pin=20, rows=2, columns=2, active_low=True
    )
    shift = scanners.ShiftRegisterMatrix(
        machine.SPI(0), machine.Pin(17, 1), machine.Pin(20, 1), 2, 2, True
    )
    neopixels = FakeNeoPixels(machine)
    port = ListPort()
    fw = app.Firmware(
        port, scanners.MatrixScanner(shift, 30), 2, 2, "occupancy", leds=leds.Chain(neopixels)
    )
    fw.step(0)
    answers(port)
    return fw, neopixels, port


def test_the_firmware_shows_an_led_message_within_budget_and_acks_it() -> None:
    fw, neopixels, port = led_rig()
    runs = (LedRun(0, 2, (255, 255, 255)), LedRun(3, 1, (0, 0, 60)))
    port.incoming += encode(LedSet(7, 15, 4, 100, runs), 0)
    fw.step(10)
    shown = neopixels.shown()
    # 2 LEDs at white and one at 60 of blue draw 4 + 120 + 4.7 mA: scaled into 100 mA.
    assert leds.current_ma(flat(shown)) <= 100
    assert shown[2] == (0, 0, 0) and shown[0] == shown[1] and shown[0][0] > 150
    ack = answers(port)
    colours = flat([(255, 255, 255)] * 2 + [(0, 0, 0), (0, 0, 60)])
    assert ack == [LedAck(7, wire.crc16(colours), 76)]  # 76 % of the levels let through
    assert leds.share(colours, 100) == 76
    # Two messages in one pass: the chain is written once, each is answered.
    writes = neopixels.chain.writes  # type: ignore[union-attr]
    port.incoming += encode(LedSet(8, 15, 4, 100, (LedRun(0, 1, (0, 0, 0)),)), 1)
    port.incoming += encode(LedSet(9, 15, 4, 100, (LedRun(1, 1, (0, 0, 0)),)), 2)
    fw.step(20)
    assert [m.token for m in answers(port)] == [8, 9]  # type: ignore[attr-defined]
    assert neopixels.chain.writes == writes + 1  # type: ignore[union-attr]
    assert neopixels.shown() == [(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 60)]


def test_a_bad_led_message_is_counted_and_a_bad_chain_reported() -> None:
    fw, neopixels, port = led_rig()
    payload = bytes(encode(LedSet(1, 15, 4, 100, (LedRun(0, 1, (1, 2, 3)),)), 0))
    good = wire.Deframer().feed(payload)[0][2]
    port.incoming += wire.frame(wire.LED_SET, 0, good[:-1])  # a run one byte short
    fw.step(10)
    assert answers(port) == []
    assert fw.deframer.bad == 1
    port.incoming += encode(LedSet(2, 15, 5000, 60000, ()), 1)
    fw.step(20)
    [error] = answers(port)
    assert error == BoardError(wire.ERR_LEDS, "LED chain on GP15: 5000 LEDs: a chain has 1 to 1024")
    assert neopixels.chain is None


def test_the_firmware_in_micropython_shows_what_the_host_set() -> None:
    with SimulatedSerialBoard(2, 2, "occupancy", firmware="micropython") as sim:
        assert sim.pixels() == []
        runs = (LedRun(1, 2, (200, 100, 0)),)
        host = sim.port_name
        import serial  # the host's end of the pty, as the daemon opens it

        with serial.Serial(host, 115200, timeout=0) as link:
            link.write(encode(LedSet(5, 15, 4, 2000, runs), 0))
            link.flush()
            sim.step(0.0)
            sim.step(0.01)
            sim.step(0.02)
            answers = [e.message for e in LinkDecoder().feed(link.read(4096))]
        assert sim.pixels() == [(0, 0, 0), (200, 100, 0), (200, 100, 0), (0, 0, 0)]
        assert sim.lights(["a", "b", "c", "d"]) == {"b": (200, 100, 0), "c": (200, 100, 0)}
        check = wire.crc16(flat([(0, 0, 0), (200, 100, 0), (200, 100, 0), (0, 0, 0)]))
        assert LedAck(5, check, 100) in answers
