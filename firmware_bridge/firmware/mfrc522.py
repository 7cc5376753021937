"""One MFRC522 over SPI, the reader the antenna multiplexer shares (antennas.py).

Only what the board needs: check the chip answers (VersionReg), switch its field on
and off, wake a card, read its 4-, 7- or 10-byte UID, halt it. Every wait is a
deadline in microseconds (``ticks_us``), never a count of register reads, so a
faster chip or SPI clock changes nothing.
"""

try:
    from . import ticks
except ImportError:
    import ticks

_COMMAND = 0x01
_COM_IRQ = 0x04
_ERROR = 0x06
_FIFO_DATA = 0x09
_FIFO_LEVEL = 0x0A
_BIT_FRAMING = 0x0D
_MODE = 0x11
_TX_CONTROL = 0x14
_TX_ASK = 0x15
_T_MODE = 0x2A
_T_PRESCALER = 0x2B
_T_RELOAD_H = 0x2C
_T_RELOAD_L = 0x2D
_VERSION = 0x37

_IDLE = 0x00
_TRANSCEIVE = 0x0C
_SOFT_RESET = 0x0F
_POWER_DOWN = 0x10

_WUPA = 0x52
_HLTA = 0x50
_CASCADE_TAG = 0x88
_SAK_UID_INCOMPLETE = 0x04
_LEVELS = (0x93, 0x95, 0x97)

# VersionReg (37h) of the chips sold on MFRC522 modules; 00h or FFh means nothing
# answers on the bus. 91h and 92h: NXP's MFRC522 data sheet, Rev. 3.9 (27 April
# 2016), 9.3.4.8 VersionReg. 90h (version 0.0), 88h and B2h (Fudan's FM17522, two
# revisions), 89h (FM17522E) and 12h (a counterfeit): the values the chips answer
# as the miguelbalboa/rfid Arduino library lists them (MFRC522.cpp), which takes
# version 0.0 from Philips' preliminary specification Rev. 2.0 (2005), 16.1.
VERSIONS = {
    0x90: "MFRC522 v0.0",
    0x91: "MFRC522 v1.0",
    0x92: "MFRC522 v2.0",
    0x88: "FM17522",
    0xB2: "FM17522 (B2h revision)",
    0x89: "FM17522E",
    0x12: "MFRC522 (counterfeit)",
}

# The chip's own timer ends a transceive nobody answers: TPrescaler 169 gives
# 13.56 MHz / 339 = 40 kHz, and 40 ticks make 1 ms (a card answers in ~0.1 ms).
_TIMER_PRESCALER = 169
_TIMER_RELOAD = 40
RESET_US = 2000  # SoftReset: the oscillator restarts within ~40 us; 2 ms is generous
# NRSTPD low powers the chip down (hard power-down) and its rising edge resets it
# (data sheet Rev. 3.9, "Hard power-down"): the reset pin is held low this long,
# then the chip is given its oscillator's start-up (the crystal's plus 37.74 us,
# 8.8.2) within a generous deadline.
RESET_LOW_US = 100
HARD_RESET_US = 50000
REPLY_US = 5000  # the timer ends every transceive in 1 ms; 5 ms means a dead chip


# The frames every read sends, made once at import rather than at every read.
_WUPA_FRAME = bytes((_WUPA,))
_ANTICOLLISION = tuple(bytes((level, 0x20)) for level in _LEVELS)


class ReaderError(Exception):
    """The reader stopped answering: its SPI replies make no sense or come too late."""


def crc_a(data):
    """The ISO/IEC 14443-A CRC, low byte first."""
    crc = 0x6363
    for byte in data:
        ch = (byte ^ crc) & 0xFF
        ch = (ch ^ (ch << 4)) & 0xFF
        crc = ((crc >> 8) ^ (ch << 8) ^ (ch << 3) ^ (ch >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


_HALT_FRAME = bytes((_HLTA, 0)) + crc_a(bytes((_HLTA, 0)))  # HLTA with its CRC_A


def version_name(version):
    """What a VersionReg value says: a chip name, or why it is no chip."""
    if version in (0x00, 0xFF):
        return "no reader answers (VersionReg %02Xh): check 3V3, SPI, CS" % version
    return VERSIONS.get(version, "unknown chip, VersionReg %02Xh" % version)


class Mfrc522:
    """The reader on ``spi`` with chip-select ``cs`` (active low); ``reset`` (optional)
    the pin wired to its NRSTPD, high while the chip runs."""

    def __init__(self, spi, cs, reset=None):
        self.spi = spi
        self.cs = cs
        self.reset = reset
        self.cs.value(1)
        if reset is not None:
            reset.value(1)
        self._one = bytearray(1)
        self._two = bytearray(2)

    def _write(self, reg, value):
        self._two[0] = (reg << 1) & 0x7E
        self._two[1] = value
        self.cs.value(0)
        self.spi.write(self._two)
        self.cs.value(1)

    def _read(self, reg):
        self.cs.value(0)
        self._one[0] = ((reg << 1) & 0x7E) | 0x80
        self.spi.write(self._one)
        self.spi.readinto(self._one, 0)
        self.cs.value(1)
        return self._one[0]

    def version(self):
        return self._read(_VERSION)

    def answering(self):
        return self._read(_VERSION) not in (0x00, 0xFF)

    def hard_reset(self):
        """Pulse NRSTPD low: the way back for a chip whose logic locked up, which a
        SoftReset sent over SPI cannot reach. False without a reset pin, or when the
        chip did not answer again within HARD_RESET_US."""
        if self.reset is None:
            return False
        self.reset.value(0)
        ticks.sleep_us(RESET_LOW_US)
        self.reset.value(1)
        start = ticks.ticks_us()
        while not self.answering():
            if ticks.ticks_diff(ticks.ticks_us(), start) > HARD_RESET_US:
                return False
        return True

    def init(self):
        """Reset the chip and set it up with the field off; ReaderError if it does not answer."""
        if not self.answering():
            raise ReaderError(version_name(self.version()))
        self._write(_COMMAND, _SOFT_RESET)
        # Writes are lost until the chip has woken: PowerDown reads 1 till then.
        start = ticks.ticks_us()
        while self._read(_COMMAND) & _POWER_DOWN:
            if ticks.ticks_diff(ticks.ticks_us(), start) > RESET_US:
                raise ReaderError("the reader did not wake from its soft reset")
        self._write(_T_MODE, 0x80 | (_TIMER_PRESCALER >> 8))
        self._write(_T_PRESCALER, _TIMER_PRESCALER & 0xFF)
        self._write(_T_RELOAD_L, _TIMER_RELOAD)
        self._write(_T_RELOAD_H, 0)
        self._write(_TX_ASK, 0x40)
        self._write(_MODE, 0x3D)
        self.field(False)

    def field(self, on):
        """Switch the antenna drivers (TX1 and TX2) on or off."""
        value = self._read(_TX_CONTROL)
        self._write(_TX_CONTROL, (value | 0x03) if on else (value & 0xFC))

    def _transceive(self, data, last_bits=0):
        self._write(_COMMAND, _IDLE)
        self._write(_COM_IRQ, 0x7F)
        self._write(_FIFO_LEVEL, 0x80)
        for byte in data:
            self._write(_FIFO_DATA, byte)
        self._write(_BIT_FRAMING, last_bits)
        self._write(_COMMAND, _TRANSCEIVE)
        self._write(_BIT_FRAMING, 0x80 | last_bits)
        start = ticks.ticks_us()
        while True:
            irq = self._read(_COM_IRQ)
            if irq & 0x30:
                break
            if irq & 0x01:
                return None  # the timer ran out: no card answered
            if ticks.ticks_diff(ticks.ticks_us(), start) > REPLY_US:
                # Read once more after the deadline: the loop may have been late.
                if self._read(_COM_IRQ) & 0x31:
                    continue
                raise ReaderError("the reader stopped answering (no reply nor timeout in 5 ms)")
        self._write(_BIT_FRAMING, 0)
        if self._read(_ERROR) & 0x1B:
            return None
        n = self._read(_FIFO_LEVEL)
        return bytes(self._read(_FIFO_DATA) for _ in range(n))

    def read_uid(self):
        """The UID of the card in the field, or None when none answers cleanly."""
        atqa = self._transceive(_WUPA_FRAME, 7)
        if atqa is None or len(atqa) != 2:
            return None
        uid = bytearray()
        for step in range(len(_LEVELS)):
            level = _LEVELS[step]
            part = self._transceive(_ANTICOLLISION[step])
            if part is None or len(part) != 5:
                return None
            if part[0] ^ part[1] ^ part[2] ^ part[3] != part[4]:
                return None
            select = bytes((level, 0x70)) + part
            sak = self._transceive(select + crc_a(select))
            if sak is None or len(sak) != 3 or crc_a(sak[:1]) != sak[1:]:
                return None
            if sak[0] & _SAK_UID_INCOMPLETE:
                # The next cascade level follows: this one held the cascade tag.
                if part[0] != _CASCADE_TAG:
                    return None
                uid.extend(part[1:4])
                continue
            uid.extend(part[0:4])
            self._transceive(_HALT_FRAME)
            return bytes(uid)
        return None
