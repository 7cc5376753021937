"""The GPIO occupancy matrix: rows driven one at a time, columns read through diodes."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from gpiozero import DigitalInputDevice, DigitalOutputDevice

from hardware.board import OCCUPIED, BoardEvent, BoardSettled, BoardSynced, BoardSyncFailed
from hardware.settle import SettleFilter
from wiring.profile import MatrixWiring


def check_matrix_cells(wiring: MatrixWiring, cells: Sequence[str]) -> tuple[str, ...]:
    """Check ``cells`` names every matrix position exactly once, row by row."""
    size = len(wiring.row_pins) * len(wiring.column_pins)
    if len(cells) != size:
        raise ValueError(
            f"a matrix of {len(wiring.row_pins)} rows × {len(wiring.column_pins)} columns "
            f"has {size} cells but {len(cells)} cell names were given: list one name per "
            "position, row by row"
        )
    repeated = sorted(cell for cell, n in Counter(cells).items() if n > 1)
    if repeated:
        raise ValueError(f"cell names must be unique; repeated: {', '.join(repeated)}")
    return tuple(cells)


SETTLE_S = 10e-6
"""How long a driven row is left to settle before the columns are read: the column
lines' pull-ups (50 kΩ inside the Pi) and the wiring's capacitance need a few
microseconds to rise after the previous row let go (docs/hardware.md)."""


def _settle(seconds: float) -> None:
    # Busy: microseconds are shorter than the scheduler's sleeps.
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


class MatrixScanner:
    """Reads every switch of a diode matrix once per :meth:`scan`; after driving a
    row it waits ``settle_s`` before reading the columns."""

    def __init__(
        self,
        wiring: MatrixWiring,
        cells: Sequence[str],
        *,
        pin_factory: Any,
        settle_s: float = SETTLE_S,
    ) -> None:
        self.cells = check_matrix_cells(wiring, cells)
        self.settle_s = settle_s
        self._columns_count = len(wiring.column_pins)
        self._rows: list[DigitalOutputDevice] = []
        self._columns: list[DigitalInputDevice] = []
        try:
            for pin in wiring.row_pins:
                self._rows.append(
                    DigitalOutputDevice(
                        pin,
                        active_high=not wiring.active_low,
                        initial_value=False,
                        pin_factory=pin_factory,
                    )
                )
            for pin in wiring.column_pins:
                # With active_low the driven row sinks current, so an open
                # switch must read high: pull-ups. Otherwise pull-downs.
                self._columns.append(
                    DigitalInputDevice(pin, pull_up=wiring.active_low, pin_factory=pin_factory)
                )
        except BaseException:
            self.close()
            raise

    def scan(self) -> dict[str, str]:
        """Drive each row in turn and return the cells whose switch is closed."""
        raw: dict[str, str] = {}
        for r, row in enumerate(self._rows):
            row.on()
            if self.settle_s:
                _settle(self.settle_s)
            try:
                for c, column in enumerate(self._columns):
                    if column.is_active:
                        raw[self.cells[r * self._columns_count + c]] = OCCUPIED
            finally:
                row.off()
        return raw

    def close(self) -> None:
        """Release every pin (rows return to inputs, so they stop driving)."""
        for device in [*self._columns, *self._rows]:
            device.close()
        self._rows.clear()
        self._columns.clear()


STILL_TIMEOUT_SCANS = 3
"""A barrier fails when the board has not held still this many settle windows (plus
scans) after it was asked for: a flickering switch or a piece rocking on its square."""


class GpioMatrixBoard:
    """A :class:`hardware.board.SensorBoard` over a :class:`MatrixScanner`.

    Its barrier (:meth:`sync`) is reached once the board has held still (every scan
    reading the same) for a settle window since it was asked for, with no change still
    settling.
    """

    def __init__(
        self, scanner: MatrixScanner, settle: SettleFilter, scan_interval_s: float
    ) -> None:
        if scan_interval_s <= 0:
            raise ValueError(f"the scan interval must be positive ({scan_interval_s} s)")
        self.cells: tuple[str, ...] = scanner.cells
        self._scanner = scanner
        self._settle = settle
        self._interval = scan_interval_s
        self._next_scan: float | None = None
        self._syncs: list[tuple[int, float]] = []
        self._token = 0
        self._last_raw: dict[str, str] | None = None
        self._changed_at = float("-inf")
        """When a scan last read something the scan before it did not."""

    def sync(self, now: float) -> int:
        self._token = (self._token + 1) & 0xFFFF
        self._syncs.append((self._token, now))
        return self._token

    def poll(self, now: float) -> list[BoardEvent]:
        """Scan if the interval has passed; report the board when its settled state changes."""
        if self._next_scan is not None and now < self._next_scan:
            return []
        self._next_scan = now + self._interval
        raw = self._scanner.scan()
        if raw != self._last_raw:
            self._last_raw = raw
            self._changed_at = now
        settled = self._settle.update(raw, now)
        events: list[BoardEvent] = [] if settled is None else [BoardSettled(settled)]
        window = self._settle.window_s
        limit = STILL_TIMEOUT_SCANS * (window + self._interval)
        steady = self._settle.steady(now)
        while self._syncs:
            token, asked = self._syncs[0]
            if steady and now - max(asked, self._changed_at) >= window - 1e-9:
                events.append(BoardSynced(token))
            elif now - asked >= limit:
                events.append(
                    BoardSyncFailed(
                        token,
                        "The board keeps changing: check for a piece rocking on its "
                        "square or a loose switch wire",
                    )
                )
            else:
                break
            self._syncs.pop(0)
        return events

    def close(self) -> None:
        self._scanner.close()
