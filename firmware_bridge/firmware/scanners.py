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
    """Occupancy only: one full matrix scan per poll, each cell debounced.

    A scan that reads every cell as it stands, with nothing being debounced, changes
    nothing and is not fed to the debouncer cell by cell: most passes of a board at
    rest cost the scan and one comparison.
    """

    problem = None

    def __init__(self, matrix, debounce_ms):
        self.matrix = matrix
        self.sweep_ms = 0  # the time between the last two scans
        self._scanned = None
        self.cells = matrix.rows * matrix.columns
        self.debouncer = Debouncer(self.cells, debounce_ms)
        self._raw = bytearray(self.cells)
        self._stable = bytearray(self.cells)  # 1 where the stable value is PRESENT
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
        before = self._scanned
        if before is not None:
            self.sweep_ms = ticks.ticks_diff(now, before)
        self._scanned = now
        raw = self.matrix.scan(self._raw)
        debouncer = self.debouncer
        self.swept += 1
        if raw == self._stable and not debouncer.candidates and debouncer.settled():
            return []
        # Every cell was last read by the scan before this one.
        last = now if before is None else before
        update = debouncer.update
        stable = self._stable
        changes = []
        for i in range(self.cells):
            bit = raw[i]
            value = PRESENT if bit else None
            if update(i, value, now, last):
                stable[i] = bit
                changes.append((i, value))
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
    again every ``retry_ms`` until it answers, at most ``retries`` of them a pass
    (the ones waiting longest first), so a board full of pieces without tags costs a
    pass no more than ``retries`` reads. A slow background sweep reads one
    occupied square every ``background_ms``, so a tag swapped faster than a switch
    can open (a piece exchanged in one movement) is still seen.
    """

    def __init__(self, matrix_scanner, readers, retry_ms=250, background_ms=100, retries=4):
        self.matrix = matrix_scanner
        self.readers = readers
        cells = self.cells = matrix_scanner.cells
        self.retry_ms = retry_ms
        self.retries = max(1, retries)
        self.background_ms = background_ms
        # One slot a square, made once: a board filling with pieces grows no table.
        self._untagged = [None] * cells  # since when a piece's tag has not answered
        self._waiting = 0
        self._tag_gap = [None] * cells
        self._tags = [None] * cells
        self._tagged = 0
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
        gap = self._tag_gap[index]
        if gap is not None:
            return gap
        return self.matrix.gap(index)

    def ready(self):
        # A tag is read as soon as its cell's occupancy settles.
        return self.matrix.ready()

    def _set_tag(self, i, tag):
        if self._tags[i] is None:
            if tag is None:
                return
            self._tagged += 1
        elif tag is None:
            self._tagged -= 1
        self._tags[i] = tag

    def _set_untagged(self, i, since):
        if self._untagged[i] is None:
            if since is None:
                return
            self._waiting += 1
        elif since is None:
            self._waiting -= 1
        self._untagged[i] = since

    def poll(self, now):
        changes = []
        self.readers.check(now)
        for i, value in self.matrix.poll(now):
            self._tag_gap[i] = None
            self._set_tag(i, None)
            if value is None:
                self._set_untagged(i, None)
                changes.append((i, None))
                continue
            tag = self.readers.read_uid(i)
            if tag is None:
                self._set_untagged(i, now)
                changes.append((i, PRESENT))
            else:
                self._set_tag(i, tag)
                changes.append((i, tag))
        if self._waiting:
            for i in self._due(now):
                tag = self.readers.read_uid(i)
                if tag is None:
                    self._untagged[i] = now
                else:
                    self._tag_gap[i] = ticks.ticks_diff(now, self._untagged[i])
                    self._set_untagged(i, None)
                    self._set_tag(i, tag)
                    changes.append((i, tag))
        if not self._tagged:
            self._swept = None
        elif self._swept is None:
            self._swept = now
        elif ticks.ticks_diff(now, self._swept) >= self.background_ms:
            self._swept = now
            self._sweep_one(changes)
        return changes

    def _due(self, now):
        """The untagged squares to try again this pass: due, longest waiting first,
        ``retries`` at most."""
        due = []
        untagged = self._untagged
        for i in range(self.cells):
            since = untagged[i]
            if since is not None:
                waited = ticks.ticks_diff(now, since)
                if waited >= self.retry_ms:
                    due.append((waited, i))
        if len(due) > self.retries:
            due.sort(reverse=True)
            del due[self.retries :]
        return [i for _waited, i in due]

    def _sweep_one(self, changes):
        # The next tagged square after the last one swept, round the board.
        cells = self.cells
        tags = self._tags
        for step in range(cells):
            i = (self._next + step) % cells
            if tags[i] is not None:
                break
        else:
            return
        self._next = (i + 1) % cells
        tag = self.readers.read_uid(i)
        # A miss proves nothing (a tag at the edge of the field): only another tag does.
        if tag is not None and tag != tags[i]:
            tags[i] = tag
            self._tag_gap[i] = self.background_ms * self._tagged
            changes.append((i, tag))


class MatrixWithRowColumnReader:
    """Occupancy switches and one reader on row and column antennas (docs/rf.md): the
    switch under a square says where something changed, the antennas over it say
    which tag it is.

    A square whose switch closed is placed by the board's ambiguity rule
    (``rowcol.place``; which cases it leaves unread is written there): its row antenna
    is inventoried, and in a row holding more than one square to place, their column
    antennas too (``rowcol.reads_needed``). A square emptied reports None at once. A
    square the rule cannot place for certain is reported present without a tag and
    placed again every ``retry_ms`` (with every other unread square of the rows read
    then, so that reading one never leaves another ambiguous), at most ``retries`` of
    them a pass, the longest waiting first: a tag is never guessed.

    A slow background sweep inventories one antenna every ``background_ms`` (round
    the antennas over tagged squares): when it sees a UID the board does not know, the
    squares on that antenna whose tag it did not see are placed again by the same
    rule, so a tile swapped for another in one movement (the switch never opens) is
    still found. A UID merely missed proves nothing, and the sweep waits while a
    switch is being debounced (a tile being laid would otherwise look swapped in).

    ``antennas`` is a ``rowcol.RowColumnAntennas``.
    """

    def __init__(self, matrix_scanner, antennas, retry_ms=250, background_ms=100, retries=4):
        try:
            from . import rowcol
        except ImportError:
            import rowcol
        self._rowcol = rowcol
        self.matrix = matrix_scanner
        self.antennas = antennas
        self.rows = antennas.rows
        self.columns = antennas.columns
        cells = self.cells = matrix_scanner.cells
        if cells != self.rows * self.columns:
            raise ValueError("config: the antennas' rows and columns do not make the board")
        self.retry_ms = retry_ms
        self.retries = max(1, retries)
        self.background_ms = background_ms
        # One slot a square, made once: a board filling with pieces grows no table.
        self._tags = [None] * cells  # the UID placed on each square
        self._untagged = [None] * cells  # since when an occupied square is unread
        self._tag_gap = [None] * cells
        self._waiting = 0
        self._tagged = 0
        self._swept = None
        self._next = 0  # the next antenna the background sweep reads

    @property
    def problem(self):
        return self.antennas.problem

    @property
    def sweep_ms(self):
        return self.matrix.sweep_ms

    def census(self):
        return self.antennas.census()

    @property
    def begun(self):
        return self.matrix.begun

    @property
    def swept(self):
        return self.matrix.swept

    def settling(self):
        return self.matrix.settling()

    def ready(self):
        return self.matrix.ready()

    def gap(self, index):
        gap = self._tag_gap[index]
        if gap is not None:
            return gap
        return self.matrix.gap(index)

    def _set_tag(self, i, tag):
        if self._tags[i] is None:
            if tag is None:
                return
            self._tagged += 1
        elif tag is None:
            self._tagged -= 1
        self._tags[i] = tag

    def _set_untagged(self, i, since):
        if self._untagged[i] is None:
            if since is None:
                return
            self._waiting += 1
        elif since is None:
            self._waiting -= 1
        self._untagged[i] = since

    def poll(self, now):
        changes = []
        self.antennas.check(now)
        laid = []
        for i, value in self.matrix.poll(now):
            self._tag_gap[i] = None
            self._set_tag(i, None)
            if value is None:
                self._set_untagged(i, None)
                changes.append((i, None))
            else:
                self._set_untagged(i, now)
                laid.append(i)
        due = self._due(now, laid) if self._waiting > len(laid) else []
        if laid or due:
            placed = self._place(laid + due, now)
            for i in laid:
                changes.append((i, self._tags[i] if self._tags[i] is not None else PRESENT))
            for i in placed:
                if i not in laid:
                    changes.append((i, self._tags[i]))
            for i in due:
                if self._untagged[i] is not None:
                    self._untagged[i] = now  # tried: wait retry_ms again
        if not self._tagged:
            self._swept = None
        elif self._swept is None:
            self._swept = now
        elif ticks.ticks_diff(now, self._swept) >= self.background_ms and not self.settling():
            self._swept = now
            self._sweep_one(changes, now)
        return changes

    def _due(self, now, laid):
        """The unread squares to place again this pass: due, longest waiting first,
        ``retries`` at most."""
        due = []
        untagged = self._untagged
        for i in range(self.cells):
            since = untagged[i]
            if since is not None and i not in laid:
                waited = ticks.ticks_diff(now, since)
                if waited >= self.retry_ms:
                    due.append((waited, i))
        if len(due) > self.retries:
            due.sort(reverse=True)
            del due[self.retries :]
        return [i for _waited, i in due]

    def _place(self, indices, now, rows_seen=None, columns_seen=None):
        """Place the squares ``indices`` (with the other unread squares of their rows)
        by the ambiguity rule, reading the antennas it needs beyond those already in
        ``rows_seen``/``columns_seen``; returns the squares placed."""
        columns = self.columns
        untagged = self._untagged
        rows = set(i // columns for i in indices)
        targets = set((i // columns, i % columns) for i in indices)
        for r in rows:
            base = r * columns
            for c in range(columns):
                if untagged[base + c] is not None:
                    targets.add((r, c))
        rows_seen = {} if rows_seen is None else rows_seen
        columns_seen = {} if columns_seen is None else columns_seen
        need_rows, need_columns = self._rowcol.reads_needed(targets, rows_seen, columns_seen)
        antennas = self.antennas
        for r in sorted(need_rows):
            seen = antennas.inventory(antennas.row(r))
            if seen is None:
                return []
            rows_seen[r] = seen
        for c in sorted(need_columns):
            seen = antennas.inventory(antennas.column(c))
            if seen is None:
                return []
            columns_seen[c] = seen
        before = {}
        tags = self._tags
        for i in range(self.cells):
            tag = tags[i]
            if tag is not None and (i // columns, i % columns) not in targets:
                before[(i // columns, i % columns)] = tag
        placed = []
        for (r, c), uid in self._rowcol.place(before, targets, rows_seen, columns_seen).items():
            i = r * columns + c
            since = untagged[i]
            if since is not None and ticks.ticks_diff(now, since) > 0:
                # A tag that answered on a retry became readable since it was laid.
                self._tag_gap[i] = ticks.ticks_diff(now, since)
            self._set_untagged(i, None)
            self._set_tag(i, uid)
            placed.append(i)
        return placed

    def _sweep_one(self, changes, now):
        """Inventory the next antenna over a tagged square; place again the squares
        on it whose tag it missed if it saw a UID the board does not know."""
        rows, columns = self.rows, self.columns
        tags = self._tags
        antennas = self.antennas
        for step in range(rows + columns):
            k = (self._next + step) % (rows + columns)
            if k < rows:
                squares = [k * columns + c for c in range(columns)]
            else:
                squares = [r * columns + k - rows for r in range(rows)]
            if any(tags[i] is not None for i in squares):
                break
        else:
            return
        self._next = (k + 1) % (rows + columns)
        seen = antennas.inventory(k)
        if not seen:
            return
        known = set(tag for tag in tags if tag is not None)
        if not (seen - known):
            return  # a UID missed proves nothing: only one the board does not know does
        lost = [i for i in squares if tags[i] is not None and tags[i] not in seen]
        if not lost:
            return
        for i in lost:
            self._set_tag(i, None)
            self._set_untagged(i, now)
        if k < rows:
            placed = self._place(lost, now, rows_seen={k: seen})
        else:
            placed = self._place(lost, now, columns_seen={k - rows: seen})
        for i in lost:
            self._tag_gap[i] = self.background_ms * (rows + columns)
            changes.append((i, tags[i] if tags[i] is not None else PRESENT))
        for i in placed:
            if i not in lost:
                changes.append((i, tags[i]))  # an unread square of the rows read
