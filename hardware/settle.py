"""The settle filter: a cell's reading counts only once it has held still."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

# Times are sums of floats; a reading that held for the window "exactly" may
# come out a hair short, and must still count.
_TOLERANCE_S = 1e-9


class SettleFilter:
    """Turns raw sensor readings into settled observations.

    Each cell's reading (absent when empty) must stay the same for ``window_s``
    seconds before it replaces the cell's settled value, so a hand sweeping over
    the board or a piece slid across cells never shows up.
    """

    def __init__(self, cells: Iterable[str], window_s: float) -> None:
        if window_s < 0:
            raise ValueError(f"the settle window cannot be negative ({window_s} s)")
        self.cells: tuple[str, ...] = tuple(cells)
        self.window_s = window_s
        self._known = frozenset(self.cells)
        self._settled: dict[str, str] = {}
        # cell -> (reading, time it was first seen); None stands for empty.
        self._pending: dict[str, tuple[str | None, float]] = {}
        self._last_returned: dict[str, str] | None = None
        self._started: float | None = None

    @property
    def settled(self) -> dict[str, str]:
        """The current settled observation (non-empty cells only)."""
        return dict(self._settled)

    def update(self, raw: Mapping[str, str], now: float) -> dict[str, str] | None:
        """Feed one raw reading of every non-empty cell, taken at ``now``.

        Returns the settled observation when it differs from the one last
        returned, else None. Nothing is returned during the first window, so
        the first observation returned (even an empty one) is already settled
        rather than a hand caught on the board at start-up.
        """
        unknown = sorted(set(raw) - self._known)
        if unknown:
            raise ValueError(
                f"the sensors reported cells that are not on this board: {', '.join(unknown)}"
            )
        # Only cells that differ from their settled value or have a pending
        # reading need looking at; everything else is steady.
        for cell in set(raw) | set(self._settled) | set(self._pending):
            reading = raw.get(cell)
            if reading == self._settled.get(cell):
                self._pending.pop(cell, None)
                continue
            pending = self._pending.get(cell)
            if pending is None or pending[0] != reading:
                pending = (reading, now)
                self._pending[cell] = pending
            if now - pending[1] >= self.window_s - _TOLERANCE_S:
                del self._pending[cell]
                if reading is None:
                    del self._settled[cell]
                else:
                    self._settled[cell] = reading
        if self._started is None:
            self._started = now
        if (
            now - self._started < self.window_s - _TOLERANCE_S
            or self._settled == self._last_returned
        ):
            return None
        self._last_returned = dict(self._settled)
        return dict(self._settled)
