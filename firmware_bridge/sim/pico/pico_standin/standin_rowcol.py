"""The stand-in's row and column RFID board, for the MicroPython unix port: the
TPIC6B595 chain decoded from its pins, one TRF7962A (the registers, direct commands,
FIFO and IRQ Status its driver uses) and the 8-byte tags on the squares, a slot made
once per square (``fake_rowcol.py`` and ``fake_trf7962a.py`` are the CPython models of
the same parts, with the data sheet references)."""

from machine import bench

_FIFO_SIZE = 12
_FIFO_HIGH = 9


class RowColumnReader:
    """``rows`` × ``columns`` squares, an antenna per row then per column on a chain of
    TPIC6B595s (SER ``ser``, SRCK ``srck``, RCK ``rck``, G ``g``), one TRF7962A on SPI
    bus ``bus`` with chip select ``cs`` and EN ``enable``."""

    def __init__(self, bus, cs, enable, ser, srck, rck, g, rows, columns):
        self.cs = cs
        self.ser = ser
        self.g = g
        self.rows = rows
        self.columns = columns
        cells = rows * columns
        self.cells = cells
        self.uids = [bytearray(8) for _ in range(cells)]
        self.present = bytearray(cells)
        self.bits = 8 * ((rows + columns + 7) // 8)
        self.shift = 0
        self.storage = 0
        self.fields_on = 0
        self.max_fields_on = 0
        self.hot_switches = 0
        self.regs = bytearray(32)
        # The FIFO in a buffer made once, read from ``_head`` to ``_tail``: the
        # stand-in makes no garbage in the heap the firmware shares.
        self._fifo = bytearray(_FIFO_SIZE)
        self._head = self._tail = 0
        self.irq = 0
        self.powered = True
        self._slots = []
        self._slot = -1
        self._awaiting = False
        self._due = 0
        self._rest = b""
        self._armed = False
        self._mode = 0
        self._addr = 0
        self._field = False
        self._selected = None
        bench.spi[bus] = self
        bench.listen(cs, self._on_cs)
        bench.listen(srck, self._on_srck)
        bench.listen(rck, self._on_rck)
        if g is not None:
            bench.listen(g, self._on_rck)
        if enable is not None:
            bench.listen(enable, self._on_enable)
        self._reset()

    # -- the pieces -------------------------------------------------------------------
    def placed(self):
        return [i for i in range(self.cells) if self.present[i]]

    def place(self, index, uid):
        self.uids[index][:] = uid
        self.present[index] = 1

    def lift(self, index):
        self.present[index] = 0

    # -- the chain --------------------------------------------------------------------
    def _on_srck(self, pin, level):
        if level:
            bit = bench.levels.get(self.ser, 0) & 1
            self.shift = ((self.shift << 1) | bit) & ((1 << self.bits) - 1)

    def _on_rck(self, pin, level):
        if pin != self.g and level:
            self.storage = self.shift
        enabled = self.g is not None and bench.levels.get(self.g, 1) == 0
        on = [k for k in range(self.bits) if enabled and (self.storage >> k) & 1]
        selected = on[0] if len(on) == 1 else (None if not on else -1)
        if selected != self._selected and self._field:
            self.hot_switches += 1
        self._selected = selected

    def _seen(self):
        k = self._selected
        columns = self.columns
        if k is None or k < 0:
            return []
        if k < self.rows:
            cells = range(k * columns, (k + 1) * columns)
        elif k - self.rows < columns:
            cells = range(k - self.rows, self.cells, columns)
        else:
            return []
        return [bytes(self.uids[i]) for i in cells if self.present[i]]

    # -- the reader -------------------------------------------------------------------
    def _reset(self):
        for i in range(32):
            self.regs[i] = 0
        self.regs[0x00] = 0x01
        self.regs[0x01] = 0x02
        self.regs[0x07] = 0x14
        self.regs[0x08] = 0x1F
        self._head = self._tail = 0
        self._slots = []
        self._slot = -1
        self._awaiting = False
        self._due = 0
        self._rest = b""
        self._armed = False
        self.irq = 0
        self._set_field()

    def _set_field(self):
        field = self.powered and bool(self.regs[0x00] & 0x20)
        if field != self._field:
            self._field = field
            self.fields_on += 1 if field else -1
            self.max_fields_on = max(self.max_fields_on, self.fields_on)

    def _on_enable(self, pin, level):
        if level and not self.powered:
            self.powered = True
            self._reset()
        elif not level:
            self.powered = False
            self.irq = 0
            self._set_field()

    def _on_cs(self, pin, level):
        self._mode = 0
        if not level:
            return
        if self._armed:
            length = (self.regs[0x1D] << 4) | (self.regs[0x1E] >> 4)
            if length and self._tail - self._head >= length:
                self._armed = False
                frame = bytes(self._fifo[self._head : self._head + length])
                self._head = self._tail = 0
                self.regs[0x1D] = self.regs[0x1E] = 0
                self._transmit(frame)
        if self._due:
            self._due -= 1
            if not self._due:
                self._outcome()

    def transfer(self, out):
        if bench.levels.get(self.cs, 1):
            return 0xFF
        if not self.powered:
            return 0x00
        mode = self._mode
        if mode == 0:
            if out & 0x80:
                self._command(out & 0x1F)
            else:
                self._addr = out & 0x1F
                self._mode = (3 if out & 0x20 else 2) if out & 0x40 else (5 if out & 0x20 else 4)
            return 0x00
        if mode in (2, 3):
            value = self._read(self._addr)
            if mode == 3 and self._addr < 0x1F:
                self._addr += 1
            return value
        self._write(self._addr, out)
        if mode == 4:
            self._mode = 0
        elif self._addr < 0x1F:
            self._addr += 1
        return 0x00

    def _read(self, reg):
        if reg == 0x0C:
            value = self.irq
            self.irq = 0
            if (value & 0x80 and self._awaiting) or (value & 0x20 and self._rest):
                self._awaiting = False
                self._due = 2
            return value
        if reg == 0x1F:
            if self._head == self._tail:
                return 0
            value = self._fifo[self._head]
            self._head += 1
            if self._head == self._tail:
                self._head = self._tail = 0
            return value
        if reg == 0x1C:
            count = self._tail - self._head
            return ((count - 1) & 0x0F) if count else 0
        return self.regs[reg]

    def _write(self, reg, value):
        if reg in (0x0C, 0x0E, 0x0F, 0x1C):
            return
        if reg == 0x1F:
            self._put(value)
            return
        self.regs[reg] = value
        if reg == 0x00:
            self._set_field()
        elif reg == 0x01 and value & 0x1F == 0x02:
            self.regs[0x07] = 0x14
            self.regs[0x08] = 0x1F

    def _put(self, byte):
        if self._tail < _FIFO_SIZE:
            self._fifo[self._tail] = byte
            self._tail += 1

    def _command(self, command):
        if command == 0x03:
            self._reset()
        elif command == 0x0F:
            self._head = self._tail = 0
        elif command in (0x10, 0x11):
            self._head = self._tail = 0
            self._armed = True
        elif command == 0x14:
            self._slot += 1
            self._awaiting = True
            self.irq |= 0x80

    def _transmit(self, frame):
        self._slots = []
        if len(frame) >= 3 and frame[0] & 0x04 and frame[1] == 0x01:
            bits = frame[2]
            mask = int.from_bytes(frame[3:], "little") & ((1 << bits) - 1)
            self._slots = [[] for _ in range(16)]
            if self._field:
                for uid in self._seen():
                    value = int.from_bytes(uid, "little")
                    if value & ((1 << bits) - 1) == mask:
                        self._slots[(value >> bits) & 0x0F].append(uid)
        self._slot = 0
        self._awaiting = True
        self.irq |= 0x80

    def _outcome(self):
        if self._rest:
            for byte in self._rest:
                self._put(byte)
            self._rest = b""
            self.irq = 0x40
            return
        tags = self._slots[self._slot] if 0 <= self._slot < len(self._slots) else []
        if not tags:
            self.irq = 0x01
            return
        if len(tags) > 1:
            self.irq = 0x40 | 0x02
            return
        # Flags, DSFID and the UID: the chip checks the CRC and keeps it out of the FIFO.
        answer = bytes((0x00, 0x00)) + tags[0]
        for byte in answer[:_FIFO_HIGH]:
            self._put(byte)
        self._rest = answer[_FIFO_HIGH:]
        self.irq = 0x40 | 0x20
