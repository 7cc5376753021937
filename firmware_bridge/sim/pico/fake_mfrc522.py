"""An MFRC522 reader at register level on the fake SPI bus (its cards are
``fake_card.py``, its antenna multiplexer ``fake_antenna_mux.py``).

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
from collections.abc import Callable

from firmware_bridge.sim.pico.fake_card import (
    Card,
    SpiProtocolError,
    crc16,
)

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

    def hard_reset(self) -> None:
        """NRSTPD rose: every register to its reset value, the chip waking as after
        a SoftReset (data sheet, "Hard power-down")."""
        self._reset()
        self._waking = self.wake_transactions

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
