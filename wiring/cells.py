"""Cell-name schemes: the names of a rows × columns board's cells, in sensor order.

Sensor order is row by row: ``cells[r * columns + c]`` is driven (or reported)
row ``r``, column ``c``.
"""

from __future__ import annotations

from collections.abc import Callable
from string import ascii_lowercase, ascii_uppercase


def _files_ranks(rows: int, columns: int) -> tuple[str, ...]:
    # Chess-like: row r is rank r+1, column c is file a+c, so a1 is row 0, column 0.
    return tuple(f"{ascii_lowercase[c]}{r + 1}" for r in range(rows) for c in range(columns))


def _letters_numbers(rows: int, columns: int) -> tuple[str, ...]:
    # Column letter then row number, A1 top left.
    return tuple(f"{ascii_uppercase[c]}{r + 1}" for r in range(rows) for c in range(columns))


def _dice_rows_columns(rows: int, columns: int) -> tuple[str, ...]:
    # Rows and columns are numbered by two-dice sums, starting at 3.
    return tuple(f"r{r + 3}c{c + 3}" for r in range(rows) for c in range(columns))


SCHEMES: dict[str, Callable[[int, int], tuple[str, ...]]] = {
    "files-ranks": _files_ranks,
    "letters-numbers": _letters_numbers,
    "dice-rows-columns": _dice_rows_columns,
}
"""Scheme name → function of (rows, columns) giving the cell names."""

_MAX_COLUMNS = {"files-ranks": 26, "letters-numbers": 26}


def scheme_cells(scheme: str, rows: int, columns: int) -> tuple[str, ...]:
    """The cell names of a scheme for a rows × columns board, in sensor order.

    Raises ``ValueError`` naming the problem when the scheme is unknown or
    cannot name that many columns.
    """
    try:
        make = SCHEMES[scheme]
    except KeyError:
        known = ", ".join(sorted(SCHEMES))
        raise ValueError(f"unknown cell scheme {scheme!r}; use one of {known}") from None
    limit = _MAX_COLUMNS.get(scheme)
    if limit is not None and columns > limit:
        raise ValueError(
            f"scheme {scheme!r} names at most {limit} columns, not {columns}; "
            "list the cells explicitly instead"
        )
    return make(rows, columns)
