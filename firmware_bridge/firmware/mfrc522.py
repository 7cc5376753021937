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

# VersionReg of the chips sold on MFRC522 modules (data sheet 9.3.4.8, and the
# FM17522 clones); 00h or FFh means nothing answers on the bus.
VERSIONS = {0x88: "FM17522", 0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0", 0xB2: "FM17522E", 0x12: "MFRC522 (clone)"}

# The chip's own timer ends a transceive nobody answers: TPrescaler 169 gives
# 13.56 MHz / 339 = 40 kHz, and 40 ticks make 1 ms (a card answers in ~0.1 ms).
_TIMER_PRESCALER = 169
_TIMER_RELOAD = 40
RESET_US = 2000  # SoftReset: the oscillator restarts within ~40 us; 2 ms is generous
REPLY_US = 5000  # the timer ends every transceive in 1 ms; 5 ms means a dead chip


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


def version_name(version):
    """What a VersionReg value says: a chip name, or why it is no chip."""
    if version in (0x00, 0xFF):
        return "no reader answers (VersionReg %02Xh): check 3V3, SPI, CS" % version
    return VERSIONS.get(version, "unknown chip, VersionReg %02Xh" % version)


class Mfrc522:
    """The reader on ``spi`` with chip-select ``cs`` (active low)."""

    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs
        self.cs.value(1)
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
        atqa = self._transceive(bytes((_WUPA,)), 7)
        if atqa is None or len(atqa) != 2:
            return None
        uid = bytearray()
        for level in _LEVELS:
            part = self._transceive(bytes((level, 0x20)))
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
            halt = bytes((_HLTA, 0))
            self._transceive(halt + crc_a(halt))
            return bytes(uid)
        return None
