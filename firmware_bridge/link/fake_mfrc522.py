"""An MFRC522 reader at register level on the fake SPI bus, the type A cards it
reads, and the antenna multiplexer that gives every square its own coil.

Modelled on the NXP MFRC522 data sheet (SPI address byte, the registers the
firmware's driver touches, the Transceive, Transmit, CalcCRC and SoftReset
commands, the timer's automatic start) and ISO/IEC 14443-3 type A (REQA/WUPA and
ATQA, anticollision and SELECT over up to three cascade levels with BCC and
CRC_A, SAK, HLTA and the card's IDLE/READY/ACTIVE/HALT states). The fake has no
clock: a card's reply shows ``latency`` reads of ComIrqReg after its frame went out.
Not modelled: bit-oriented anticollision (NVB other than 20h and 70h, i.e. two
cards on one antenna), receive CRC checking (RxCRCEn), MIFARE authentication.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal

from firmware_bridge.link.fake_machine import Bench

# Register addresses (data sheet section 9).
COMMAND = 0x01
COM_IEN = 0x02
DIV_IEN = 0x03
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
STATUS1 = 0x07
STATUS2 = 0x08
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
WATER_LEVEL = 0x0B
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
CRC_RESULT_MSB = 0x21
CRC_RESULT_LSB = 0x22
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Commands (CommandReg bits 3-0).
IDLE = 0x0
CALC_CRC = 0x3
TRANSMIT = 0x4
NO_CMD_CHANGE = 0x7
RECEIVE = 0x8
TRANSCEIVE = 0xC
SOFT_RESET = 0xF
_UNMODELLED = {0x1: "Mem", 0x2: "Generate RandomID", 0xE: "MFAuthent"}

# ComIrqReg bits.
TX_IRQ = 0x40
RX_IRQ = 0x20
IDLE_IRQ = 0x10
HI_ALERT_IRQ = 0x08
LO_ALERT_IRQ = 0x04
ERR_IRQ = 0x02
TIMER_IRQ = 0x01
# DivIrqReg bits.
CRC_IRQ = 0x04
# ErrorReg bits.
WR_ERR = 0x80
TEMP_ERR = 0x40
BUFFER_OVFL = 0x10
COLL_ERR = 0x08
CRC_ERR = 0x04
PARITY_ERR = 0x02
PROTOCOL_ERR = 0x01

FIFO_SIZE = 64
_CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)
_RESET_VALUES = {
    COMMAND: 0x20,
    COM_IEN: 0x80,
    COM_IRQ: 0x14,
    STATUS1: 0x21,
    WATER_LEVEL: 0x08,
    CONTROL: 0x10,
    MODE: 0x3F,
    TX_CONTROL: 0x80,
    CRC_RESULT_MSB: 0xFF,
    CRC_RESULT_LSB: 0xFF,
}

# ISO/IEC 14443-3 type A.
REQA = 0x26
WUPA = 0x52
HLTA = 0x50
CASCADE_TAG = 0x88
SEL = (0x93, 0x95, 0x97)
SAK_UID_INCOMPLETE = 0x04

Fault = Literal["bcc", "crc", "parity"]
"""A card's defect: a wrong BCC in its anticollision answer, a wrong CRC_A after
its SAK, or a parity error the reader flags on every answer."""
FAULTS: tuple[Fault, ...] = ("bcc", "crc", "parity")


class RfidBenchError(Exception):
    """The simulated RFID hardware was used in a way the real parts do not allow."""


class CardError(RfidBenchError, ValueError):
    """A card cannot be made as asked; the message says what a UID must be."""


class BenchWiringError(RfidBenchError, ValueError):
    """The simulated readers cannot be wired as asked; the message says what to change."""


class SpiProtocolError(RfidBenchError, ValueError):
    """The SPI bytes break the MFRC522's framing, or ask for what the fake does not model."""


def crc16(data: Iterable[int], preset: int = 0x6363) -> int:
    """The CRC of ISO/IEC 14443-A (reflected polynomial 0x8408) from ``preset``."""
    crc = preset
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def crc_a(data: Iterable[int]) -> bytes:
    """CRC_A of ``data`` as sent on the air: low byte first."""
    crc = crc16(data)
    return bytes((crc & 0xFF, crc >> 8))


def _xor(data: bytes) -> int:
    value = 0
    for byte in data:
        value ^= byte
    return value


class Card:
    """A type A card (PICC) with a 4-, 7- or 10-byte UID, following the ISO/IEC
    14443-3 state machine. ``sak`` is the final SAK (08h: MIFARE Classic 1K)."""

    def __init__(self, uid: bytes, sak: int = 0x08, faults: Iterable[Fault] = ()) -> None:
        if len(uid) not in (4, 7, 10):
            raise CardError(
                f"a type A UID is 4, 7 or 10 bytes, not {len(uid)} ({uid.hex().upper()})"
            )
        if uid[0] == CASCADE_TAG:
            raise CardError(
                f"UID {uid.hex().upper()} starts with the cascade tag 88: "
                "ISO/IEC 14443-3 reserves it; choose another first byte"
            )
        if sak & SAK_UID_INCOMPLETE:
            raise CardError(f"final SAK {sak:02X} has bit 3 set (UID not complete); clear it")
        unknown = set(faults) - set(FAULTS)
        if unknown:
            raise CardError(f"unknown card faults {sorted(unknown)}: use {', '.join(FAULTS)}")
        self.uid = bytes(uid)
        self.sak = sak
        self.faults = frozenset(faults)
        if len(uid) == 4:
            self._parts = [self.uid]
        elif len(uid) == 7:
            self._parts = [bytes((CASCADE_TAG,)) + self.uid[:3], self.uid[3:]]
        else:
            self._parts = [
                bytes((CASCADE_TAG,)) + self.uid[:3],
                bytes((CASCADE_TAG,)) + self.uid[3:6],
                self.uid[6:],
            ]
        size_bits = (len(self._parts) - 1) << 6
        # b5..b1 = 00100: bit frame anticollision; b8b7: UID size. Low byte first.
        self.atqa = bytes((size_bits | 0x04, 0x00))
        self.state = "POWER_OFF"
        self._level = 0
        self._from_halt = False

    def power(self, field: bool) -> None:
        """The reader's field came on (the card resets to IDLE) or went off."""
        if not field:
            self.state = "POWER_OFF"
        elif self.state == "POWER_OFF":
            self.state = "IDLE"
            self._level = 0
            self._from_halt = False

    def _fall_back(self) -> None:
        # An unexpected or broken frame sends a card back to where WUPA found it.
        self.state = "HALT" if self._from_halt else "IDLE"
        self._level = 0

    def answer(self, frame: bytes, last_bits: int) -> bytes | None:
        """The card's reply to ``frame`` (``last_bits`` valid bits in its last byte,
        0 for all 8), or None when it stays silent."""
        state = self.state
        if state == "POWER_OFF":
            return None
        if last_bits == 7 and len(frame) == 1 and frame[0] in (REQA, WUPA):
            if state == "IDLE" or (state == "HALT" and frame[0] == WUPA):
                self._from_halt = state == "HALT"
                self.state = "READY"
                self._level = 0
                return self.atqa
            if state in ("READY", "ACTIVE"):
                self._fall_back()
            return None
        if state in ("IDLE", "HALT"):
            return None
        if last_bits != 0:
            self._fall_back()
            return None
        if state == "READY" and len(frame) >= 2 and frame[0] == SEL[self._level]:
            return self._anticollision_or_select(frame)
        if state == "ACTIVE" and frame == bytes((HLTA, 0)) + crc_a(bytes((HLTA, 0))):
            self.state = "HALT"
            return None
        self._fall_back()
        return None

    def _anticollision_or_select(self, frame: bytes) -> bytes | None:
        part = self._parts[self._level]
        nvb = frame[1]
        if nvb == 0x20 and len(frame) == 2:
            bcc = _xor(part) ^ (0xFF if "bcc" in self.faults else 0)
            return part + bytes((bcc,))
        if nvb == 0x70 and len(frame) == 9:
            if crc_a(frame[:7]) != frame[7:]:
                self._fall_back()
                return None
            if frame[2:6] != part or frame[6] != _xor(part):
                return None  # another card's SELECT: stay READY
            if self._level + 1 < len(self._parts):
                self._level += 1
                sak = SAK_UID_INCOMPLETE
            else:
                self.state = "ACTIVE"
                sak = self.sak
            crc = bytearray(crc_a(bytes((sak,))))
            if "crc" in self.faults:
                crc[0] ^= 0x01
            return bytes((sak,)) + bytes(crc)
        # Bit-oriented anticollision is for two cards on one antenna: not modelled.
        return None


class Mfrc522:
    """One MFRC522 in SPI mode: ``select``/``deselect`` follow its NSS pin,
    ``exchange`` clocks one byte. ``card`` is what lies on its antenna.

    ``latency`` is how many reads of ComIrqReg a reply takes to arrive;
    ``wake_transactions`` how many SPI transactions after a SoftReset find the chip
    still waking (PowerDown reads 1, writes are lost). ``frames`` keeps the last
    frames sent to the air, ``on_frame`` (if set) sees each before the card does.
    """

    def __init__(self, version: int = 0x92, latency: int = 0, wake_transactions: int = 1) -> None:
        self.version = version
        self.latency = latency
        self.wake_transactions = wake_transactions
        self.regs = bytearray(64)
        self.fifo = bytearray()
        self.card: Card | None = None
        self.on_frame: Callable[[bytes], None] | None = None
        self.frames: deque[bytes] = deque(maxlen=32)
        self.frames_sent = 0
        self.transactions = 0
        self.on_field: Callable[[bool], None] | None = None
        """Told each time the antenna drivers switch on or off."""
        self._radiating = False
        self._mode = 0  # 0: expecting an address byte, 1: reading, 2: writing
        self._address: int | None = None
        self._waking = 0
        self._pending: tuple[int, bytes | None, int] | None = None
        self._countdown = 0
        self._crc = 0
        self._reset()

    # -- the card on the antenna --------------------------------------------------
    def lay(self, card: Card) -> None:
        """Put ``card`` on the antenna (replacing any other)."""
        self.remove()
        self.card = card
        card.power(self.field)

    def remove(self) -> None:
        """Take the card off the antenna: it loses power."""
        if self.card is not None:
            self.card.power(False)
        self.card = None

    @property
    def field(self) -> bool:
        """Whether the antenna drivers radiate (TxControlReg Tx1RFEn/Tx2RFEn)."""
        return bool(self.regs[TX_CONTROL] & 0x03) and not self.regs[COMMAND] & 0x10

    def _field_changed(self) -> None:
        field = self.field
        if self.card is not None:
            self.card.power(field)
        if field != self._radiating:
            self._radiating = field
            if self.on_field is not None:
                self.on_field(field)

    # -- SPI --------------------------------------------------------------------
    def select(self) -> None:
        """NSS went low: a new transaction starts with an address byte."""
        self.transactions += 1
        self._mode = 0
        self._address = None
        if self._waking:
            self._waking -= 1

    def deselect(self) -> None:
        """NSS went high: the transaction ends."""
        self._mode = 0

    def exchange(self, out: int) -> int:
        """Clock ``out`` in on MOSI; the byte on MISO."""
        if self._mode == 0:
            self._address = self._parse_address(out)
            self._mode = 1 if out & 0x80 else 2
            return 0x00
        if self._mode == 1:
            value = self.read(self._address) if self._address is not None else 0x00
            # In a read, each further MOSI byte names the next address; 00h ends.
            self._address = self._parse_address(out) if out else None
            return value
        if self._address is not None:
            self.write(self._address, out)
        return 0x00

    @staticmethod
    def _parse_address(byte: int) -> int:
        if byte & 0x01:
            raise SpiProtocolError(
                f"SPI address byte {byte:02X}h has bit 0 set; the MFRC522 needs it 0 "
                "(bit 7 read/write, bits 6-1 the register)"
            )
        return (byte >> 1) & 0x3F

    # -- registers ----------------------------------------------------------------
    def _reset(self) -> None:
        self.regs[:] = bytes(64)
        for reg, value in _RESET_VALUES.items():
            self.regs[reg] = value
        self.fifo.clear()
        self._pending = None
        self._field_changed()

    def read(self, reg: int) -> int:
        """The value a register read returns (may have side effects, as on the chip)."""
        if reg == COMMAND:
            return self.regs[COMMAND] | (0x10 if self._waking else 0)
        if reg == COM_IRQ:
            self._tick()
            return self.regs[COM_IRQ] & 0x7F
        if reg == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0x00
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        if reg == STATUS1:
            return self._status1()
        if reg == VERSION:
            return self.version
        return self.regs[reg]

    def _status1(self) -> int:
        water = self.regs[WATER_LEVEL] & 0x3F
        value = self.regs[STATUS1] & 0x60  # CRCOk, CRCReady
        if self.regs[COM_IRQ] & self.regs[COM_IEN] & 0x7F or (
            self.regs[DIV_IRQ] & self.regs[DIV_IEN] & 0x14
        ):
            value |= 0x10
        if FIFO_SIZE - len(self.fifo) <= water:
            value |= 0x02
        if len(self.fifo) <= water:
            value |= 0x01
        return value

    def write(self, reg: int, value: int) -> None:
        """A register write, with the effects it has on the chip."""
        if self._waking:
            return  # still in reset: the write is lost
        if reg == COMMAND:
            self._command(value)
        elif reg == COM_IRQ:
            self._set_or_clear(COM_IRQ, value)
        elif reg == DIV_IRQ:
            self._set_or_clear(DIV_IRQ, value)
        elif reg in (ERROR, STATUS1, STATUS2, VERSION, CRC_RESULT_MSB, CRC_RESULT_LSB):
            pass  # read-only
        elif reg == FIFO_DATA:
            self._push(value)
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
                self.regs[ERROR] &= ~BUFFER_OVFL & 0xFF
        elif reg == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value
            if value & 0x80 and self.regs[COMMAND] & 0x0F == TRANSCEIVE:
                self._send(receive=True)
        elif reg == TX_CONTROL:
            self.regs[TX_CONTROL] = value
            self._field_changed()
        elif reg == RX_MODE and value & 0x80:
            raise SpiProtocolError(
                "RxCRCEn (RxModeReg bit 7) is not modelled; check CRC_A in software"
            )
        else:
            self.regs[reg] = value

    def _set_or_clear(self, reg: int, value: int) -> None:
        # Bit 7 (Set1/Set2) says whether the other marked bits are set or cleared.
        if value & 0x80:
            self.regs[reg] |= value & 0x7F
        else:
            self.regs[reg] &= ~value & 0xFF

    def _push(self, value: int) -> None:
        if len(self.fifo) >= FIFO_SIZE:
            self.regs[ERROR] |= BUFFER_OVFL
            return
        self.fifo.append(value)
        if self.regs[COMMAND] & 0x0F == CALC_CRC:
            self._crc_feed(bytes(self.fifo))
            self.fifo.clear()

    # -- commands -----------------------------------------------------------------
    def _command(self, value: int) -> None:
        command = value & 0x0F
        if command in _UNMODELLED:
            raise SpiProtocolError(
                f"the fake MFRC522 does not model the {_UNMODELLED[command]} command ({command:X}h)"
            )
        if command == NO_CMD_CHANGE:
            self.regs[COMMAND] = (self.regs[COMMAND] & 0x0F) | (value & 0x30)
            self._field_changed()
            return
        if command == SOFT_RESET:
            self._reset()
            self._waking = self.wake_transactions + 1  # this transaction counts
            return
        if command not in (IDLE, CALC_CRC, TRANSMIT, RECEIVE, TRANSCEIVE):
            # An unknown command: the chip goes idle and says so.
            self.regs[COMMAND] = value & 0x30
            self.regs[COM_IRQ] |= IDLE_IRQ
            return
        self.regs[COMMAND] = value & 0x3F
        self._pending = None
        self._field_changed()
        if command == CALC_CRC:
            self._crc = _CRC_PRESETS[self.regs[MODE] & 0x03]
            self.regs[STATUS1] &= ~0x60 & 0xFF
            self._crc_feed(bytes(self.fifo))
            self.fifo.clear()
        elif command == TRANSMIT:
            self._send(receive=False)

    def _crc_feed(self, data: bytes) -> None:
        self._crc = crc16(data, self._crc)
        self.regs[CRC_RESULT_MSB] = self._crc >> 8
        self.regs[CRC_RESULT_LSB] = self._crc & 0xFF
        self.regs[STATUS1] |= 0x20 | (0x40 if self._crc == 0 else 0)
        self.regs[DIV_IRQ] |= CRC_IRQ

    def _send(self, receive: bool) -> None:
        frame = bytes(self.fifo)
        self.fifo.clear()
        if self.regs[TX_MODE] & 0x80:
            crc = crc16(frame, _CRC_PRESETS[self.regs[MODE] & 0x03])
            frame += bytes((crc & 0xFF, crc >> 8))
        last_bits = self.regs[BIT_FRAMING] & 0x07
        self.frames.append(frame)
        self.frames_sent += 1
        # Errors of the last reception clear when a new one starts.
        self.regs[ERROR] &= WR_ERR | TEMP_ERR | BUFFER_OVFL
        if self.on_frame is not None:
            self.on_frame(frame)
        reply = None
        if self.field and self.card is not None:
            reply = self.card.answer(frame, last_bits)
        self.regs[COM_IRQ] |= TX_IRQ
        if not receive:
            self.regs[COMMAND] &= 0x30
            self.regs[COM_IRQ] |= IDLE_IRQ
            return
        if self.regs[COMMAND] & 0x20:
            reply = None  # RcvOff: the receiver's analog part is off
        errors = 0
        if reply is not None and self.card is not None and "parity" in self.card.faults:
            errors |= PARITY_ERR
        timeout = reply is None and bool(self.regs[T_MODE] & 0x80)
        self._pending = (errors, reply, TIMER_IRQ if timeout else 0)
        self._countdown = self.latency
        if self.latency == 0:
            self._complete()

    def _tick(self) -> None:
        if self._pending is None:
            return
        if self._countdown > 0:
            self._countdown -= 1
            return
        self._complete()

    def _complete(self) -> None:
        assert self._pending is not None
        errors, reply, timer = self._pending
        self._pending = None
        irq = timer
        if reply is not None:
            for byte in reply:
                self._push(byte)
            self.regs[CONTROL] &= 0xF8  # RxLastBits: whole bytes
            irq |= RX_IRQ
        self.regs[ERROR] |= errors
        if self.regs[ERROR]:
            irq |= ERR_IRQ
        self.regs[COM_IRQ] |= irq


class AntennaMuxBoard:
    """One MFRC522 whose antenna output reaches one square's coil at a time, as
    ``firmware/antennas.py`` expects (docs/hardware.md).

    The reader's NSS is ``cs_pin``; ``select_pins`` (least significant first) address
    the analog multiplexer tree: while they carry ``i`` and ``i`` is a square, the
    reader's field reaches the card on square ``i`` and no other; a card on any other
    square is unpowered. ``readers`` holds the one reader (a list, so that a count of
    fields on is the same code for any number of readers).

    It counts what a builder would measure: ``max_fields_on``, the most antennas
    radiating at once; ``hot_switches``, antenna switches made with the field on
    (they ring the coil and stress the switches); ``field_on_reads``, frames sent.
    """

    def __init__(
        self,
        bench: Bench,
        *,
        spi_bus: int,
        cs_pin: int,
        select_pins: Sequence[int],
        cells: int,
        latency: int = 0,
        version: int = 0x92,
    ) -> None:
        if (1 << len(select_pins)) < cells:
            raise BenchWiringError(
                f"{len(select_pins)} select pins address {1 << len(select_pins)} antennas, "
                f"fewer than {cells} squares: add select pins"
            )
        self.reader = Mfrc522(version=version, latency=latency)
        self.readers = [self.reader]
        self.cells = cells
        self.cards: dict[int, Card] = {}
        self.cs_pin = cs_pin
        self.select_pins = tuple(select_pins)
        self.antenna: int | None = None
        """The square whose coil the multiplexers connect now (None: none)."""
        self.fields_on = 0
        self.max_fields_on = 0
        self.hot_switches = 0
        self.powered_by_antenna = [0] * cells
        """How many times each square's coil was energised."""
        self.dead = False
        """A reader that lost its supply: MISO floats high, nothing answers."""
        self._bench = bench
        self.reader.on_field = self._on_field
        bench.attach_spi(spi_bus, self)
        bench.listen(cs_pin, self._on_cs)
        for pin in select_pins:
            bench.listen(pin, self._route)
        self._route(0, 0)

    def _on_field(self, on: bool) -> None:
        self.fields_on += 1 if on else -1
        self.max_fields_on = max(self.max_fields_on, self.fields_on)
        if on and self.antenna is not None:
            self.powered_by_antenna[self.antenna] += 1

    def _on_cs(self, _pin: int, level: int) -> None:
        if level == 0:
            self.reader.select()
        else:
            self.reader.deselect()

    def _route(self, _pin: int, _level: int) -> None:
        levels = self._bench.levels
        address = 0
        for bit, pin in enumerate(self.select_pins):
            address |= levels.get(pin, 0) << bit
        antenna = address if address < self.cells else None
        if antenna == self.antenna:
            return
        if self.reader.field:
            self.hot_switches += 1
        self.antenna = antenna
        self._connect()

    def _connect(self) -> None:
        card = self.cards.get(self.antenna) if self.antenna is not None else None
        if card is None:
            self.reader.remove()
        elif self.reader.card is not card:
            self.reader.lay(card)
        if card is not None and self.reader.field and self.antenna is not None:
            self.powered_by_antenna[self.antenna] += 1

    def transfer(self, out: int) -> int:
        if self.dead or self._bench.levels.get(self.cs_pin, 1):
            return 0xFF
        return self.reader.exchange(out)

    def lay(self, index: int, card: Card) -> None:
        """Put ``card`` on square ``index``."""
        old = self.cards.get(index)
        if old is not None:
            old.power(False)
        self.cards[index] = card
        if index == self.antenna:
            self._connect()

    def lift(self, index: int) -> None:
        """Take the card off square ``index``."""
        card = self.cards.pop(index, None)
        if card is not None:
            card.power(False)
        if index == self.antenna:
            self._connect()

    def set_tags(self, tags: Mapping[int, bytes]) -> None:
        """Make the cards on the board carry exactly ``tags`` (square -> UID).

        A card already lying with the same UID stays, keeping its state, as a
        piece left on the board does.
        """
        for index in [i for i in self.cards if i not in tags]:
            self.lift(index)
        for index, uid in tags.items():
            card = self.cards.get(index)
            if card is None or card.uid != uid:
                self.lay(index, Card(uid))
