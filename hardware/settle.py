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

    After :meth:`restart` (the readings' history was lost, as when a link drops
    frames) the changes found settle together, once the whole board has held
    still for the window: never one cell before another whose timing is unknown.
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
        # While restarting: the raw board last seen and since when it held still.
        self._whole: tuple[dict[str, str] | None, float] | None = None

    @property
    def settled(self) -> dict[str, str]:
        """The current settled observation (non-empty cells only)."""
        return dict(self._settled)

    def steady(self, now: float) -> bool:
        """Whether every cell's reading has settled: nothing is waiting out the window,
        and the first settled observation has been returned."""
        return (
            not self._pending
            and self._whole is None
            and self._last_returned is not None
            and self._settled == self._last_returned
        )

    def restart(self, now: float) -> None:
        """Forget when each pending reading began: from ``now`` on, nothing settles
        until the whole board has held still for the window, and then every change
        settles at once."""
        self._pending.clear()
        self._whole = (None, now)

    def update(
        self, raw: Mapping[str, str], now: float, delays: Mapping[str, float] | None = None
    ) -> dict[str, str] | None:
        """Feed one raw reading of every non-empty cell, taken at ``now``.

        Returns the settled observation when it differs from the one last
        returned, else None. Nothing is returned during the first window, so
        the first observation returned (even an empty one) is already settled
        rather than a hand caught on the board at start-up.

        ``delays`` gives, for cells whose sensor reports a change only some time
        after it happened and by a varying amount (a swept reader), how much
        longer than the window a new reading of that cell must hold.
        """
        unknown = sorted(set(raw) - self._known)
        if unknown:
            raise ValueError(
                f"the sensors reported cells that are not on this board: {', '.join(unknown)}"
            )
        if self._whole is not None:
            self._settle_whole(raw, now, delays or {}, *self._whole)
        else:
            self._settle_cells(raw, now, delays or {})
        if self._started is None:
            self._started = now
        if (
            now - self._started < self.window_s - _TOLERANCE_S
            or self._settled == self._last_returned
        ):
            return None
        self._last_returned = dict(self._settled)
        return dict(self._settled)

    def _settle_whole(
        self,
        raw: Mapping[str, str],
        now: float,
        delays: Mapping[str, float],
        last: dict[str, str] | None,
        since: float,
    ) -> None:
        if last != raw:
            changed = set(raw.items()) ^ set((last or {}).items())
            delay = max((delays.get(cell, 0.0) for cell, _ in changed), default=0.0)
            since = max(since, now + delay) if last is None else now + delay
            self._whole = (dict(raw), since)
        if now - since >= self.window_s - _TOLERANCE_S:
            self._settled = dict(raw)
            self._whole = None

    def _settle_cells(
        self, raw: Mapping[str, str], now: float, delays: Mapping[str, float]
    ) -> None:
        # Only cells that differ from their settled value or have a pending
        # reading need looking at; everything else is steady.
        for cell in set(raw) | set(self._settled) | set(self._pending):
            reading = raw.get(cell)
            if reading == self._settled.get(cell):
                self._pending.pop(cell, None)
                continue
            pending = self._pending.get(cell)
            if pending is None or pending[0] != reading:
                pending = (reading, now + delays.get(cell, 0.0))
                self._pending[cell] = pending
            if now - pending[1] >= self.window_s - _TOLERANCE_S:
                del self._pending[cell]
                if reading is None:
                    del self._settled[cell]
                else:
                    self._settled[cell] = reading
