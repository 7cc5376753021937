"""What the firmware scans: an occupancy matrix, a sweep of RFID readers, or both.

Every scanner has ``cells``, ``poll(now)``, which returns the debounced changes as
(cell index, value) pairs: value None when the cell emptied, b"" when it holds a
piece without a readable tag, else the tag's bytes; ``gap(i)``, how many ms before
cell ``i``'s last reported change was first read its old value was last read (the
change happened in that gap, a sweep's length on a swept board); ``ready()``,
True once every cell has been read and debounced since start; ``begun`` and
``swept``, how many sweeps (every cell read once) have begun and ended since start,
which the firmware's answer to a sync request waits on, with ``settling()``: True
while some cell's new reading is still being debounced; and ``problem``, None or what
is wrong with the board's reader (sent to the host as ERR_READER).
"""

try:
    from . import ticks
    from .debounce import Debouncer
except ImportError:
    import ticks
    from debounce import Debouncer

PRESENT = b""


class ShiftRegisterMatrix:
    """Rows driven through chained 74HC595s, columns read through chained 74HC165s.

    Both chains share one SPI bus: MOSI feeds the 595s' serial input, MISO reads the
    last 165's output. Row ``r`` is output ``r % 8`` of the ``r // 8``-th 595 from the
    Pico; column ``c`` is input ``c % 8`` of the ``c // 8``-th 165. With ``active_low``
    the driven row is pulled low and a closed switch pulls its column low through
    its diode (columns have pull-ups).
    """

    def __init__(self, spi, latch, load, rows, columns, active_low=True, settle_us=5):
        self.spi = spi
        # After a row is latched, its line and the column pull-ups need time to
        # settle through the diodes and the wiring's capacitance before the 165s load.
        self.settle_us = settle_us
        self.latch = latch
        self.load = load
        self.rows = rows
        self.columns = columns
        self.active_low = active_low
        self._row_bytes = (rows + 7) // 8
        self._in = bytearray((columns + 7) // 8)
        self._patterns = [self._pattern(r) for r in range(rows)]
        self.latch.value(1)
        self.load.value(1)

    def _pattern(self, row):
        word = 1 << row
        if self.active_low:
            word = ~word & ((1 << (8 * self._row_bytes)) - 1)
        # The first byte out ends up in the farthest 595, so send the high byte first.
        out = bytearray(self._row_bytes)
        for i in range(self._row_bytes):
            out[self._row_bytes - 1 - i] = (word >> (8 * i)) & 0xFF
        return out

    def scan(self, out):
        """Write one bit per cell into ``out`` (1 = switch closed), row by row."""
        columns = self.columns
        invert = 0xFF if self.active_low else 0
        buf = self._in
        for row in range(self.rows):
            self.spi.write(self._patterns[row])
            self.latch.value(0)
            self.latch.value(1)
            if self.settle_us:
                ticks.sleep_us(self.settle_us)
            # SH/LD low copies the column inputs into the 165s; high again to shift.
            self.load.value(0)
            self.load.value(1)
            self.spi.readinto(buf, 0)
            base = row * columns
            for c in range(columns):
                out[base + c] = ((buf[c >> 3] ^ invert) >> (c & 7)) & 1
        return out


class MatrixScanner:
    """Occupancy only: one full matrix scan per poll, each cell debounced."""

    problem = None

    def __init__(self, matrix, debounce_ms):
        self.matrix = matrix
        self.sweep_ms = 0  # the time between the last two scans
        self._scanned = None
        self.cells = matrix.rows * matrix.columns
        self.debouncer = Debouncer(self.cells, debounce_ms)
        self._raw = bytearray(self.cells)
        self.begun = 0
        self.swept = 0

    def ready(self):
        return self.debouncer.settled()

    def settling(self):
        return self.debouncer.pending()

    def gap(self, index):
        return self.debouncer.gap[index]

    def poll(self, now):
        self.begun += 1
        if self._scanned is not None:
            self.sweep_ms = ticks.ticks_diff(now, self._scanned)
        self._scanned = now
        raw = self.matrix.scan(self._raw)
        update = self.debouncer.update
        changes = []
        for i in range(self.cells):
            value = PRESENT if raw[i] else None
            if update(i, value, now):
                changes.append((i, value))
        self.swept += 1
        return changes


class ReaderSweep:
    """RFID only: reads ``per_poll`` readers per poll, round the board."""

    def __init__(self, readers, cells, debounce_ms, per_poll=16):
        self.readers = readers
        self.cells = cells
        self.per_poll = max(1, min(per_poll, cells))
        self.debouncer = Debouncer(cells, debounce_ms)
        self._next = 0
        self.begun = 0
        self.swept = 0
        self.sweep_ms = 0  # the time the last round of every square took
        self._round = None

    @property
    def problem(self):
        return self.readers.problem

    def census(self):
        """Each reader's VersionReg."""
        return [version for _i, version, _name in self.readers.census()]

    def ready(self):
        # A sweep of a large board takes longer than the debounce time.
        return self.debouncer.settled()

    def settling(self):
        return self.debouncer.pending()

    def gap(self, index):
        return self.debouncer.gap[index]

    def poll(self, now):
        changes = []
        if not self.readers.check(now):
            return changes
        for _ in range(self.per_poll):
            i = self._next
            self._next = (i + 1) % self.cells
            if i == 0:
                self.begun += 1
            if self._next == 0:
                if self._round is not None:
                    self.sweep_ms = ticks.ticks_diff(now, self._round)
                self._round = now
            tag = self.readers.read_uid(i)
            if self.debouncer.update(i, tag, now):
                changes.append((i, tag))
            if self._next == 0:
                self.swept += 1
        return changes


class MatrixWithReaders:
    """Occupancy switches and one reader behind the antenna multiplexer: a tag is
    read only where occupancy changed, so a move costs one matrix scan and one tag
    read, not a sweep.

    A piece whose tag did not answer is reported present without a tag and read
    again every ``retry_ms`` until it answers. A slow background sweep reads one
    occupied square every ``background_ms``, so a tag swapped faster than a switch
    can open (a piece exchanged in one movement) is still seen.
    """

    def __init__(self, matrix_scanner, readers, retry_ms=250, background_ms=100):
        self.matrix = matrix_scanner
        self.readers = readers
        self.cells = matrix_scanner.cells
        self.retry_ms = retry_ms
        self.background_ms = background_ms
        self._untagged = {}
        self._tag_gap = {}
        self._tags = {}
        self._swept = None
        self._next = 0

    @property
    def problem(self):
        return self.readers.problem

    @property
    def sweep_ms(self):
        return self.matrix.sweep_ms

    def census(self):
        """Each reader's VersionReg."""
        return [version for _i, version, _name in self.readers.census()]

    @property
    def begun(self):
        # Each poll scans the whole matrix and reads every tag it changed.
        return self.matrix.begun

    @property
    def swept(self):
        return self.matrix.swept

    def settling(self):
        return self.matrix.settling()

    def gap(self, index):
        # A tag that answered on a retry became readable since the last try.
        if index in self._tag_gap:
            return self._tag_gap[index]
        return self.matrix.gap(index)

    def ready(self):
        # A tag is read as soon as its cell's occupancy settles.
        return self.matrix.ready()

    def poll(self, now):
        changes = []
        self.readers.check(now)
        for i, value in self.matrix.poll(now):
            self._tag_gap.pop(i, None)
            self._tags.pop(i, None)
            if value is None:
                self._untagged.pop(i, None)
                changes.append((i, None))
                continue
            tag = self.readers.read_uid(i)
            if tag is None:
                self._untagged[i] = now
                changes.append((i, PRESENT))
            else:
                self._tags[i] = tag
                changes.append((i, tag))
        for i in list(self._untagged):
            if ticks.ticks_diff(now, self._untagged[i]) < self.retry_ms:
                continue
            tag = self.readers.read_uid(i)
            if tag is None:
                self._untagged[i] = now
            else:
                self._tag_gap[i] = ticks.ticks_diff(now, self._untagged.pop(i))
                self._tags[i] = tag
                changes.append((i, tag))
        if not self._tags:
            self._swept = None
        elif self._swept is None:
            self._swept = now
        elif ticks.ticks_diff(now, self._swept) >= self.background_ms:
            self._swept = now
            self._sweep_one(changes)
        return changes

    def _sweep_one(self, changes):
        # The next tagged square after the last one swept, round the board.
        cells = self.cells
        for step in range(cells):
            i = (self._next + step) % cells
            if i in self._tags:
                break
        else:
            return
        self._next = (i + 1) % cells
        tag = self.readers.read_uid(i)
        # A miss proves nothing (a tag at the edge of the field): only another tag does.
        if tag is not None and tag != self._tags[i]:
            self._tags[i] = tag
            self._tag_gap[i] = self.background_ms * len(self._tags)
            changes.append((i, tag))
