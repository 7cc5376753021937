"""MFRC522 RFID readers over SPI, one per cell, chosen through a multiplexer.

Only what the board needs: wake a card, read its 4-, 7- or 10-byte UID, halt it.
"""

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

_IDLE = 0x00
_TRANSCEIVE = 0x0C
_SOFT_RESET = 0x0F
_POWER_DOWN = 0x10

_WUPA = 0x52
_HLTA = 0x50
_CASCADE_TAG = 0x88
_SAK_UID_INCOMPLETE = 0x04
_LEVELS = (0x93, 0x95, 0x97)


def crc_a(data):
    """The ISO/IEC 14443-A CRC, low byte first."""
    crc = 0x6363
    for byte in data:
        ch = (byte ^ crc) & 0xFF
        ch = (ch ^ (ch << 4)) & 0xFF
        crc = ((crc >> 8) ^ (ch << 8) ^ (ch << 3) ^ (ch >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


class MuxedReaders:
    """Readers sharing one SPI bus and chip-select line; ``select`` pins carry the
    reader number in binary (least significant first) to the multiplexer that
    routes chip-select to that reader."""

    def __init__(self, spi, cs, select, cells, polls=60):
        self.spi = spi
        self.cs = cs
        self.select = select
        self.cells = cells
        self.polls = polls
        self.cs.value(1)
        self._one = bytearray(1)
        self._two = bytearray(2)

    def _choose(self, index):
        for bit, pin in enumerate(self.select):
            pin.value((index >> bit) & 1)

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

    def init_all(self):
        """Reset every reader and switch its antenna on."""
        for i in range(self.cells):
            self._choose(i)
            self._write(_COMMAND, _SOFT_RESET)
            # Writes are lost until the chip has woken: PowerDown reads 1 till then.
            for _ in range(self.polls):
                if not self._read(_COMMAND) & _POWER_DOWN:
                    break
            self._write(_T_MODE, 0x8D)
            self._write(_T_PRESCALER, 0x3E)
            self._write(_T_RELOAD_L, 30)
            self._write(_T_RELOAD_H, 0)
            self._write(_TX_ASK, 0x40)
            self._write(_MODE, 0x3D)
            self._write(_TX_CONTROL, self._read(_TX_CONTROL) | 0x03)

    def _transceive(self, data, last_bits=0):
        self._write(_COMMAND, _IDLE)
        self._write(_COM_IRQ, 0x7F)
        self._write(_FIFO_LEVEL, 0x80)
        for byte in data:
            self._write(_FIFO_DATA, byte)
        self._write(_BIT_FRAMING, last_bits)
        self._write(_COMMAND, _TRANSCEIVE)
        self._write(_BIT_FRAMING, 0x80 | last_bits)
        for _ in range(self.polls):
            irq = self._read(_COM_IRQ)
            if irq & 0x30:
                break
            if irq & 0x01:
                return None
        else:
            return None
        self._write(_BIT_FRAMING, 0)
        if self._read(_ERROR) & 0x1B:
            return None
        n = self._read(_FIFO_LEVEL)
        return bytes(self._read(_FIFO_DATA) for _ in range(n))

    def read_uid(self, index):
        """The UID of the card on reader ``index``, or None when none answers."""
        self._choose(index)
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
