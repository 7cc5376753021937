"""One TI TRF7962A ISO/IEC 15693 reader over SPI, the reader the row and column
antennas share (docs/rf.md, "For the firmware").

Only what the board needs: start the chip for ISO/IEC 15693 at the high data rate
with one subcarrier, switch its field on and off at half power, and inventory every
tag on the selected antenna (16 slots, then further rounds with a mask for the slots
where tags collided). Every wait is a deadline in microseconds (``ticks_us``), never
a count of register reads, so a faster chip or SPI clock changes nothing.

Sources, named at each figure: TI TRF7962A datasheet SLOS757G (December 2011,
revised March 2020); where the TRF7962A pages at hand do not show a table, the
TRF7960A datasheet SLOS732G (same family, the same register, command and IRQ layout,
same revision date) or the TRF7970A datasheet SLOS743M; TI application reports
SLOA140B (Using the SPI Interface With TRF7960, it names the TRF7962A) and SLOA248B
(TRF7960A/62A/63A FAQ); ISO/IEC 15693-3 for the inventory and its anticollision.
"""

try:
    from . import ticks
except ImportError:
    import ticks

# Registers (SLOS757G Table 6-15, register overview).
CHIP_STATUS = 0x00
ISO_CONTROL = 0x01
RX_NO_RESPONSE_WAIT = 0x07
RX_WAIT_TIME = 0x08
IRQ_STATUS = 0x0C
COLLISION_POSITION = 0x0E  # read-only; not used: the slot, not the bit, decides
RSSI_LEVELS = 0x0F  # read-only; not used by the inventory
FIFO_STATUS = 0x1C
TX_LENGTH_1 = 0x1D
TX_LENGTH_2 = 0x1E
FIFO = 0x1F

# The address/command byte (SLOS732G Table 6-12, as its edition ZHCS266F numbers it;
# SLOS743M Table 6-20): B7 1 = direct command, 0 = register address; B6 1 = read; B5
# 1 = continuous addressing; B4-B0 the address or the command. SLOA140B §1.1 has the
# TRF7960 read MISO with the clock phase switched after the address byte: the caller
# sets ``spi`` up; check the phase on the bench.
COMMAND = 0x80
READ = 0x40
CONTINUOUS = 0x20

# Direct commands (SLOS743M Table 6-19; SLOS732G §6.13.1 Command Codes; SLOA140B
# Table 2).
IDLE = 0x00
SOFT_INIT = 0x03
RESET_FIFO = 0x0F
TRANSMIT_CRC = 0x11
NEXT_SLOT = 0x14  # "end of frame and transmit next time slot", ISO/IEC 15693 only
BLOCK_RECEIVER = 0x16
ENABLE_RECEIVER = 0x17

# Chip Status Control (SLOS757G §6.14.1.1.1; the bits as TRF7964A SLOS787J Table
# 6-20 lists them): B5 rf_on, B4 rf_pwr (1 = half power: 100 mW at 5 V, the power
# the attenuator was sized for, wiring/rf/parts.py), B0 vrs5_3 (1 = 5 V supply).
# Its default is 01h after EN or power-on; B0 is kept as the chip holds it.
RF_ON = 0x20
RF_HALF_POWER = 0x10
_STATUS_KEEP = 0x0F  # pm_on, rec_on, vrs5_3: left as they are

# ISO Control (SLOS757G Table 6-17 and Table 6-18): 02h is ISO/IEC 15693 high bit
# rate, 26.48 kbps, one subcarrier, 1 out of 4 (its default); B7 rx_crc_n = 0 keeps
# the chip's receive CRC check on.
ISO_15693_HIGH_ONE_SUB_1_OF_4 = 0x02

# The chip presets these at each ISO Control write, but SLOA140B §1.4 found the
# TRF7960 does not in SPI mode: the driver writes them. RX No Response Wait (0x07),
# 37.76 us a step: 14h = 755 us, the ISO/IEC 15693 high data rate preset
# (SLOS743M Table 6-34; SLOS757G §6.14.1.2.2). RX Wait Time (0x08), 9.44 us a step:
# 1Fh = 293 us, its default and the ISO/IEC 15693 preset (SLOS757G Table 6-21).
NO_RESPONSE_WAIT = 0x14
RX_WAIT = 0x1F

# IRQ Status (SLOS732G Table 6-33; SLOS743M Table 6-43). Read clears it; in SPI mode
# it clears only after a dummy read of one more byte (SLOA140B §1.2).
IRQ_TX = 0x80  # end of TX
IRQ_SRX = 0x40  # RX started (the IRQ comes at RX end)
IRQ_FIFO = 0x20  # FIFO high (9 bytes in RX) or low (TX)
IRQ_CRC = 0x10  # receive CRC error
IRQ_PARITY = 0x08  # parity error (ISO/IEC 14443 A only)
IRQ_FRAMING = 0x04  # byte framing or EOF error
IRQ_COLLISION = 0x02  # collision (ISO/IEC 15693 single subcarrier)
IRQ_NO_RESPONSE = 0x01  # nobody answered within RX No Response Wait
_IRQ_BAD = IRQ_CRC | IRQ_FRAMING | IRQ_COLLISION

# FIFO Status (SLOS732G Table 6-39): B4 overflow, B3-B0 the bytes in the FIFO less
# one. The FIFO holds 12 bytes (SLOS732G §6.12.2).
FIFO_OVERFLOW = 0x10
FIFO_COUNT = 0x0F
FIFO_SIZE = 12

# ISO/IEC 15693-3: request flags (bit 2 high data rate, bit 3 inventory; bit 6
# Nb_slots 0 = 16 slots), the Inventory command, and its answer: flags, DSFID and
# the 8-byte UID (the chip checks and drops the 2 CRC bytes).
INVENTORY_FLAGS = 0x06
INVENTORY = 0x01
SLOTS = 16
MAX_MASK_BITS = 60  # with 16 slots the mask is at most 60 bits (ISO/IEC 15693-3)
ANSWER_BYTES = 10
# An inventory is bounded twice: at most MAX_ROUNDS rounds (40 tags took 13 to 17
# in the tests; a row holds at most 17 tags), and no new round starts INVENTORY_US after the
# first began. A round is at most 16 answered slots, about 70 ms on air
# (wiring/rf/timing.py), so an inventory ends within about 1.1 s, well inside the
# main loop's watchdog.
MAX_ROUNDS = 32
INVENTORY_US = 1000000

# Timing. EN high: "typical start-up time from complete power down is in the range
# of 3.5 ms" (SLOS732G §6.8, Oscillator Section); the driver waits that long and then
# gives the chip up to START_US to read back its ISO Control default. No minimum EN
# low time, nor a wait after Software Initialization, is stated in the pages at
# hand: 1 ms is held for each (SLOS787J asks for an Idle command after the latter).
# A slot's outcome (the EOF or request on air, t1, an answer of 12 bytes: about 4 ms,
# wiring/rf/timing.py) or its no-response timeout (755 us) comes well within SLOT_US;
# past it the reader is taken for dead.
START_TYPICAL_US = 3500
START_US = 20000
EN_LOW_US = 1000
SOFT_INIT_US = 1000
SLOT_US = 20000


class ReaderError(Exception):
    """The reader does not answer, or stopped answering: what is wrong, for a maker."""


def _silent(value):
    return value in (0x00, 0xFF)


class Trf7962a:
    """The reader on ``spi`` with chip select ``cs`` (active low); ``enable`` (optional)
    the pin wired to its EN, high while the chip runs; ``irq`` (optional) its IRQ
    output (active high), else the IRQ Status register is polled."""

    def __init__(self, spi, cs, enable=None, irq=None):
        self.spi = spi
        self.cs = cs
        self.enable = enable
        self.irq = irq
        self.cs.value(1)
        if enable is not None:
            enable.value(1)
        self._two = bytearray(2)
        self._first = memoryview(self._two)[:1]  # made once: no heap per transfer
        self._second = memoryview(self._two)[1:]
        self._out = bytearray(5 + 3 + 8)  # 3 command bytes, 2 length, the frame
        self._answer = bytearray(FIFO_SIZE)
        self.bad_frames = 0
        """Slots whose answer came with a CRC, framing or collision error."""
        self.rounds = 0
        """Rounds (16 slots each) the last inventory took."""
        self.complete = True
        """Whether the last inventory resolved every slot (False: a bound stopped it,
        or a collision was left at the full 60-bit mask; some tag may be unread)."""

    # -- SPI ------------------------------------------------------------------------
    def _command(self, command):
        # A stand-alone direct command needs one more SCLK cycle before CS rises
        # (SLOA140B §1.3); SPI clocks whole bytes, so a dummy byte follows: an
        # address byte with no data after it, which writes nothing.
        self._two[0] = COMMAND | command
        self._two[1] = 0x00
        self.cs.value(0)
        self.spi.write(self._two)
        self.cs.value(1)

    def _write(self, reg, value):
        self._two[0] = reg & 0x1F
        self._two[1] = value
        self.cs.value(0)
        self.spi.write(self._two)
        self.cs.value(1)

    def _read(self, reg):
        self._two[0] = READ | (reg & 0x1F)
        self.cs.value(0)
        self.spi.write(self._first)
        self.spi.readinto(self._second, 0)
        self.cs.value(1)
        return self._two[1]

    def _irq_status(self):
        # Continuous read from 0x0C: the second byte is the dummy read that clears it.
        self._two[0] = READ | CONTINUOUS | IRQ_STATUS
        self.cs.value(0)
        self.spi.write(self._first)
        self.spi.readinto(self._two, 0)
        self.cs.value(1)
        return self._two[0]

    def _read_fifo(self, into, start):
        """Move what the FIFO holds to ``into[start:]``; the new end."""
        status = self._read(FIFO_STATUS)
        if status == 0xFF:
            raise ReaderError(
                "the reader stopped answering (FIFO Status reads FFh): check 3V3/5V, EN"
            )
        count = (status & FIFO_COUNT) + 1
        if start + count > len(into):
            return -1
        self._one_byte(READ | CONTINUOUS | FIFO)
        self.spi.readinto(memoryview(into)[start : start + count], 0)
        self.cs.value(1)
        return start + count

    def _one_byte(self, byte):
        self._two[0] = byte
        self.cs.value(0)
        self.spi.write(self._first)

    # -- set-up -----------------------------------------------------------------------
    def hard_reset(self):
        """Pull EN low and high again: every register back to its default. False
        without an EN pin, or when the chip did not answer within START_US."""
        if self.enable is None:
            return False
        self.enable.value(0)
        ticks.sleep_us(EN_LOW_US)
        self.enable.value(1)
        ticks.sleep_us(START_TYPICAL_US)
        start = ticks.ticks_us()
        while self._read(ISO_CONTROL) != ISO_15693_HIGH_ONE_SUB_1_OF_4:
            if ticks.ticks_diff(ticks.ticks_us(), start) > START_US:
                return False
        return True

    def start(self):
        """Initialise the chip for ISO/IEC 15693 with the field off; ReaderError if it
        does not answer or does not keep what is written."""
        # Just after EN rose the oscillator may still be starting (3.5 ms typical):
        # wait for ISO Control to read anything but 00h/FFh, up to START_US.
        begin = ticks.ticks_us()
        while _silent(self._read(ISO_CONTROL)):
            if ticks.ticks_diff(ticks.ticks_us(), begin) > START_US:
                break
        self._command(SOFT_INIT)
        self._command(IDLE)  # after a soft init, to let it finish (SLOS787J, Idle)
        ticks.sleep_us(SOFT_INIT_US)
        self._write(ISO_CONTROL, ISO_15693_HIGH_ONE_SUB_1_OF_4)
        self._write(RX_NO_RESPONSE_WAIT, NO_RESPONSE_WAIT)
        self._write(RX_WAIT_TIME, RX_WAIT)
        iso = self._read(ISO_CONTROL)
        wait = self._read(RX_NO_RESPONSE_WAIT)
        if _silent(iso) and _silent(wait):
            raise ReaderError(
                f"no reader answers on SPI (registers read {iso:02X}h): check the reader's "
                "supply, EN high, CS and the SPI wires"
            )
        if iso != ISO_15693_HIGH_ONE_SUB_1_OF_4 or wait != NO_RESPONSE_WAIT:
            raise ReaderError(
                f"the reader does not keep what is written (ISO Control reads {iso:02X}h, "
                "not 02h): check MOSI, SCLK and the SPI mode"
            )
        self.field(False)

    def field(self, on):
        """Switch the RF field on or off, always at half power (rf_pwr = 1)."""
        status = self._read(CHIP_STATUS)
        if status == 0xFF:
            raise ReaderError(
                "the reader stopped answering (Chip Status reads FFh): check its supply"
            )
        status = (status & _STATUS_KEEP) | RF_HALF_POWER
        self._write(CHIP_STATUS, status | RF_ON if on else status)

    # -- inventory ----------------------------------------------------------------------
    def _send(self, mask, bits):
        """Reset FIFO, Transmission with CRC, and the request into the FIFO, in one
        SPI transaction from TX Length Byte1 on (SLOA140B §1.5's sequence)."""
        out = self._out
        size = 3 + (bits + 7) // 8
        out[0] = COMMAND | RESET_FIFO
        out[1] = COMMAND | TRANSMIT_CRC
        out[2] = CONTINUOUS | TX_LENGTH_1
        # TX Length: Byte1 the high and middle nibbles of the byte count, Byte2 the low
        # nibble in B7-B4 (SLOS787J Tables 6-47/6-48; SLOS732G §6.12.2).
        out[3] = size >> 4
        out[4] = (size & 0x0F) << 4
        out[5] = INVENTORY_FLAGS
        out[6] = INVENTORY
        out[7] = bits
        for i in range((bits + 7) // 8):
            out[8 + i] = (mask >> (8 * i)) & 0xFF
        self.cs.value(0)
        self.spi.write(memoryview(out)[: 5 + size])
        self.cs.value(1)

    def _next_slot(self):
        self._two[0] = COMMAND | RESET_FIFO
        self._two[1] = COMMAND | NEXT_SLOT
        self.cs.value(0)
        self.spi.write(self._two)
        self._two[0] = 0x00  # the dummy clock after a stand-alone command
        self.spi.write(self._first)
        self.cs.value(1)

    def _wait_irq(self):
        start = ticks.ticks_us()
        while True:
            if self.irq is None or self.irq.value():
                irq = self._irq_status()
                if irq:
                    return irq
            if ticks.ticks_diff(ticks.ticks_us(), start) > SLOT_US:
                irq = self._irq_status()  # the loop may have been late: reading clears it
                if irq:
                    return irq
                raise ReaderError(
                    "the reader stopped answering (no interrupt within "
                    f"{SLOT_US // 1000} ms of a slot): check its supply, EN and the IRQ wire"
                )

    def _slot(self):
        """One slot's outcome: 0 nobody, 1 a clean answer in ``_answer``, 2 a
        collision or a damaged answer (read again in a further round)."""
        got = 0
        while True:
            irq = self._wait_irq()
            if irq == 0xFF:
                raise ReaderError(
                    "the reader stopped answering (IRQ Status reads FFh): check its supply"
                )
            if irq & _IRQ_BAD:
                self.bad_frames += 1
                return 2
            if irq & IRQ_NO_RESPONSE:
                return 0
            if irq & IRQ_SRX:
                got = self._read_fifo(self._answer, got)
                if got < 0:
                    return 2
                if irq & IRQ_FIFO:
                    continue  # the rest of the answer follows
                if got != ANSWER_BYTES or self._answer[0] & 0x01:
                    return 2  # not an inventory answer, or its error flag
                return 1
            if irq & IRQ_TX:
                # The request or EOF is out: clear the FIFO before the answer comes
                # (SLOA248B, "What does an IRQ status of 0xC0 mean").
                self._command(RESET_FIFO)
                continue

    def _round(self, mask, bits, found, pending):
        self._send(mask, bits)
        for slot in range(SLOTS):
            if slot:
                self._next_slot()
            outcome = self._slot()
            if outcome == 1:
                uid = bytes(self._answer[2:ANSWER_BYTES])
                if uid not in found:
                    found.append(uid)
            elif outcome == 2:
                if bits + 4 <= MAX_MASK_BITS:
                    pending.append((mask | (slot << bits), bits + 4))
                else:
                    self.complete = False

    def inventory(self):
        """The 8-byte UIDs (LSB first, as sent on air) of every tag in the field:
        a 16-slot inventory, then one further round per slot where answers collided
        or came damaged, with that slot's number added to the mask (ISO/IEC 15693-3,
        anticollision), within MAX_ROUNDS rounds and INVENTORY_US (``complete`` says
        whether every slot was resolved). The field must be on."""
        found = []
        pending = [(0, 0)]
        self.rounds = 0
        self.complete = True
        start = ticks.ticks_us()
        while pending:
            if self.rounds >= MAX_ROUNDS or (
                ticks.ticks_diff(ticks.ticks_us(), start) > INVENTORY_US
            ):
                self.complete = False
                break
            mask, bits = pending.pop()
            self.rounds += 1
            self._round(mask, bits, found, pending)
        return found
