"""Where each cell of a game's board is drawn, and its special spaces.

Any game whose cell names look like ``r4c7`` or ``H8``/``b3`` is laid out on a
grid from its names; other names go in reading order. Each game's kit adds its
part (``Kit.board``): its special spaces (Crosslet's bonus squares, the Dominoes
diamonds and star, Double Take's two colours of points, DoubleCross's bombs, bonus,
mystery and blocking spaces), whether the first rank is at the bottom, and what
each letter is worth.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Game

from ..kits import KITS, BoardLook

_ROW_COL = re.compile(r"^r(\d+)c(\d+)$")
_LETTERS_NUMBER = re.compile(r"^([A-Za-z]+)(\d+)$")

Geometry = dict[str, Any]


def _column(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - ord("A") + 1
    return n - 1


def positions(cells: Sequence[str]) -> dict[str, tuple[int, int]]:
    """(column, row) from 0 of every cell, top-left first."""
    pos: dict[str, tuple[int, int]] = {}
    for cell in cells:
        m = _ROW_COL.match(cell)
        if m:
            pos[cell] = (int(m.group(2)), int(m.group(1)))
            continue
        m = _LETTERS_NUMBER.match(cell)
        if m:
            pos[cell] = (_column(m.group(1)), int(m.group(2)) - 1)
            continue
        break
    else:
        if pos and len(set(pos.values())) == len(pos):
            x0 = min(x for x, _ in pos.values())
            y0 = min(y for _, y in pos.values())
            return {c: (x - x0, y - y0) for c, (x, y) in pos.items()}
    width = max(1, math.ceil(math.sqrt(len(cells))))
    return {c: (i % width, i // width) for i, c in enumerate(cells)}


def axis_labels(cells: Mapping[str, Sequence[int]]) -> tuple[dict[int, str], dict[int, str]]:
    """Column and row headings from the cells' names and places (``H`` and ``8`` of
    ``H8``, ``c4`` and ``r7`` of ``r7c4``); none for names of another shape."""
    cols: dict[int, str] = {}
    rows: dict[int, str] = {}
    for cell, (x, y) in cells.items():
        m = _ROW_COL.match(cell)
        if m:
            rows.setdefault(y, f"r{m.group(1)}")
            cols.setdefault(x, f"c{m.group(2)}")
            continue
        m = _LETTERS_NUMBER.match(cell)
        if m is None:
            return {}, {}
        cols.setdefault(x, m.group(1))
        rows.setdefault(y, m.group(2))
    return cols, rows


def domino_pairs(geo: Geometry, layout: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, str]]:
    """The two halves of each domino on the board: side by side, of one domino (``6-3:6``
    beside ``6-3:3``) and one owner, paired in reading order."""
    cells: Mapping[str, Sequence[int]] = geo["cells"]
    at = {tuple(p): c for c, p in cells.items()}
    halves = {
        c: str(p.get("label", "")).partition(":")
        for c, p in layout.items()
        if p.get("kind") == "domino" and c in cells
    }
    paired: set[str] = set()
    pairs: list[tuple[str, str]] = []
    for cell in sorted(halves, key=lambda c: (cells[c][1], cells[c][0])):
        if cell in paired:
            continue
        domino, _, half = halves[cell]
        ends = domino.split("-")
        if len(ends) != 2 or half not in ends:
            continue
        other = ends[1] if half == ends[0] else ends[0]
        x, y = cells[cell]
        for near in (at.get((x + 1, y)), at.get((x, y + 1))):
            if (
                near is not None
                and near not in paired
                and halves.get(near) == (domino, ":", other)
                and layout[near].get("owner") == layout[cell].get("owner")
            ):
                paired.update((cell, near))
                pairs.append((cell, near))
                break
    return pairs


def geometry(game: Game) -> Geometry:
    """The drawing plan of ``game``'s board: size, cell positions, special spaces."""
    cells = game.cells()
    pos = positions(cells)
    cols = max((x for x, _ in pos.values()), default=0) + 1
    rows = max((y for _, y in pos.values()), default=0) + 1
    kit = KITS.get(game.name)
    look = kit.board if kit is not None else BoardLook()
    if look.upside_down:
        pos = {c: (x, rows - 1 - y) for c, (x, y) in pos.items()}
    special = look.specials(game, cells) if look.specials is not None else {}
    geo: Geometry = {
        "game": game.name,
        "cols": cols,
        "rows": rows,
        "cells": {c: list(p) for c, p in pos.items()},
        "special": special,
    }
    if look.values is not None:
        geo["values"] = dict(look.values())  # each tile shows what its letter is worth
    return geo
