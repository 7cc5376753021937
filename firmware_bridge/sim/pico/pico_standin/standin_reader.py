"""The stand-in's MFRC522 and its cards, for the MicroPython unix port: one reader
whose antenna the analog multiplexers switch from square to square, and an ISO/IEC
14443-3 type A card in a slot made once per square (``machine.py`` holds the bench
of pins and buses they hang on; ``fake_mfrc522.py`` is the CPython model of the same
part, with the data sheet references)."""

from machine import bench


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
    """An ISO/IEC 14443-3 type A card with a 4- or 7-byte UID, in a slot made once
    per square: laying a card writes its UID into the slot, so the stand-in holds
    the same heap whatever lies on the board."""

    def __init__(self):
        self.uid = bytearray(7)
        self.size = 0
        self.present = False
        self.state = "OFF"
        self.level = 0

    def lay(self, uid):
        self.uid[: len(uid)] = uid
        self.size = len(uid)
        self.present = True
        self.state = "OFF"
        self.level = 0

    def holds(self, uid):
        return self.present and self.size == len(uid) and self.uid[: self.size] == uid

    def _levels(self):
        return 1 if self.size == 4 else 2

    def _part(self, level):
        uid = self.uid
        if self.size == 4:
            return bytes(uid[:4])
        return b"\x88" + bytes(uid[:3]) if level == 0 else bytes(uid[3:7])

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
                return bytes((((self._levels() - 1) << 6) | 0x04, 0))
            return None
        if self.state == "READY" and len(frame) >= 2 and frame[0] == (0x93, 0x95, 0x97)[self.level]:
            part = self._part(self.level)
            if frame[1] == 0x20:
                return part + bytes((_bcc(part),))
            if frame[1] == 0x70 and frame[2:6] == part and crc_a(frame[:7]) == frame[7:]:
                if self.level + 1 < self._levels():
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
        self.slots = [Card() for _ in range(cells)]
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
        if self.antenna is None:
            return None
        card = self.slots[self.antenna]
        return card if card.present else None

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

    def placed(self):
        """The squares a card lies on."""
        return [i for i in range(self.cells) if self.slots[i].present]

    def place(self, index, uid):
        card = self.slots[index]
        if card.holds(uid):
            return
        card.power(False)
        card.lay(uid)
        if index == self.antenna:
            card.power(self._field)

    def lift(self, index):
        card = self.slots[index]
        if card.present:
            card.power(False)
            card.present = False

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
