"""The simulated occupancy matrix: switches and diodes behind gpiozero mock pins.

Each row pin is a mock pin that tells the matrix when its level changes; the
matrix then sets every column pin as the diode matrix would: a column reads
active exactly when a driven row has a closed switch (an occupied cell) on it.
The real :class:`hardware.matrix.MatrixScanner` reads it like any board.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from hardware.matrix import check_matrix_cells
from hardware.pins import SimPin
from wiring.profile import MatrixWiring


class _RowPin(SimPin):
    """A row pin: whenever it is driven or released, the columns are recomputed."""

    matrix: SimulatedMatrix | None = None

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed and self.matrix is not None:
            self.matrix.refresh()
        return changed

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        # An output becoming an input stops driving even if its level stays.
        if self.matrix is not None:
            self.matrix.refresh()


class _ColumnPin(SimPin):
    """A column pin: setting its pull must not override a closed switch."""

    matrix: SimulatedMatrix | None = None

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        if self.matrix is not None:
            self.matrix.refresh()


class SimulatedMatrix:
    """The physical board of the simulation: pieces on cells over a diode matrix.

    Build it before the scanner, on the same ``factory``, so it owns the pins.
    """

    def __init__(self, factory: MockFactory, wiring: MatrixWiring, cells: Sequence[str]) -> None:
        self.cells = check_matrix_cells(wiring, cells)
        self._index = {cell: i for i, cell in enumerate(self.cells)}
        self._columns_count = len(wiring.column_pins)
        # The level of a driven row, and of a column whose switch conducts.
        self._active_level = not wiring.active_low
        self._occupied: set[str] = set()
        self._rows: list[Any] = [self._own(factory, pin, _RowPin) for pin in wiring.row_pins]
        self._columns: list[Any] = [
            self._own(factory, pin, _ColumnPin) for pin in wiring.column_pins
        ]
        self.refresh()

    def _own(self, factory: MockFactory, number: int, pin_class: type[MockPin]) -> Any:
        pin = factory.pin(number, pin_class=pin_class)
        if not isinstance(pin, pin_class) or pin.matrix is not None:
            raise ValueError(
                f"GPIO{number} already exists on this mock factory as something else: "
                "build the SimulatedMatrix before the scanner or any other device uses its pins"
            )
        pin.matrix = self
        return pin

    @property
    def occupied(self) -> set[str]:
        """The cells with a piece on them now."""
        return set(self._occupied)

    def place(self, cell: str) -> None:
        """Put a piece on ``cell`` (closing its switch)."""
        self._check(cell)
        self._occupied.add(cell)
        self.refresh()

    def lift(self, cell: str) -> None:
        """Take the piece off ``cell`` (opening its switch); an empty cell stays empty."""
        self._check(cell)
        self._occupied.discard(cell)
        self.refresh()

    def load(self, cells: Iterable[str]) -> None:
        """Make exactly ``cells`` occupied, all at once."""
        wanted = set(cells)
        for cell in sorted(wanted):
            self._check(cell)
        self._occupied = wanted
        self.refresh()

    def _check(self, cell: str) -> None:
        if cell not in self._index:
            sample = ", ".join(self.cells[:4])
            raise ValueError(
                f"there is no cell {cell!r} on this board (its {len(self.cells)} cells "
                f"are named like {sample}, …)"
            )

    def refresh(self) -> None:
        """Set every column pin from the driven rows and the closed switches."""
        driven = [
            r
            for r, pin in enumerate(self._rows)
            if pin.function == "output" and pin.state == self._active_level
        ]
        for c, pin in enumerate(self._columns):
            if pin.function != "input":
                continue
            # Diodes let current flow only from a driven row through its own
            # closed switches, so undriven rows never reach a column (no ghosts).
            conducts = any(
                self.cells[r * self._columns_count + c] in self._occupied for r in driven
            )
            if conducts == self._active_level:
                pin.drive_high()
            else:
                pin.drive_low()

    def close(self) -> None:
        """Detach from the pins; they stay on the factory as plain pins."""
        for pin in [*self._rows, *self._columns]:
            pin.matrix = None
