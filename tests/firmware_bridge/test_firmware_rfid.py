"""The firmware's reader driver (one MFRC522 behind the antenna multiplexer)
against the register-level fake: UIDs of every size, misses, cards leaving
mid-read, corrupt answers, time-based deadlines, a reader that stops answering,
one field at a time; and the fake itself against the data sheet and ISO/IEC
14443-3 (SPI framing, IRQ bits, FIFO, CRC coprocessor)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.sim.pico.fake_antenna_mux import AntennaMuxBoard
from firmware_bridge.sim.pico.fake_card import (
    REQA,
    WUPA,
    Card,
    CardError,
    Fault,
    SpiProtocolError,
    crc_a,
)
from firmware_bridge.sim.pico.fake_machine import FakeMachine
from firmware_bridge.sim.pico.fake_mfrc522 import (
    BUFFER_OVFL,
    CALC_CRC,
    COM_IRQ,
    COMMAND,
    CRC_IRQ,
    CRC_RESULT_LSB,
    CRC_RESULT_MSB,
    DIV_IRQ,
    ERROR,
    FIFO_DATA,
    FIFO_LEVEL,
    MODE,
    T_MODE,
    TX_ASK,
    TX_CONTROL,
    VERSION,
    Mfrc522,
)

# The firmware is untyped MicroPython, outside mypy: imported by name.
mfrc522: Any = importlib.import_module("firmware_bridge.firmware.mfrc522")
antennas: Any = importlib.import_module("firmware_bridge.firmware.antennas")
ticks: Any = importlib.import_module("firmware_bridge.firmware.ticks")

CS, SELECT = 13, (2, 3, 4, 5)
UID4 = bytes.fromhex("DEADBEEF")
UID7 = bytes.fromhex("04A224B2C35E80")
UID10 = bytes.fromhex("0102030405060708090A")


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


def rig(cells: int = 9, latency: int = 0, version: int = 0x92) -> tuple[Any, AntennaMuxBoard, Any]:
    """The driver on a fake Pico: one reader, ``cells`` antennas; started."""
    machine = FakeMachine()
    board = AntennaMuxBoard(
        machine.bench,
        spi_bus=1,
        cs_pin=CS,
        select_pins=SELECT,
        cells=cells,
        latency=latency,
        version=version,
    )
    readers = antennas.AntennaMux(
        mfrc522.Mfrc522(machine.SPI(1), machine.Pin(CS, machine.Pin.OUT, value=1)),
        [machine.Pin(p, machine.Pin.OUT, value=0) for p in SELECT],
        cells,
        power_us=0,
    )
    readers.start()
    return readers, board, machine


@pytest.mark.parametrize(
    ("uid", "sak"), [(UID4, 0x08), (UID7, 0x00), (UID10, 0x20)], ids=["4", "7", "10"]
)
def test_driver_reads_the_uid_of_a_card_of_each_size(uid: bytes, sak: int) -> None:
    readers, board, _ = rig()
    board.lay(4, Card(uid, sak=sak))
    assert readers.read_uid(4) == uid


def test_a_7_byte_uid_goes_through_two_cascade_levels_then_halts_the_card() -> None:
    readers, board, _ = rig()
    card = Card(UID7, sak=0x00)
    board.lay(4, card)
    board.reader.frames.clear()
    readers.read_uid(4)
    sel1 = bytes((0x93, 0x70, 0x88, 0x04, 0xA2, 0x24, 0x88 ^ 0x04 ^ 0xA2 ^ 0x24))
    sel2 = bytes((0x95, 0x70, 0xB2, 0xC3, 0x5E, 0x80, 0xB2 ^ 0xC3 ^ 0x5E ^ 0x80))
    assert list(board.reader.frames) == [
        bytes((WUPA,)),
        b"\x93\x20",
        sel1 + crc_a(sel1),
        b"\x95\x20",
        sel2 + crc_a(sel2),
        b"\x50\x00" + crc_a(b"\x50\x00"),
    ]


def test_a_card_left_on_its_square_is_read_again_each_time() -> None:
    readers, board, _ = rig()
    board.lay(0, Card(UID4))
    assert [readers.read_uid(0) for _ in range(3)] == [UID4] * 3


def test_no_card_reads_no_uid() -> None:
    readers, _board, _ = rig()
    assert [readers.read_uid(i) for i in range(9)] == [None] * 9


def test_each_square_reads_only_the_card_on_its_own_antenna() -> None:
    readers, board, _ = rig()
    board.lay(2, Card(UID4))
    board.lay(7, Card(UID7))
    assert [readers.read_uid(i) for i in range(9)] == [
        None, None, UID4, None, None, None, None, UID7, None
    ]  # fmt: skip


@pytest.mark.parametrize("leaves_at", range(5), ids=["ac1", "sel1", "ac2", "sel2", "hlta"])
def test_a_card_removed_mid_read_is_a_clean_miss(leaves_at: int) -> None:
    readers, board, _ = rig()
    board.lay(4, Card(UID7))
    sent: list[bytes] = []

    def on_frame(frame: bytes) -> None:
        sent.append(frame)
        if len(sent) == leaves_at + 2:  # after WUPA, at the chosen step
            board.lift(4)

    board.reader.on_frame = on_frame
    # Removed during HLTA the UID was already read; any earlier, nothing is.
    assert readers.read_uid(4) == (UID7 if leaves_at == 4 else None)
    board.reader.on_frame = None
    assert readers.read_uid(4) is None
    board.lay(4, Card(UID7))
    assert readers.read_uid(4) == UID7


@pytest.mark.parametrize("fault", ["bcc", "crc", "parity"])
@pytest.mark.parametrize("uid", [UID4, UID7], ids=["4", "7"])
def test_driver_rejects_a_corrupt_answer(fault: Fault, uid: bytes) -> None:
    readers, board, _ = rig()
    board.lay(4, Card(uid, faults=[fault]))
    assert readers.read_uid(4) is None


def test_the_reply_deadline_is_a_time_not_a_count_of_register_reads() -> None:
    # 400 reads of ComIrqReg at 10 µs each: 4 ms, inside the 5 ms deadline, where the
    # old driver gave up after 60 reads whatever the time.
    readers, board, _ = rig(latency=400)
    board.lay(1, Card(UID4))
    assert readers.read_uid(1) == UID4
    assert readers.problem is None


def test_a_reader_that_never_finishes_a_transceive_is_reported_not_hung() -> None:
    readers, board, _ = rig(latency=10**9)
    board.lay(1, Card(UID4))
    assert readers.read_uid(1) is None
    assert "stopped answering" in readers.problem
    assert not board.reader.field  # and its field is off again


def test_start_checks_version_reg_and_reports_a_reader_that_does_not_answer() -> None:
    readers, board, _ = rig(version=0x00)
    assert readers.problem is not None
    assert "no reader answers (VersionReg 00h)" in readers.problem
    board.lay(0, Card(UID4))
    assert readers.read_uid(0) is None
    assert board.reader.frames_sent == 0


def test_a_reader_that_loses_power_is_reported_and_found_again() -> None:
    readers, board, _ = rig()
    board.lay(0, Card(UID4))
    board.dead = True  # MISO floats high: VersionReg reads FFh
    assert readers.read_uid(0) is None
    assert "VersionReg FFh" in readers.problem
    assert readers.check(0) is False  # tried at once: still down
    board.dead = False
    assert readers.check(antennas.HEALTH_MS - 1) is False  # not tried again yet
    assert readers.check(antennas.HEALTH_MS) is True
    assert readers.problem is None
    assert readers.read_uid(0) == UID4


def test_census_names_the_chip() -> None:
    readers, _board, _ = rig(version=0x91)
    assert readers.census() == [(0, 0x91, "MFRC522 v1.0")]


def test_init_leaves_the_field_off_and_arms_a_1_ms_timer() -> None:
    _readers, board, _ = rig()
    reader = board.reader
    assert reader.regs[TX_CONTROL] & 0x03 == 0
    assert not reader.field
    assert reader.regs[T_MODE] & 0x80  # TAuto: a silent card times out
    prescaler = (reader.regs[T_MODE] & 0x0F) << 8 | reader.regs[0x2B]
    reload = reader.regs[0x2C] << 8 | reader.regs[0x2D]
    assert reload * (2 * prescaler + 1) / 13.56e6 == pytest.approx(0.001, rel=0.01)
    assert reader.regs[TX_ASK] == 0x40
    assert reader.regs[MODE] & 0x03 == 0x01  # CRC preset 6363h


def test_init_waits_for_the_reader_to_wake_after_soft_reset() -> None:
    machine = FakeMachine()
    board = AntennaMuxBoard(machine.bench, spi_bus=1, cs_pin=CS, select_pins=SELECT, cells=2)
    board.reader.wake_transactions = 3
    readers = antennas.AntennaMux(
        mfrc522.Mfrc522(machine.SPI(1), machine.Pin(CS, machine.Pin.OUT, value=1)),
        [machine.Pin(p, machine.Pin.OUT, value=0) for p in SELECT],
        2,
        power_us=0,
    )
    assert readers.start() is True
    assert board.reader.regs[T_MODE] & 0x80


# -- one field at a time ----------------------------------------------------------------


def test_a_sweep_of_every_square_never_has_more_than_one_field_on() -> None:
    readers, board, _ = rig()
    for i in range(0, 9, 2):
        board.lay(i, Card(bytes((0x10 + i, 2, 3, 4))))
    for _ in range(3):
        assert [readers.read_uid(i) is not None for i in range(9)] == [i % 2 == 0 for i in range(9)]
        assert not board.reader.field  # off between reads
    assert board.max_fields_on == 1
    assert board.hot_switches == 0  # the antenna is never switched while it radiates
    assert board.powered_by_antenna == [3] * 9  # each coil energised once per read


def test_a_card_on_an_antenna_not_selected_stays_unpowered() -> None:
    readers, board, _ = rig()
    card = Card(UID4)
    board.lay(3, card)
    readers.read_uid(5)
    assert card.state == "POWER_OFF"


def test_too_few_select_pins_for_the_squares_is_refused() -> None:
    machine = FakeMachine()
    with pytest.raises(ValueError, match="add select pins"):
        AntennaMuxBoard(machine.bench, spi_bus=1, cs_pin=CS, select_pins=(2, 3), cells=5)


# -- the fake against the data sheet -------------------------------------------------


def spi(chip: Mfrc522, *data: int) -> list[int]:
    """One SPI transaction (NSS low, bytes, NSS high): the bytes on MISO."""
    chip.select()
    out = [chip.exchange(b) for b in data]
    chip.deselect()
    return out


def test_spi_read_returns_each_register_one_byte_after_its_address() -> None:
    chip = Mfrc522(version=0x92)
    # Address bytes: bit 7 read, bits 6-1 the register; a final 00h ends the read.
    assert spi(chip, 0x80 | VERSION << 1, 0x80 | TX_CONTROL << 1, 0x00) == [0x00, 0x92, 0x80]


def test_spi_write_puts_every_following_byte_into_the_same_register() -> None:
    chip = Mfrc522()
    spi(chip, FIFO_DATA << 1, 1, 2, 3)
    assert spi(chip, 0x80 | FIFO_LEVEL << 1, 0x80 | FIFO_DATA << 1, 0x80 | FIFO_DATA << 1, 0) == [
        0,
        3,
        1,
        2,
    ]


def test_an_address_byte_with_bit_0_set_is_refused() -> None:
    with pytest.raises(SpiProtocolError, match="bit 0 set"):
        spi(Mfrc522(), 0x03)


def test_com_irq_writes_set_or_clear_the_marked_bits_by_set1() -> None:
    chip = Mfrc522()
    chip.write(COM_IRQ, 0x7F)
    assert chip.read(COM_IRQ) == 0x00
    chip.write(COM_IRQ, 0x80 | 0x21)
    assert chip.read(COM_IRQ) == 0x21
    chip.write(COM_IRQ, 0x01)
    assert chip.read(COM_IRQ) == 0x20


def test_a_full_fifo_sets_buffer_overflow_until_flushed() -> None:
    chip = Mfrc522()
    for i in range(65):
        chip.write(FIFO_DATA, i)
    assert chip.read(FIFO_LEVEL) == 64
    assert chip.read(ERROR) & BUFFER_OVFL
    chip.write(FIFO_LEVEL, 0x80)
    assert chip.read(FIFO_LEVEL) == 0
    assert not chip.read(ERROR) & BUFFER_OVFL


@given(st.binary(max_size=40))
def test_calc_crc_computes_the_drivers_crc_a(data: bytes) -> None:
    chip = Mfrc522()
    chip.write(MODE, 0x3D)  # CRC preset 6363h, as the driver sets it
    for byte in data:
        chip.write(FIFO_DATA, byte)
    chip.write(COMMAND, CALC_CRC)
    assert chip.read(DIV_IRQ) & CRC_IRQ
    low_first = bytes((chip.read(CRC_RESULT_LSB), chip.read(CRC_RESULT_MSB)))
    assert low_first == mfrc522.crc_a(data) == crc_a(data)


def test_calc_crc_goes_on_over_bytes_written_while_it_runs() -> None:
    chip = Mfrc522()
    chip.write(MODE, 0x3D)
    chip.write(FIFO_DATA, 0x50)
    chip.write(COMMAND, CALC_CRC)
    chip.write(FIFO_DATA, 0x00)
    assert bytes((chip.read(CRC_RESULT_LSB), chip.read(CRC_RESULT_MSB))) == bytes((0x57, 0xCD))


def test_crc_a_of_frames_seen_in_every_card_trace() -> None:
    # HLTA goes out as 50 00 57 CD; a MIFARE Classic answers SELECT with 08 B6 DD.
    assert crc_a(b"\x50\x00") == b"\x57\xcd"
    assert crc_a(b"\x08") == b"\xb6\xdd"


# -- the card against ISO/IEC 14443-3 ------------------------------------------------


def powered(card: Card) -> Card:
    card.power(True)
    return card


def test_atqa_announces_the_uid_size() -> None:
    assert [powered(Card(u)).answer(bytes((REQA,)), 7) for u in (UID4, UID7, UID10)] == [
        b"\x04\x00",
        b"\x44\x00",
        b"\x84\x00",
    ]


def test_reqa_and_wupa_are_only_heard_as_7_bit_short_frames() -> None:
    card = powered(Card(UID4))
    assert card.answer(bytes((WUPA,)), 0) is None
    assert card.answer(bytes((WUPA,)), 7) == b"\x04\x00"


def test_a_halted_card_wakes_for_wupa_but_not_reqa() -> None:
    card = powered(Card(UID4))
    card.answer(bytes((REQA,)), 7)
    card.answer(b"\x93\x20", 0)
    select = bytes((0x93, 0x70)) + UID4 + bytes((0xDE ^ 0xAD ^ 0xBE ^ 0xEF,))
    assert card.answer(select + crc_a(select), 0) == b"\x08" + crc_a(b"\x08")
    assert card.answer(b"\x50\x00" + crc_a(b"\x50\x00"), 0) is None
    assert card.state == "HALT"
    assert card.answer(bytes((REQA,)), 7) is None
    assert card.answer(bytes((WUPA,)), 7) == b"\x04\x00"


def test_a_select_with_a_bad_crc_sends_the_card_back_to_idle() -> None:
    card = powered(Card(UID4))
    card.answer(bytes((WUPA,)), 7)
    select = bytes((0x93, 0x70)) + UID4 + bytes((0xDE ^ 0xAD ^ 0xBE ^ 0xEF,))
    assert card.answer(select + b"\x00\x00", 0) is None
    assert card.state == "IDLE"


def test_a_card_loses_its_state_when_the_field_drops() -> None:
    card = powered(Card(UID4))
    card.answer(bytes((WUPA,)), 7)
    card.power(False)
    card.power(True)
    assert card.state == "IDLE"


@pytest.mark.parametrize(
    ("uid", "message"),
    [
        (b"\x01\x02\x03\x04\x05", "4, 7 or 10 bytes"),
        (b"\x88\x01\x02\x03", "cascade tag"),
    ],
)
def test_a_card_that_cannot_exist_is_refused(uid: bytes, message: str) -> None:
    with pytest.raises(CardError, match=message):
        Card(uid)
