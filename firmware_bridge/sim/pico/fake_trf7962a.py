"""A TRF7962A ISO/IEC 15693 reader at register level on the fake SPI bus, and the
ISO/IEC 15693 tags on the antenna its PIN diodes select (docs/rf.md).

Modelled on the TRF7962A datasheet (SLOS757G: its register map, Table 6-15; ISO
Control, Tables 6-17/6-18; RX Wait Time, Table 6-21) and the family's tables the
driver cites (``firmware/trf7962a.py``): the address/command byte (direct command,
read, continuous), the direct commands Idle, Software Initialization, Reset FIFO,
Transmission with and without CRC, End of Frame/Next Slot, Block and Enable Receiver;
the 12-byte FIFO and FIFO Status (count less one, overflow), TX Length Byte1/Byte2,
the IRQ Status register cleared by its read (and the IRQ pin), Chip Status Control's
rf_on. The tags answer an Inventory (ISO/IEC 15693-3) in the slot the four UID bits
after the mask bits name; two or more in one slot are a collision, the chip checks
each answer's CRC (ISO/IEC 13239 CRC-16) and drops it from the FIFO. EN low powers
the chip down (MISO reads 00h) and its rising edge resets every register; a dead
reader reads FFh.

The fake has no clock: a slot's outcome arrives when the SPI transaction after the
one whose IRQ Status read reported the end of its request or EOF has ended.
``charge`` (if given) is told the air time of each request, slot and EOF
(``wiring.rf.timing``), so a simulated board can keep its clock. Not modelled: the
other ISO/IEC 15693 commands (no tag answers them), AFI, the one-slot inventory's
timing, RSSI and the collision position (they read 00h), direct mode, the receive
path with rx_crc_n = 1, the Interrupt Mask register.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from firmware_bridge.sim.pico.fake_card import SpiProtocolError
from firmware_bridge.sim.pico.fake_machine import Bench
from wiring.rf import timing

# Registers (SLOS757G Table 6-15).
CHIP_STATUS, ISO_CONTROL, RX_NO_RESPONSE_WAIT, RX_WAIT_TIME = 0x00, 0x01, 0x07, 0x08
REGULATOR, IRQ_STATUS, COLLISION_POSITION, RSSI_LEVELS = 0x0B, 0x0C, 0x0E, 0x0F
FIFO_STATUS, TX_LENGTH_1, TX_LENGTH_2, FIFO = 0x1C, 0x1D, 0x1E, 0x1F
_READ_ONLY = (IRQ_STATUS, COLLISION_POSITION, RSSI_LEVELS, FIFO_STATUS)
_ADDRESSES = (0x00, 0x01, *range(0x06, 0x10), *range(0x1A, 0x20))
# Direct commands (the driver's sources).
IDLE, SOFT_INIT, RESET_FIFO, TRANSMIT_NO_CRC, TRANSMIT_CRC = 0x00, 0x03, 0x0F, 0x10, 0x11
NEXT_SLOT, BLOCK_RECEIVER, ENABLE_RECEIVER = 0x14, 0x16, 0x17
# Chip Status Control rf_on, ISO Control rx_crc_n, IRQ Status bits.
RF_ON, RX_CRC_OFF = 0x20, 0x80
IRQ_TX, IRQ_SRX, IRQ_FIFO, IRQ_CRC = 0x80, 0x40, 0x20, 0x10
IRQ_FRAMING, IRQ_COLLISION, IRQ_NO_RESPONSE = 0x04, 0x02, 0x01
FIFO_SIZE = 12
FIFO_HIGH = 9  # FIFO Status Fhil: 9 bytes in the FIFO during RX (SLOS732G Table 6-39)
# Defaults at power-on, EN and Software Initialization (SLOS757G §6.14.1.1.1, Tables
# 6-17, 6-21; SLOS732G Table 6-28 for the Regulator and I/O Control's 87h); the
# ISO/IEC 15693 high-rate preset of RX No Response Wait (14h, 755 us; SLOS743M Table
# 6-34). Registers whose default is not in the pages at hand read 00h.
_DEFAULTS = {CHIP_STATUS: 0x01, ISO_CONTROL: 0x02, RX_WAIT_TIME: 0x1F, REGULATOR: 0x87}
_PRESETS = {0x02: (0x14, 0x1F)}  # ISO Control -> (RX No Response Wait, RX Wait Time)

# ISO/IEC 15693-3: request flags inventory, AFI, Nb_slots (1 slot); the command.
FLAG_INVENTORY, FLAG_AFI, FLAG_ONE_SLOT, INVENTORY = 0x04, 0x10, 0x20, 0x01


def crc16(data: bytes) -> int:
    """ISO/IEC 15693's CRC (ISO/IEC 13239 CRC-16): preset FFFFh, reflected polynomial
    8408h, ones' complement of the result; sent low byte first."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc ^ 0xFFFF


def with_crc(data: bytes) -> bytes:
    crc = crc16(data)
    return data + bytes((crc & 0xFF, crc >> 8))


def crc_ok(frame: bytes) -> bool:
    """Whether ``frame`` ends in the CRC of what comes before it."""
    return len(frame) > 2 and with_crc(frame[:-2]) == frame


class Trf7962a:
    """One TRF7962A. ``tags()`` gives the UIDs (8 bytes, LSB first) the selected
    antenna's tags carry, asked each time an inventory request goes out; ``charge``
    (if given) is told the seconds of air time each part of an inventory takes.

    Faults: ``dead`` (MISO floats high: every read is FFh), ``bad_crc_once`` (UIDs
    whose next answer comes with a bad CRC, once each). ``requests`` keeps the
    inventory requests sent (flags, command, mask length, mask), ``air_s`` the air
    time charged in all.
    """

    def __init__(
        self,
        tags: Callable[[], Sequence[bytes]],
        charge: Callable[[float], None] | None = None,
        *,
        dsfid: int = 0x00,
    ) -> None:
        self.tags = tags
        self.charge = charge
        self.dsfid = dsfid
        self.dead = False
        self.bad_crc_once: set[bytes] = set()
        self.requests: list[bytes] = []
        self.air_s = 0.0
        self.regs = bytearray(32)
        self.fifo = bytearray()
        self.irq = 0
        self.powered = True
        self.on_irq: Callable[[bool], None] | None = None
        """Told the IRQ pin's level each time it changes."""
        self._reset()

    # -- SPI --------------------------------------------------------------------------
    def select(self) -> None:
        """CS went low: a transaction starts with an address/command byte."""
        self._mode = "address"

    def deselect(self) -> None:
        """CS went high: the transaction ends."""
        self._mode = "address"
        self._start_tx_if_complete()
        if self._due:
            self._due -= 1
            if not self._due:
                self._outcome()

    def exchange(self, out: int) -> int:
        """Clock ``out`` in on MOSI; the byte on MISO."""
        if self.dead:
            return 0xFF
        if not self.powered:
            return 0x00
        if self._mode == "address":
            self._address_byte(out)
            return 0x00
        if self._mode == "read_done":
            raise SpiProtocolError(
                "a single (non-continuous) register read clocked a second byte; "
                "use continuous mode (B5) to read on"
            )
        if self._mode in ("read", "read_more"):
            value = self.read(self._address)
            if self._mode == "read":
                self._mode = "read_done"
            elif self._address < FIFO:
                self._address += 1
            return value
        self.write(self._address, out)
        if self._mode == "write":
            self._mode = "address"  # single mode: the next byte is an address again
        elif self._address < FIFO:
            self._address += 1
        return 0x00

    def _address_byte(self, byte: int) -> None:
        if byte & 0x80:
            if byte & 0x60:
                raise SpiProtocolError(
                    f"command byte {byte:02X}h has B6/B5 set; a direct command has both 0"
                )
            self._command(byte & 0x1F)
            return
        address = byte & 0x1F
        if address not in _ADDRESSES:
            raise SpiProtocolError(f"register {address:02X}h is not in SLOS757G Table 6-15")
        self._address = address
        if byte & 0x40:
            self._mode = "read_more" if byte & 0x20 else "read"
        else:
            self._mode = "write_more" if byte & 0x20 else "write"

    # -- power ------------------------------------------------------------------------
    def power(self, on: bool) -> None:
        """EN: low powers the chip down, its rising edge resets every register."""
        if on and not self.powered:
            self._reset()
        self.powered = on
        if not on:
            self._set_irq(0)

    def _reset(self) -> None:
        self.regs[:] = bytes(32)
        for reg, value in _DEFAULTS.items():
            self.regs[reg] = value
        self._preset()
        self.fifo.clear()
        self._slots: list[list[bytes]] = []  # each slot's answering UIDs
        self._slot = -1
        self._awaiting = False  # the end of TX is up; its slot's outcome follows
        self._due = 0  # transactions to end before that outcome arrives
        self._rest = b""  # what of an answer is still to reach the FIFO
        self._tx_armed: int | None = None  # TRANSMIT_* until the frame is complete
        self._receiver = True
        self._mode = "address"  # read, read_done, read_more (continuous), write, write_more
        self._address = 0
        self._set_irq(0)

    def _preset(self) -> None:
        presets = _PRESETS.get(self.regs[ISO_CONTROL] & 0x1F)
        if presets is not None:
            self.regs[RX_NO_RESPONSE_WAIT], self.regs[RX_WAIT_TIME] = presets

    @property
    def field(self) -> bool:
        """Whether the transmitter radiates (Chip Status Control rf_on, powered)."""
        return self.powered and bool(self.regs[CHIP_STATUS] & RF_ON)

    # -- registers --------------------------------------------------------------------
    def read(self, reg: int) -> int:
        """What a register read returns, with its effects (IRQ Status clears)."""
        if reg == IRQ_STATUS:
            value = self.irq
            self._set_irq(0)
            if (value & IRQ_TX and self._awaiting) or (value & IRQ_FIFO and self._rest):
                # The outcome comes once this transaction and the next have ended
                # (the driver's Reset FIFO after TX, or its FIFO read).
                self._awaiting = False
                self._due = 2
            return value
        if reg == FIFO:
            return self.fifo.pop(0) if self.fifo else 0x00
        if reg == FIFO_STATUS:
            value = (len(self.fifo) - 1) & 0x0F if self.fifo else 0
            return value | (self.regs[FIFO_STATUS] & 0x10)
        return self.regs[reg]

    def write(self, reg: int, value: int) -> None:
        """A register write, with its effects."""
        if reg in _READ_ONLY:
            return
        if reg == FIFO:
            if len(self.fifo) >= FIFO_SIZE:
                self.regs[FIFO_STATUS] |= 0x10  # Fove: too many bytes written
            else:
                self.fifo.append(value)
            return
        self.regs[reg] = value
        if reg == ISO_CONTROL:
            if value & RX_CRC_OFF:
                raise SpiProtocolError("rx_crc_n = 1 (no receive CRC) is not modelled")
            self._set_irq(0)
            self._preset()

    def _set_irq(self, value: int) -> None:
        was = bool(self.irq)
        self.irq = value
        if bool(value) != was and self.on_irq is not None:
            self.on_irq(bool(value))

    # -- commands -----------------------------------------------------------------------
    def _command(self, command: int) -> None:
        if command == SOFT_INIT:
            self._reset()
        elif command == RESET_FIFO:
            self.fifo.clear()
            self.regs[FIFO_STATUS] = 0
        elif command in (TRANSMIT_CRC, TRANSMIT_NO_CRC):
            self.fifo.clear()
            self._tx_armed = command
        elif command == NEXT_SLOT:
            self._next_slot()
        elif command == BLOCK_RECEIVER:
            self._receiver = False
        elif command == ENABLE_RECEIVER:
            self._receiver = True
        elif command != IDLE:
            raise SpiProtocolError(f"direct command {command:02X}h is not modelled")

    def _start_tx_if_complete(self) -> None:
        if self._tx_armed is None:
            return
        length = (self.regs[TX_LENGTH_1] << 4) | (self.regs[TX_LENGTH_2] >> 4)
        if length == 0 or len(self.fifo) < length:
            return
        frame = bytes(self.fifo[:length])
        del self.fifo[:length]
        crc = self._tx_armed == TRANSMIT_CRC
        self._tx_armed = None
        self.regs[TX_LENGTH_1] = self.regs[TX_LENGTH_2] = 0  # reset at TX EOF
        self._transmit(frame, crc)

    def _air(self, seconds: float) -> None:
        self.air_s += seconds
        if self.charge is not None:
            self.charge(seconds)

    def _transmit(self, frame: bytes, crc: bool) -> None:
        extra = len(frame) + 2 - timing.REQUEST_BYTES
        self._air(timing.request_s() + extra * 8 * timing.BIT_S)
        self._slots = []
        if crc and len(frame) >= 3 and frame[0] & FLAG_INVENTORY and frame[1] == INVENTORY:
            self.requests.append(frame)
            self._slots = self._answers(frame)
        self._slot = 0
        self._end_tx()

    def _answers(self, frame: bytes) -> list[list[bytes]]:
        flags, bits = frame[0], frame[2]
        if flags & FLAG_AFI:
            raise SpiProtocolError("the fake tags do not model AFI")
        one_slot = bool(flags & FLAG_ONE_SLOT)
        if bits > (64 if one_slot else 60) or len(frame) != 3 + (bits + 7) // 8:
            return []  # not a valid request: no tag answers
        mask = int.from_bytes(frame[3:], "little") & ((1 << bits) - 1)
        slots: list[list[bytes]] = [[] for _ in range(1 if one_slot else 16)]
        if not self.field:
            return slots
        for uid in self.tags():
            if len(uid) != 8:
                raise SpiProtocolError(f"an ISO/IEC 15693 UID has 8 bytes, not {len(uid)}")
            value = int.from_bytes(uid, "little")
            if value & ((1 << bits) - 1) == mask:
                slots[0 if one_slot else (value >> bits) & 0x0F].append(uid)
        return slots

    def _end_tx(self) -> None:
        self._awaiting = True
        self._set_irq(self.irq | IRQ_TX)

    def _next_slot(self) -> None:
        if not self._slots or self._slot + 1 >= len(self._slots):
            raise SpiProtocolError("End of Frame/Next Slot sent with no inventory slot left")
        self._air(timing.READER_EOF_S)
        self._slot += 1
        self._end_tx()

    def _outcome(self) -> None:
        """The tags' answers in the current slot, as the receiver sees them."""
        if self._rest:
            self._deliver(self._rest, last=True)
            return
        tags = self._slots[self._slot] if 0 <= self._slot < len(self._slots) else []
        if not self._receiver or not tags:
            self._air(timing.empty_slot_s())
            self._set_irq(IRQ_NO_RESPONSE)
            return
        self._air(timing.answer_slot_s())
        if len(tags) > 1:
            self._set_irq(IRQ_SRX | IRQ_COLLISION)
            return
        uid = tags[0]
        answer = with_crc(bytes((0x00, self.dsfid)) + uid)
        if uid in self.bad_crc_once:
            self.bad_crc_once.discard(uid)
            answer = answer[:-1] + bytes((answer[-1] ^ 0x5A,))
        if not crc_ok(answer):
            self._set_irq(IRQ_SRX | IRQ_CRC)
            return
        self._deliver(answer[:-2], last=False)

    def _deliver(self, data: bytes, last: bool) -> None:
        room = FIFO_SIZE - len(self.fifo)
        if not last and len(data) > FIFO_HIGH - 1 and room >= FIFO_HIGH:
            # Fhil: with 9 bytes in, the chip asks to be read before the rest.
            self.fifo += data[:FIFO_HIGH]
            self._rest = data[FIFO_HIGH:]
            self._set_irq(IRQ_SRX | IRQ_FIFO)
            return
        if len(data) > room:
            self.regs[FIFO_STATUS] |= 0x10
            data = data[:room]
        self.fifo += data
        self._rest = b""
        self._set_irq(IRQ_SRX)


class Trf7962aBoard:
    """A :class:`Trf7962a` wired to a fake Pico: SPI bus ``spi_bus``, CS on
    ``cs_pin`` (active low), EN on ``enable_pin`` (None: tied high), IRQ to
    ``irq_pin`` (None: not wired)."""

    def __init__(
        self,
        bench: Bench,
        reader: Trf7962a,
        *,
        spi_bus: int,
        cs_pin: int,
        enable_pin: int | None = None,
        irq_pin: int | None = None,
    ) -> None:
        self.reader = reader
        self._bench = bench
        self.cs_pin = cs_pin
        bench.attach_spi(spi_bus, self)
        bench.listen(cs_pin, lambda _pin, level: reader.deselect() if level else reader.select())
        if enable_pin is not None:
            bench.listen(enable_pin, lambda _pin, level: reader.power(bool(level)))
            reader.power(bool(bench.levels.get(enable_pin, 0)))
        if irq_pin is not None:
            reader.on_irq = lambda high: bench.set_level(irq_pin, int(high))
            bench.set_level(irq_pin, int(bool(reader.irq)))

    def transfer(self, out: int) -> int:
        if self._bench.levels.get(self.cs_pin, 1):
            return 0xFF  # not selected: MISO is not driven
        return self.reader.exchange(out)
