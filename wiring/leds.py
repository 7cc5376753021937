"""The LED chain under the squares: the order its data line runs through the cells,
and the profile's ``[leds]`` section read into a ``LedChain``.

The chain covers the board's cells, then the rack slots seat by seat. With
``order = "rows"`` it runs along each row of the sensor grid (row 0, the top row,
first); with ``"serpentine"`` along a row and back along the next, so each row's
last LED sits beside the next row's first; with ``"table"`` it follows the
profile's ``table``, which must list every cell once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal, cast

from wiring.pico import firmware_pins, gp_pin
from wiring.profile import LedChain, SerialWiring

if TYPE_CHECKING:
    from wiring.schema import _Builder

Order = Literal["rows", "serpentine", "table"]
ORDERS: tuple[Order, ...] = ("rows", "serpentine", "table")
PICO_GPIOS: tuple[int, ...] = tuple(range(29))
"""The Pico's GP numbers (GP23-25 and 29 serve its own board, never its pins)."""
MAX_BUDGET_MA = 20_000
"""The most current a chain may be given: 20 A at 5 V is 100 W, beyond any board."""


def grid_chain(
    order: Literal["rows", "serpentine"],
    cells: Sequence[str],
    columns: int,
    racks: Mapping[int, Sequence[str]],
) -> tuple[str, ...]:
    """The cells in the order the data line reaches them: the board's cells (every
    cell of the ``columns``-wide sensor grid that is not a rack slot) along the rows,
    then the rack slots seat by seat in their listed order."""
    slots = [cell for _seat, seat_cells in sorted(racks.items()) for cell in seat_cells]
    in_rack = set(slots)
    chain: list[str] = []
    for start in range(0, len(cells), columns):
        row = [c for c in cells[start : start + columns] if c not in in_rack]
        if order == "serpentine" and (start // columns) % 2 == 1:
            row.reverse()
        chain += row
    return (*chain, *slots)


def free_pico_pins(sensor: str) -> list[int]:
    """The Pico's GPIOs a board of ``sensor`` leaves free, in order."""
    used = firmware_pins(sensor)
    return [gp for gp in PICO_GPIOS if gp not in used]


def _free(sensor: str) -> str:
    return "free on this board: " + ", ".join(
        f"GP{gp} (pin {gp_pin(gp)})" for gp in free_pico_pins(sensor)
    )


def read_leds(
    b: _Builder,
    serial: SerialWiring | None,
    cells: tuple[str, ...] | None,
    racks: Mapping[int, Sequence[str]],
) -> LedChain | None:
    """The ``[leds]`` section as a ``LedChain`` (None, with the problems reported,
    when it is wrong; None without a problem when the profile has no chain)."""
    if not b.has("leds"):
        return None
    if b.doc.tables.get("board", {}).get("sensor") == "gpio-matrix":
        b.problem(
            "leds",
            "",
            "an LED chain is driven by the Pico of a serial board, and this board is wired "
            "to the Pi's GPIO, whose pins the matrix, the station and the OLED already take",
            "remove the [leds] section (the lights are then shown in the state, the "
            "spectators' view and the pictures) or build the board on a Pico",
        )
        return None
    pin = b.integer("leds", "pin", None, 0)
    if pin is not None and serial is not None:
        used = firmware_pins(serial.sensor)
        if pin not in PICO_GPIOS:
            b.problem(
                "leds",
                "pin",
                f"the Pico has no GP{pin}",
                f"use a GP number it brings out ({_free(serial.sensor)})",
            )
            pin = None
        elif pin in used:
            b.problem(
                "leds",
                "pin",
                f"GP{pin} is used by {used[pin]} on this {serial.sensor} board",
                f"give the chain's data line its own pin ({_free(serial.sensor)})",
            )
            pin = None
    order = cast(Order | None, b.choice("leds", "order", ORDERS, None))
    brightness = b.number("leds", "brightness", 0.25, 0.0, 1.0)
    budget = b.integer("leds", "budget_ma", 2000, 100, MAX_BUDGET_MA)
    chain = _chain(b, order, serial, cells, racks)
    if pin is None or order is None or chain is None or brightness is None or budget is None:
        return None
    return LedChain(pin, order, chain, brightness, budget)


def _chain(
    b: _Builder,
    order: Order | None,
    serial: SerialWiring | None,
    cells: tuple[str, ...] | None,
    racks: Mapping[int, Sequence[str]],
) -> tuple[str, ...] | None:
    has_table = "table" in b.doc.tables["leds"]
    table = b.doc.tables["leds"].get("table")
    if order != "table":
        if has_table and order is not None:
            b.problem(
                "leds",
                "table",
                f'a table is only read with order = "table", but order = {order!r}',
                'remove `table` or set order = "table"',
            )
            return None
        if order is None or cells is None or serial is None:
            return None
        return grid_chain(order, cells, serial.columns, racks)
    if not has_table:
        b.problem("leds", "table", 'missing key (order = "table" needs it)', _TABLE_TODO)
        return None
    if not isinstance(table, list) or not all(isinstance(c, str) and c for c in table):
        b.wrong_type("leds", "table", table, "a list of cell names in chain order")
        return None
    if cells is None:
        return None
    known = set(cells)
    stray = [c for c in table if c not in known]
    repeated = sorted({c for c in table if table.count(c) > 1}, key=cells.index)
    listed = set(table)
    missing = [c for c in cells if c not in listed]
    if stray:
        b.problem("leds", "table", "not cells of the board: " + _some(stray), _TABLE_TODO)
    if repeated:
        b.problem("leds", "table", "listed more than once: " + _some(repeated), _TABLE_TODO)
    if missing:
        b.problem(
            "leds", "table", f"{len(missing)} cells have no LED: " + _some(missing), _TABLE_TODO
        )
    if stray or repeated or missing:
        return None
    return tuple(table)


_TABLE_TODO = (
    "list every cell of [board] cells once, in the order the data line reaches them "
    '(or use order = "rows" or "serpentine")'
)


def _some(names: Sequence[str]) -> str:
    return ", ".join(names[:12]) + (f", … ({len(names)} in all)" if len(names) > 12 else "")
