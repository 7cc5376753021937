"""Per-cell debouncing: a reading counts once it has been seen unchanged for a while."""

try:
    from . import ticks
except ImportError:
    import ticks

_NOTHING = object()
_DONE = object()


class Debouncer:
    """Holds the stable value of ``n`` cells (None = empty at start).

    A new raw value replaces the stable one after it has been read at least twice,
    ``ms`` milliseconds apart, with nothing else read in between. ``settled()`` is
    True once every cell has been read over at least ``ms``, so no stable value is
    still the start-up None of a cell that holds a piece. ``gap[i]`` is, for the
    last change of cell ``i``, how many ms passed between the last reading of the
    old value and the first of the new: the change happened in that gap.
    """

    def __init__(self, n, ms):
        self.ms = ms
        self.stable = [None] * n
        self.candidates = 0  # cells whose new reading is being debounced
        self._candidate = [_NOTHING] * n
        self._since = [0] * n
        self._first = [None] * n
        self._unsettled = n
        self._read = [None] * n
        self._candidate_gap = [0] * n
        self.gap = [0] * n

    def settled(self):
        return self._unsettled == 0

    def pending(self):
        """True while some cell has a new reading not yet held for the debounce time."""
        return self.candidates > 0

    def update(self, index, raw, now, last_read=_NOTHING):
        """Feed one reading; True when the cell's stable value changed. ``last_read``:
        when the cell was read before (the scanner's own record, for a scanner that
        reads every cell at once); by default the time of its last update."""
        if last_read is _NOTHING:
            last_read = self._read[index]
        self._read[index] = now
        if self._unsettled:
            first = self._first[index]
            if first is None:
                self._first[index] = now
            elif first is not _DONE and ticks.ticks_diff(now, first) >= self.ms:
                self._first[index] = _DONE
                self._unsettled -= 1
        if raw == self.stable[index]:
            if self._candidate[index] is not _NOTHING:
                self._candidate[index] = _NOTHING
                self.candidates -= 1
            return False
        candidate = self._candidate[index]
        if raw != candidate:
            if candidate is _NOTHING:
                self.candidates += 1
            self._candidate[index] = raw
            self._since[index] = now
            self._candidate_gap[index] = 0 if last_read is None else ticks.ticks_diff(now, last_read)
            return False
        if ticks.ticks_diff(now, self._since[index]) < self.ms:
            return False
        self.stable[index] = raw
        self.gap[index] = self._candidate_gap[index]
        self._candidate[index] = _NOTHING
        self.candidates -= 1
        return True
