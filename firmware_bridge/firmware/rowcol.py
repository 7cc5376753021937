"""One ISO/IEC 15693 reader, one antenna per row and one per column, each behind a PIN
diode that a TPIC6B595 output biases on (docs/rf.md, docs/hardware.md "RFID: row and
column antennas behind PIN-diode switches"), and the board's ambiguity rule that turns
what the antennas saw into squares.

Antenna ``k`` is the board's row ``k`` for ``k < rows``, else column ``k - rows``: the
order ``wiring.rf.design`` gives the antennas (R1..Rn, then C1..Cm) and wires them to
the drivers' outputs (antenna ``k`` on DRAIN ``k % 8`` of the ``k // 8``-th TPIC6B595
from the Pico).
"""

try:
    from . import ticks
except ImportError:
    import ticks

HEALTH_MS = 1000  # a reader found dead is tried again this often
# The census entry of a TRF7962A that answers: ISO Control's 02h as the driver's
# start() reads it back (trf7962a.ISO_15693_HIGH_ONE_SUB_1_OF_4); no MFRC522
# VersionReg (mfrc522.VERSIONS) has that value.
PRESENT = 0x02


class SelectChain:
    """Chained TPIC6B595 power shift registers, one open-drain output per antenna.

    The part (TI TPIC6B595 data sheet, SLIS032D, section 4 "Pin Configuration and
    Functions" and 7.3 "Feature Description"): SER IN feeds the first shift register
    stage; on each rising edge of SRCK every stage moves one on (stage 0 is DRAIN0's,
    stage 7, DRAIN7's, goes out on SER OUT into the next register's SER IN, 7.3.4
    "Cascaded Application"); a rising edge of RCK copies the shift register into the
    storage register (7.3.1 "Serial-In Interface"); SRCLR low clears the shift register
    (7.3.2 "Clear Register"); G high turns every output off whatever the storage
    register holds, G low shows it (7.3.3 "Output Control"). A storage bit of 1 turns
    its DMOS output on: it sinks, pulling its antenna's far end low, and that
    antenna's diode conducts.

    The bits go out the farthest register's DRAIN7 first, so after ``8 × registers``
    SRCK edges bit ``k`` of the word sits on antenna ``k``. With ``spi`` (a
    ``machine.SPI`` whose SCK is SRCK and MOSI is SER IN, MSB first) the word goes out
    as bytes, the farthest register's first; otherwise ``ser`` and ``srck`` are
    toggled by hand: a MicroPython pin write takes microseconds, far slower than the
    edges a shift register needs, so no wait is added between them. ``g`` (optional:
    the board's 10 kΩ pull-up holds it high, outputs off, until the Pico drives it) is
    driven low only once the chain holds all zeros; ``srclr`` is None where the board
    ties SRCLR high (``wiring.rf.design``: SRCLR to +5 V).
    """

    def __init__(self, ser, srck, rck, count, g=None, srclr=None, spi=None):
        self.ser = ser
        self.srck = srck
        self.rck = rck
        self.g = g
        self.srclr = srclr
        self.spi = spi
        self.count = count
        self.registers = (count + 7) // 8
        self.selected = None  # the antenna whose output is on, None for none
        self.writes = 0
        self._bytes = bytearray(self.registers)
        if g is not None:
            g.value(1)
        rck.value(0)
        if srck is not None:
            srck.value(0)

    def enable(self):
        """Clear every output, then let the outputs follow the storage register."""
        if self.srclr is not None:
            self.srclr.value(0)
            self.srclr.value(1)
        self._load(None)
        if self.g is not None:
            self.g.value(0)

    def disable(self):
        """Every output off (G high), whatever the registers hold."""
        if self.g is not None:
            self.g.value(1)

    def select(self, antenna):
        """Turn on antenna ``antenna``'s output alone (None: none on)."""
        if antenna is not None and not 0 <= antenna < self.count:
            raise ValueError("no antenna %d on a chain of %d" % (antenna, self.count))
        if antenna == self.selected:
            return
        self._load(antenna)

    def _load(self, antenna):
        out = self._bytes
        for i in range(self.registers):
            out[i] = 0
        if antenna is not None:
            # The farthest register's byte goes first; within a byte, DRAIN7 first.
            out[self.registers - 1 - (antenna >> 3)] = 1 << (antenna & 7)
        if self.spi is not None:
            self.spi.write(out)
        else:
            ser = self.ser
            srck = self.srck
            for byte in out:
                for bit in range(7, -1, -1):
                    ser.value((byte >> bit) & 1)
                    srck.value(1)
                    srck.value(0)
            ser.value(0)
        self.rck.value(1)
        self.rck.value(0)
        self.selected = antenna
        self.writes += 1


class RowColumnAntennas:
    """``reader`` (a ``trf7962a.Trf7962a``) behind the PIN-diode switches that ``chain``
    (a ``SelectChain`` of ``rows + columns`` outputs) biases.

    ``inventory(k)`` reads antenna ``k``: the field off, the antenna switched, the
    released antenna given ``settle_us`` to reverse-bias its diode (docs/rf.md,
    "Switching time": 0.28 ms, ``wiring.rf.design.deselect_settle_s``), the field on,
    the tags given ``power_us`` to power up, one inventory, the field off. So only one
    antenna radiates, only while it is read, and no antenna is switched with the field
    on. ``problem`` is None while the reader answers, else what is wrong with it; an
    antenna read while the reader is down reads as None (nothing known).
    """

    def __init__(self, reader, chain, rows, columns, settle_us=300, power_us=3000, error=None):
        if chain.count < rows + columns:
            raise ValueError("config: the antenna chain has fewer outputs than rows and columns")
        self.reader = reader
        self.chain = chain
        self.rows = rows
        self.columns = columns
        self.settle_us = settle_us
        self.power_us = power_us
        self.error = error if error is not None else Exception
        self.problem = None
        self.inventories = 0
        self.resets = 0  # hard resets of a reader that stopped answering
        self.field_on = False
        self._checked = None

    def start(self):
        """Clear the switches, then check and set up the reader; False when it does
        not answer."""
        self.chain.enable()
        try:
            self.reader.start()
            self._field(False)
        except self.error as exc:
            self.problem = str(exc) or "the RFID reader does not answer"
            return False
        self.problem = None
        return True

    def census(self):
        """A TRF7962A has no version register: the census reports the ISO Control
        read-back its driver's ``start()`` checks, PRESENT (02h) while the reader
        answers, 00h while it is down (its health is ERR_READER)."""
        return [PRESENT if self.problem is None else 0]

    def check(self, now):
        """Try a reader that is down again, at most every HEALTH_MS, hard reset first
        (its EN pin) when the driver can; True when it answers."""
        if self.problem is None:
            return True
        if self._checked is not None and ticks.ticks_diff(now, self._checked) < HEALTH_MS:
            return False
        self._checked = now
        hard_reset = getattr(self.reader, "hard_reset", None)
        if hard_reset is not None:
            self.resets += 1
            try:
                hard_reset()
            except self.error:
                pass
        return self.start()

    def _field(self, on):
        self.reader.field(on)
        self.field_on = on

    def row(self, r):
        return r

    def column(self, c):
        return self.rows + c

    def inventory(self, antenna):
        """The set of UIDs antenna ``antenna`` sees, or None when the reader failed."""
        if self.problem is not None:
            return None
        self.inventories += 1
        try:
            if self.field_on:
                self._field(False)
            if self.chain.selected != antenna:
                self.chain.select(antenna)
                if self.settle_us:
                    ticks.sleep_us(self.settle_us)
            self._field(True)
            if self.power_us:
                ticks.sleep_us(self.power_us)
            return set(self.reader.inventory())
        except self.error as exc:
            self.problem = str(exc) or "the RFID reader stopped answering"
            return None
        finally:
            try:
                self._field(False)
            except self.error:
                self.field_on = False


def reads_needed(targets, rows_read=(), columns_read=()):
    """The rows and columns to inventory to place the squares ``targets`` ((r, c)
    pairs): the row of each, and the columns of those in a row that holds more than
    one of them (docs/rf.md, the ambiguity rule, 1). Antennas already read this pass
    (``rows_read``, ``columns_read``) are left out."""
    per_row = {}
    for r, c in targets:
        per_row[r] = per_row.get(r, 0) + 1
    rows = set(r for r in per_row if r not in rows_read)
    columns = set(c for r, c in targets if per_row[r] > 1 and c not in columns_read)
    return rows, columns


def place(before, targets, rows_seen, columns_seen):
    """Which new UID lies on which of the squares ``targets``, by the ambiguity rule
    (docs/rf.md, "How a position is read, and the ambiguity rule"; the same rule as
    ``wiring.rf.placement.place``, which a test compares this with).

    ``before``: the UID of every occupied square that is not a target; ``targets``:
    the squares to place (changed and occupied now, or still unread); ``rows_seen``
    and ``columns_seen``: the UIDs each inventoried antenna saw, by row and column.
    Returns {square: UID} for the targets placed for certain; every other target is
    left out: unread, retried, never guessed.

    1. A UID not on a square outside the targets is new.
    2. It may go on a target if every antenna read over that square saw it (the row,
       if read; the column, if read) and at least one was read.
    3. Only unique pairings are made: a UID with one possible square, where that
       square has no other possible UID; repeated until nothing changes (a pairing
       made frees the others of that square and that UID).

    Not ambiguous: two new tiles in one row and one column at once ((r, c1), (r, c2)
    and (r2, c1)): rows r and r2 and columns c1 and c2 are read, each UID agrees with
    one square only, and all three are placed (docs/rf.md, rule 4); likewise any set
    of well-laid tiles whose antennas all answered.

    Ambiguous, and left unread (reported as a piece without a tag, retried every
    TAG_RETRY_MS, never guessed):
    - a target no new UID agrees with: its tag did not answer, or an antenna over it
      missed it;
    - a target two new UIDs agree with while neither can go anywhere else: a tile
      lying across the gap between two rows is seen by both, so with another new tile
      in the other row, whose column was not read, both UIDs agree with that tile's
      square and neither square is placed; and a UID seen in a row beside a target
      whose own square is not a target (a tile laid whose switch has not yet changed)
      competes with the target's own UID the same way.
    A UID that agrees with no target is not placed anywhere.
    """
    settled = set(before.values())
    new = set()
    for seen in rows_seen.values():
        new |= seen
    for seen in columns_seen.values():
        new |= seen
    new -= settled
    edges = {}
    for uid in new:
        squares = []
        for square in targets:
            r, c = square
            in_row = rows_seen.get(r)
            in_column = columns_seen.get(c)
            if in_row is None and in_column is None:
                continue
            if in_row is not None and uid not in in_row:
                continue
            if in_column is not None and uid not in in_column:
                continue
            squares.append(square)
        if squares:
            edges[uid] = squares
    placed = {}
    free = set(targets)
    progress = True
    while progress:
        progress = False
        for uid in sorted(edges):
            squares = [sq for sq in edges[uid] if sq in free]
            if len(squares) != 1:
                continue
            square = squares[0]
            if any(other != uid and square in edges[other] for other in edges):
                continue
            placed[square] = uid
            free.discard(square)
            del edges[uid]
            progress = True
            break
    return placed
