"""The TRF7962A driver (firmware/trf7962a.py) against the register-level fake
(sim/pico/fake_trf7962a.py): inventories of 0 to 40 tags, collisions resolved by mask
rounds, damaged answers read again, a reader that goes dead or loses EN, the field
off; the air time the fake charges; the driver and the fake held to the datasheet
table copied into the repo (sim/pico/trf7962a_registers.toml); and the same driver in
real MicroPython with a Pico-sized heap, its SPI bridged to the fake."""

from __future__ import annotations

import importlib
import os
import struct
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.sim.pico import fake_trf7962a as fake
from firmware_bridge.sim.pico.fake_card import SpiProtocolError
from firmware_bridge.sim.pico.fake_machine import FakeMachine
from firmware_bridge.sim.pico.fake_trf7962a import Trf7962a, Trf7962aBoard, crc16, with_crc
from firmware_bridge.sim.pico.upy_firmware import FIRMWARE, PICO_HEAP, micropython_command
from wiring.rf import timing

# The firmware is untyped MicroPython, outside mypy: imported by name.
trf: Any = importlib.import_module("firmware_bridge.firmware.trf7962a")
ticks: Any = importlib.import_module("firmware_bridge.firmware.ticks")

TABLE = tomllib.loads(
    (Path(fake.__file__).parent / "trf7962a_registers.toml").read_text(encoding="utf-8")
)
CS, EN, IRQ = 17, 20, 21


def uid(serial: int) -> bytes:
    """An ISO/IEC 15693 UID as sent on air, LSB first: E0h (the class) last."""
    return (0xE004_0000_0000_0000 | serial).to_bytes(8, "little")


class FakeMicros:
    """``ticks_us`` for the driver: each reading is ``step`` µs after the last."""

    def __init__(self, step: int = 10) -> None:
        self.now = 0
        self.step = step

    def __call__(self) -> int:
        self.now += self.step
        return self.now


@pytest.fixture(autouse=True)
def micros(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeMicros]:
    """The driver's microsecond clock, 10 µs a reading: no test waits on real time."""
    clock = FakeMicros()
    monkeypatch.setattr(ticks, "ticks_us", clock)
    yield clock


class Rig:
    """The driver on a fake Pico, the fake reader on its SPI bus, ``tags`` on the
    antenna; started, field on."""

    def __init__(self, tags: list[bytes], *, irq: bool = False, start: bool = True) -> None:
        self.tags = tags
        self.charged: list[float] = []
        self.machine = FakeMachine()
        self.chip = Trf7962a(lambda: self.tags, self.charged.append)
        Trf7962aBoard(
            self.machine.bench,
            self.chip,
            spi_bus=0,
            cs_pin=CS,
            enable_pin=EN,
            irq_pin=IRQ if irq else None,
        )
        pin = self.machine.Pin
        self.driver = trf.Trf7962a(
            self.machine.SPI(0),
            pin(CS, pin.OUT, value=1),
            pin(EN, pin.OUT, value=1),
            pin(IRQ, pin.IN) if irq else None,
        )
        if start:
            self.driver.start()
            self.driver.field(True)

    def inventory(self) -> list[bytes]:
        self.charged.clear()
        found: list[bytes] = self.driver.inventory()
        return found


# -- the datasheet table ------------------------------------------------------------


def test_the_driver_s_registers_commands_and_bits_are_the_datasheet_s() -> None:
    regs, cmds = TABLE["registers"], TABLE["commands"]
    assert (
        regs["chip_status_control"],
        regs["iso_control"],
    ) == (trf.CHIP_STATUS, trf.ISO_CONTROL)
    assert (
        regs["rx_no_response_wait"],
        regs["rx_wait_time"],
    ) == (trf.RX_NO_RESPONSE_WAIT, trf.RX_WAIT_TIME)
    assert (
        regs["irq_status"],
        regs["collision_position"],
        regs["rssi_levels_and_oscillator_status"],
    ) == (trf.IRQ_STATUS, trf.COLLISION_POSITION, trf.RSSI_LEVELS)
    assert (
        regs["fifo_status"],
        regs["tx_length_byte1"],
        regs["tx_length_byte2"],
        regs["fifo_io"],
    ) == (trf.FIFO_STATUS, trf.TX_LENGTH_1, trf.TX_LENGTH_2, trf.FIFO)
    address = TABLE["address_byte"]
    assert (
        address["command"],
        address["read"],
        address["continuous"],
    ) == (trf.COMMAND, trf.READ, trf.CONTINUOUS)
    assert (
        cmds["idle"],
        cmds["software_initialization"],
        cmds["reset_fifo"],
    ) == (trf.IDLE, trf.SOFT_INIT, trf.RESET_FIFO)
    assert (
        cmds["transmission_with_crc"],
        cmds["end_of_frame_transmit_next_time_slot"],
    ) == (trf.TRANSMIT_CRC, trf.NEXT_SLOT)
    assert (
        cmds["block_receiver"],
        cmds["enable_receiver"],
    ) == (trf.BLOCK_RECEIVER, trf.ENABLE_RECEIVER)
    status = TABLE["chip_status_control"]
    assert (status["rf_on"], status["rf_pwr_half"]) == (trf.RF_ON, trf.RF_HALF_POWER)
    assert trf.ISO_15693_HIGH_ONE_SUB_1_OF_4 == TABLE["iso_control"]["default"] == 0x02
    irq = TABLE["irq_status"]
    assert list(irq.values())[1:] == [
        trf.IRQ_TX,
        trf.IRQ_SRX,
        trf.IRQ_FIFO,
        trf.IRQ_CRC,
        trf.IRQ_PARITY,
        trf.IRQ_FRAMING,
        trf.IRQ_COLLISION,
        trf.IRQ_NO_RESPONSE,
    ]
    timing_regs = TABLE["timing"]
    assert timing_regs["rx_no_response_iso15693_high"] == trf.NO_RESPONSE_WAIT
    assert timing_regs["rx_wait_iso15693"] == trf.RX_WAIT
    assert timing_regs["oscillator_start_up_us"] == trf.START_TYPICAL_US
    # 14h steps of 37.76 us: the 755 us preset; 1Fh steps of 9.44 us: 293 us.
    assert round(trf.NO_RESPONSE_WAIT * timing_regs["rx_no_response_step_us"]) == 755
    assert round(trf.RX_WAIT * timing_regs["rx_wait_step_us"]) == 293
    assert TABLE["fifo"]["size"] == trf.FIFO_SIZE
    assert TABLE["fifo"]["status_count"] == trf.FIFO_COUNT


def test_the_fake_s_registers_commands_and_bits_are_the_datasheet_s() -> None:
    regs, cmds = TABLE["registers"], TABLE["commands"]
    assert set(fake._ADDRESSES) == {v for k, v in regs.items() if k != "source"}
    assert (
        cmds["end_of_frame_transmit_next_time_slot"],
        cmds["transmission_without_crc"],
        cmds["software_initialization"],
    ) == (fake.NEXT_SLOT, fake.TRANSMIT_NO_CRC, fake.SOFT_INIT)
    assert TABLE["fifo"]["size"] == fake.FIFO_SIZE
    assert TABLE["fifo"]["high_level_rx"] == fake.FIFO_HIGH
    chip = Trf7962a(list)
    assert chip.regs[fake.CHIP_STATUS] == TABLE["chip_status_control"]["default"]
    assert chip.regs[fake.ISO_CONTROL] == TABLE["iso_control"]["default"]
    assert chip.regs[fake.RX_WAIT_TIME] == TABLE["timing"]["rx_wait_iso15693"]
    assert chip.regs[fake.RX_NO_RESPONSE_WAIT] == TABLE["timing"]["rx_no_response_iso15693_high"]


def test_the_iso15693_crc_is_crc16_x25_low_byte_first() -> None:
    # CRC-16/IBM-SDLC (ISO/IEC 13239) of "123456789": 906Eh.
    assert crc16(b"123456789") == 0x906E
    assert with_crc(b"123456789")[-2:] == b"\x6e\x90"


# -- start, field, reset ------------------------------------------------------------


def test_start_sets_iso15693_and_the_field_is_half_power() -> None:
    rig = Rig([], start=False)
    rig.driver.start()
    regs = rig.chip.regs
    assert regs[fake.ISO_CONTROL] == 0x02
    assert (regs[fake.RX_NO_RESPONSE_WAIT], regs[fake.RX_WAIT_TIME]) == (0x14, 0x1F)
    assert not rig.chip.field
    rig.driver.field(True)
    assert rig.chip.field
    assert regs[fake.CHIP_STATUS] == 0x31  # rf_on, rf_pwr (half), vrs5_3 kept
    rig.driver.field(False)
    assert regs[fake.CHIP_STATUS] == 0x11


def test_start_on_a_silent_bus_says_what_to_check() -> None:
    rig = Rig([], start=False)
    rig.chip.dead = True
    with pytest.raises(trf.ReaderError, match=r"no reader answers on SPI .*FFh.*supply, EN"):
        rig.driver.start()


def test_start_on_a_reader_that_loses_writes_says_so() -> None:
    rig = Rig([], start=False)
    write = rig.chip.write
    # MOSI's bit 3 stuck high: every register written reads back with it set.
    rig.chip.write = lambda reg, value: write(reg, value | 0x08)  # type: ignore[method-assign]
    with pytest.raises(
        trf.ReaderError, match=r"does not keep what is written \(ISO Control reads 0Ah"
    ):
        rig.driver.start()


def test_hard_reset_pulses_en_and_the_registers_come_back_to_default() -> None:
    rig = Rig([uid(1)])
    assert rig.chip.field
    assert rig.driver.hard_reset()
    assert not rig.chip.field
    assert rig.chip.regs[fake.CHIP_STATUS] == 0x01
    rig.driver.start()
    rig.driver.field(True)
    assert rig.inventory() == [uid(1)]
    no_en = trf.Trf7962a(rig.machine.SPI(0), rig.machine.Pin(CS, 1, value=1))
    assert no_en.hard_reset() is False


# -- inventories --------------------------------------------------------------------


def test_no_tag_one_round_and_the_air_time_of_an_empty_inventory() -> None:
    rig = Rig([])
    assert rig.inventory() == []
    assert rig.driver.rounds == 1
    assert sum(rig.charged) == pytest.approx(timing.inventory_s(0))
    assert rig.chip.requests == [bytes((0x06, 0x01, 0x00))]


def test_one_tag() -> None:
    rig = Rig([uid(0x5A)])
    assert rig.inventory() == [uid(0x5A)]
    assert rig.driver.rounds == 1
    assert rig.driver.complete
    assert sum(rig.charged) == pytest.approx(timing.inventory_s(1))


@pytest.mark.parametrize("irq", [False, True], ids=["polled", "irq-pin"])
def test_fifteen_tags_in_fifteen_slots_take_one_round(irq: bool) -> None:
    tags = [uid(0x100 * i + i) for i in range(15)]
    rig = Rig(tags, irq=irq)
    assert sorted(rig.inventory()) == sorted(tags)
    assert rig.driver.rounds == 1
    assert rig.driver.bad_frames == 0
    assert sum(rig.charged) == pytest.approx(timing.inventory_s(15))


def test_two_tags_in_one_slot_are_told_apart_by_a_mask_round() -> None:
    a, b = uid(0x03), uid(0x13)  # both slot 3; then slots 0 and 1 under mask 3
    rig = Rig([a, b])
    assert sorted(rig.inventory()) == sorted([a, b])
    assert rig.driver.rounds == 2
    assert rig.driver.bad_frames == 1
    # The second request: 4 mask bits, the collided slot's number.
    assert rig.chip.requests[1] == bytes((0x06, 0x01, 0x04, 0x03))
    assert sum(rig.charged) > timing.inventory_s(2)


def test_forty_tags_are_all_found_within_the_round_bound() -> None:
    tags = [uid(0x9E3779B1 * (i + 1) & 0xFFFF_FFFF_FFFF) for i in range(40)]
    rig = Rig(tags)
    found = rig.inventory()
    assert sorted(found) == sorted(tags)
    assert len(found) == len(set(found))
    assert rig.driver.rounds <= trf.MAX_ROUNDS
    assert rig.driver.complete
    assert sum(rig.charged) < 0.5  # seconds on air


def test_a_slow_inventory_stops_at_its_time_bound_and_says_it_is_incomplete(
    micros: FakeMicros,
) -> None:
    tags = [uid(0x9E3779B1 * (i + 1) & 0xFFFF_FFFF_FFFF) for i in range(40)]
    rig = Rig(tags)
    micros.step = 2000  # every clock reading 2 ms later: slots take ~8 ms
    begin = micros.now
    found = rig.inventory()
    assert not rig.driver.complete
    assert 0 < len(found) < len(tags)
    assert set(found) <= set(tags)
    # No round starts past INVENTORY_US; the last one started ends within ~16 slots.
    assert micros.now - begin < trf.INVENTORY_US + 16 * trf.SLOT_US


def test_a_cloned_uid_never_resolves_but_the_inventory_stops_and_finds_the_rest() -> None:
    clone, other = uid(0x42), uid(0x7)
    rig = Rig([clone, clone, other])
    assert rig.inventory() == [other]
    # One round per 4 mask bits from 0 to 60, then the mask is full.
    assert rig.driver.rounds == 16
    assert rig.chip.requests[-1][2] == 60
    assert not rig.driver.complete


def test_a_bad_crc_is_read_again_in_a_mask_round() -> None:
    rig = Rig([uid(0x21), uid(0x05)])
    rig.chip.bad_crc_once.add(uid(0x21))
    assert sorted(rig.inventory()) == sorted([uid(0x21), uid(0x05)])
    assert rig.driver.bad_frames == 1
    assert rig.driver.rounds == 2


def test_the_field_off_finds_nothing() -> None:
    rig = Rig([uid(1), uid(2)])
    rig.driver.field(False)
    assert rig.inventory() == []
    assert len(rig.chip.requests) == 1  # the request went out; no tag was powered


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.sets(st.integers(0, (1 << 48) - 1), max_size=24))
def test_every_tag_is_found_exactly_once(serials: set[int]) -> None:
    tags = [uid(s) for s in serials]
    rig = Rig(tags)
    found = rig.inventory()
    assert sorted(found) == sorted(tags)
    assert len(found) == len(set(found))


# -- a reader that stops answering ---------------------------------------------------


def test_a_dead_reader_raises_a_clear_error() -> None:
    rig = Rig([uid(1)])
    rig.chip.dead = True
    with pytest.raises(trf.ReaderError, match=r"stopped answering \(IRQ Status reads FFh\)"):
        rig.inventory()


def test_a_reader_that_loses_en_times_out_within_the_slot_deadline(micros: FakeMicros) -> None:
    rig = Rig([uid(1)])
    rig.machine.bench.set_level(EN, 0)  # powered down: MISO reads 00h
    before = micros.now
    with pytest.raises(trf.ReaderError, match="no interrupt within 20 ms of a slot"):
        rig.inventory()
    assert micros.now - before <= trf.SLOT_US + 1000


def test_a_reader_that_dies_mid_inventory_raises() -> None:
    rig = Rig([uid(i) for i in range(8)])
    charged: list[float] = []

    def charge(seconds: float) -> None:
        charged.append(seconds)
        rig.chip.dead = len(charged) > 5  # after the request and four slots

    rig.chip.charge = charge
    with pytest.raises(trf.ReaderError, match="stopped answering"):
        rig.inventory()


def test_the_fake_refuses_a_second_byte_of_a_single_read() -> None:
    rig = Rig([])
    spi, cs = rig.machine.SPI(0), rig.machine.Pin(CS, 1)
    cs.value(0)
    spi.write(bytes((0x40 | fake.ISO_CONTROL,)))
    assert spi.read(1) == b"\x02"
    with pytest.raises(SpiProtocolError, match="single"):
        spi.read(1)


# -- in MicroPython -------------------------------------------------------------------

_BRIDGE = """
import gc
import sys
import trf7962a

_w = sys.stdout.buffer.write
_r = sys.stdin.buffer.readinto


class Pin:
    def __init__(self, kind):
        self.msg = bytearray((kind, 0))

    def value(self, level=None):
        if level is None:
            return 0
        self.msg[1] = 1 if level else 0
        _w(self.msg)


class Spi:
    def __init__(self):
        self.msg = bytearray(b"B0")
        self.back = bytearray(1)

    def write(self, buf):
        for i in range(len(buf)):  # no iterator object: the bridge allocates nothing
            self.msg[1] = buf[i]
            _w(self.msg)
            _r(self.back)

    def readinto(self, buf, write=0):
        self.msg[1] = write
        for i in range(len(buf)):
            _w(self.msg)
            _r(self.back)
            buf[i] = self.back[0]


reader = trf7962a.Trf7962a(Spi(), Pin(67), Pin(69))
reader.start()
reader.field(True)
gc.collect()
before = gc.mem_alloc()
gc.disable()
found = reader.inventory()
spent = gc.mem_alloc() - before
gc.enable()
for uid in found:
    _w(b"U" + bytes((len(uid),)) + uid)
_w(b"H" + bytes((0,)) + spent.to_bytes(4, "little") + gc.mem_free().to_bytes(4, "little"))
_w(b"Q0")
"""


def test_the_driver_inventories_fifteen_tags_in_micropython_with_a_pico_heap(
    tmp_path: Path,
) -> None:
    tags = [uid(0x1111 * (i + 1)) for i in range(15)]
    machine = FakeMachine()
    chip = Trf7962a(lambda: tags)
    board = Trf7962aBoard(machine.bench, chip, spi_bus=0, cs_pin=CS, enable_pin=EN)
    pins = {ord("C"): CS, ord("E"): EN}
    script = tmp_path / "bridge.py"
    script.write_text(_BRIDGE, encoding="utf-8")
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((str(FIRMWARE),)))
    proc = subprocess.Popen(
        [*micropython_command(), "-X", f"heapsize={PICO_HEAP}", str(script)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    found: list[bytes] = []
    spent = free = -1
    try:
        while True:
            head = proc.stdout.read(2)
            if len(head) < 2:
                raise AssertionError(proc.stderr.read().decode() if proc.stderr else "")
            kind, value = head
            if kind == ord("B"):
                proc.stdin.write(bytes((board.transfer(value),)))
                proc.stdin.flush()
            elif kind in pins:
                machine.bench.set_level(pins[kind], value)
            elif kind == ord("U"):
                found.append(proc.stdout.read(value))
            elif kind == ord("H"):
                spent, free = struct.unpack("<II", proc.stdout.read(8))
            else:
                break
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
    assert sorted(found) == sorted(tags)
    assert len(chip.requests) >= 1
    # What one inventory allocates, the collector held off: far under the Pico's heap.
    print(f"MicroPython: one inventory of 15 tags allocated {spent} bytes, {free} free")
    assert 0 < spent < 8 * 1024
    assert free > 150 * 1024
