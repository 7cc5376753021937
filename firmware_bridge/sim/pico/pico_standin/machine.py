"""A stand-in for the Pico's ``machine`` module, for the MicroPython unix port.

It runs inside MicroPython, beside the unchanged firmware files, and models the
board's electronics the firmware drives: the 74HC595/74HC165 switch matrix and
one MFRC522 whose antenna the analog multiplexers switch from square to square
(firmware_bridge/sim/pico/fake_machine.py and fake_mfrc522.py are the CPython models
of the same parts, with the data sheet references). ``board`` holds what lies on
the squares; ``simpico.py`` sets it from the host.
"""

import os


class Bench:
    def __init__(self):
        self.levels = {}
        self.listeners = {}
        self.spi = {}
        self.feeds = 0

    def set_level(self, pin, level):
        old = self.levels.get(pin)
        self.levels[pin] = level
        if old != level:
            for listener in self.listeners.get(pin, ()):
                listener(pin, level)

    def listen(self, pin, listener):
        self.listeners.setdefault(pin, []).append(listener)


bench = Bench()
_low = os.getenv("TABLETOP_PINS_LOW") or ""
for _p in _low.split(","):
    if _p:
        bench.levels[int(_p)] = 0


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        if value is not None:
            bench.set_level(id, 1 if value else 0)
        elif pull == Pin.PULL_UP and id not in bench.levels:
            bench.set_level(id, 1)

    def value(self, level=None):
        if level is None:
            return bench.levels.get(self.id, 0)
        bench.set_level(self.id, 1 if level else 0)
        return 0

    def __call__(self, level=None):
        return self.value(level)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class SPI:
    MSB = 0

    def __init__(self, id, baudrate=1000000, **settings):
        self.id = id

    def _transfer(self, out):
        device = bench.spi.get(self.id)
        return device.transfer(out) if device is not None else 0xFF

    def write(self, buf):
        for byte in buf:
            self._transfer(byte)

    def readinto(self, buf, write=0):
        for i in range(len(buf)):
            buf[i] = self._transfer(write)

    def read(self, n, write=0):
        return bytes(self._transfer(write) for _ in range(n))


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout

    def feed(self):
        bench.feeds += 1


class UART:
    def __init__(self, *args, **kwargs):
        raise OSError("the stand-in board has no UART: use LINK = 'usb'")


class Matrix:
    """Chained 74HC595s drive the rows, chained 74HC165s read the columns."""

    def __init__(self, bus, latch, load, rows, columns, active_low=True):
        self.rows = rows
        self.columns = columns
        self.active_low = active_low
        self.closed = set()
        self._row_bits = 8 * ((rows + 7) // 8)
        self._col_bits = 8 * ((columns + 7) // 8)
        self._shift = 0
        self._outputs = (1 << self._row_bits) - 1 if active_low else 0
        self._in = 0
        self._loading = False
        bench.spi[bus] = self
        bench.listen(latch, self._on_latch)
        bench.listen(load, self._on_load)

    def _on_latch(self, pin, level):
        if level:
            self._outputs = self._shift

    def _on_load(self, pin, level):
        self._loading = level == 0
        if self._loading:
            self._load()

    def _load(self):
        driven = 0 if self.active_low else 1
        word = (1 << self._col_bits) - 1 if self.active_low else 0
        for r in range(self.rows):
            if (self._outputs >> r) & 1 != driven:
                continue
            for c in range(self.columns):
                if r * self.columns + c in self.closed:
                    word = word & ~(1 << c) if self.active_low else word | (1 << c)
        out = 0
        for chip in range(self._col_bits // 8):
            out = (out << 8) | ((word >> (8 * chip)) & 0xFF)
        self._in = out

    def transfer(self, out):
        self._shift = ((self._shift << 8) | out) & ((1 << self._row_bits) - 1)
        if self._loading:
            self._load()
        top = self._col_bits - 8
        result = (self._in >> top) & 0xFF
        self._in = (self._in << 8) & ((1 << self._col_bits) - 1)
        return result


def crc_a(data):
    crc = 0x6363
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return bytes((crc & 0xFF, crc >> 8))


def _bcc(part):
    value = 0
    for byte in part:
        value ^= byte
    return value


class Card:
    """An ISO/IEC 14443-3 type A card with a 4- or 7-byte UID."""

    def __init__(self, uid):
        self.uid = uid
        if len(uid) == 4:
            self.parts = [uid]
        else:
            self.parts = [b"\x88" + uid[:3], uid[3:7]]
        self.atqa = bytes((((len(self.parts) - 1) << 6) | 0x04, 0))
        self.state = "OFF"
        self.level = 0

    def power(self, on):
        if not on:
            self.state = "OFF"
        elif self.state == "OFF":
            self.state = "IDLE"

    def answer(self, frame, last_bits):
        if self.state == "OFF":
            return None
        if last_bits == 7 and len(frame) == 1 and frame[0] in (0x26, 0x52):
            if self.state == "IDLE" or (self.state == "HALT" and frame[0] == 0x52):
                self.state = "READY"
                self.level = 0
                return self.atqa
            return None
        if self.state == "READY" and len(frame) >= 2 and frame[0] == (0x93, 0x95, 0x97)[self.level]:
            part = self.parts[self.level]
            if frame[1] == 0x20:
                return part + bytes((_bcc(part),))
            if frame[1] == 0x70 and frame[2:6] == part and crc_a(frame[:7]) == frame[7:]:
                if self.level + 1 < len(self.parts):
                    self.level += 1
                    sak = 0x04
                else:
                    self.state = "ACTIVE"
                    sak = 0x08
                return bytes((sak,)) + crc_a(bytes((sak,)))
        if self.state == "ACTIVE" and frame[:2] == b"\x50\x00":
            self.state = "HALT"
            return None
        self.state = "IDLE"
        return None


class MuxedReader:
    """One MFRC522 (the registers its driver touches) whose antenna reaches the
    square the select pins address; counts the fields on at once."""

    def __init__(self, bus, cs, select, cells):
        self.cs = cs
        self.select = select
        self.cells = cells
        self.cards = {}
        self.regs = bytearray(64)
        self.fifo = bytearray()
        self.antenna = None
        self.fields_on = 0
        self.max_fields_on = 0
        self.hot_switches = 0
        self._addr = None
        self._mode = 0
        self._waking = 0
        self._field = False
        bench.spi[bus] = self
        bench.listen(cs, self._on_cs)
        for pin in select:
            bench.listen(pin, self._route)
        self._reset()
        self._route(0, 0)

    def _reset(self):
        self.regs[:] = bytes(64)
        self.regs[0x01] = 0x20
        self.regs[0x14] = 0x80
        self.fifo = bytearray()
        self._set_field()

    def _card(self):
        return self.cards.get(self.antenna) if self.antenna is not None else None

    def _set_field(self):
        field = bool(self.regs[0x14] & 0x03) and not self.regs[0x01] & 0x10
        if field != self._field:
            self._field = field
            self.fields_on += 1 if field else -1
            self.max_fields_on = max(self.max_fields_on, self.fields_on)
            card = self._card()
            if card is not None:
                card.power(field)

    def _route(self, pin, level):
        address = 0
        for bit, p in enumerate(self.select):
            address |= bench.levels.get(p, 0) << bit
        antenna = address if address < self.cells else None
        if antenna == self.antenna:
            return
        if self._field:
            self.hot_switches += 1
        old = self._card()
        if old is not None:
            old.power(False)
        self.antenna = antenna
        card = self._card()
        if card is not None:
            card.power(self._field)

    def place(self, index, uid):
        card = self.cards.get(index)
        if card is not None and card.uid == uid:
            return
        card = Card(uid)
        self.cards[index] = card
        if index == self.antenna:
            card.power(self._field)

    def lift(self, index):
        card = self.cards.pop(index, None)
        if card is not None:
            card.power(False)

    def _on_cs(self, pin, level):
        self._mode = 0
        if level == 0 and self._waking:
            self._waking -= 1

    def transfer(self, out):
        if bench.levels.get(self.cs, 1):
            return 0xFF
        if self._mode == 0:
            self._addr = (out >> 1) & 0x3F
            self._mode = 1 if out & 0x80 else 2
            return 0
        if self._mode == 1:
            value = self._read(self._addr)
            self._addr = (out >> 1) & 0x3F if out else None
            return value
        self._write(self._addr, out)
        return 0

    def _read(self, reg):
        if reg is None:
            return 0
        if reg == 0x01:
            return self.regs[0x01] | (0x10 if self._waking else 0)
        if reg == 0x09:
            if not self.fifo:
                return 0
            value = self.fifo[0]
            self.fifo = self.fifo[1:]
            return value
        if reg == 0x0A:
            return len(self.fifo)
        if reg == 0x37:
            return 0x92
        return self.regs[reg]

    def _write(self, reg, value):
        if self._waking or reg is None:
            return
        if reg == 0x01:
            command = value & 0x0F
            if command == 0x0F:
                self._reset()
                self._waking = 2
                return
            self.regs[0x01] = value & 0x3F
            self._set_field()
        elif reg == 0x04:
            if value & 0x80:
                self.regs[0x04] |= value & 0x7F
            else:
                self.regs[0x04] &= ~value & 0xFF
        elif reg == 0x09:
            self.fifo.append(value)
        elif reg == 0x0A:
            if value & 0x80:
                self.fifo = bytearray()
        elif reg == 0x0D:
            self.regs[0x0D] = value
            if value & 0x80 and self.regs[0x01] & 0x0F == 0x0C:
                self._send()
        elif reg == 0x14:
            self.regs[0x14] = value
            self._set_field()
        elif reg not in (0x06, 0x37):
            self.regs[reg] = value

    def _send(self):
        frame = bytes(self.fifo)
        self.fifo = bytearray()
        card = self._card()
        reply = None
        if self._field and card is not None:
            reply = card.answer(frame, self.regs[0x0D] & 0x07)
        irq = 0x40
        if reply is None:
            irq |= 0x01 if self.regs[0x2A] & 0x80 else 0
        else:
            self.fifo.extend(reply)
            irq |= 0x20
        self.regs[0x06] = 0
        self.regs[0x04] |= irq
