"""Per-cell debouncing: a reading counts once it has been seen unchanged for a while."""

try:
    from . import ticks
except ImportError:
    import ticks

_NOTHING = object()


class Debouncer:
    """Holds the stable value of ``n`` cells (None = empty at start).

    A new raw value replaces the stable one after it has been read at least twice,
    ``ms`` milliseconds apart, with nothing else read in between.
    """

    def __init__(self, n, ms):
        self.ms = ms
        self.stable = [None] * n
        self._candidate = [_NOTHING] * n
        self._since = [0] * n

    def update(self, index, raw, now):
        """Feed one reading; True when the cell's stable value changed."""
        if raw == self.stable[index]:
            self._candidate[index] = _NOTHING
            return False
        if raw != self._candidate[index]:
            self._candidate[index] = raw
            self._since[index] = now
            return False
        if ticks.ticks_diff(now, self._since[index]) < self.ms:
            return False
        self.stable[index] = raw
        self._candidate[index] = _NOTHING
        return True
