"""Where each cell of a game's board is drawn, and its special spaces.

Any game whose cell names look like ``r4c7`` or ``H8``/``b3`` is laid out on a
grid from its names; other names go in reading order. The shipped games add
their special spaces (Crosslet's bonus squares, the Dominoes diamonds and star,
Double Take's two colours of points, DoubleCross's bombs, bonus, mystery and
blocking spaces).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from games.core import Game

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


def geometry(game: Game) -> Geometry:
    """The drawing plan of ``game``'s board: size, cell positions, special spaces."""
    cells = game.cells()
    pos = positions(cells)
    cols = max((x for x, _ in pos.values()), default=0) + 1
    rows = max((y for _, y in pos.values()), default=0) + 1
    if game.name == "double-take":
        # Red's near row (rank 1) is at the bottom, as red sits.
        pos = {c: (x, rows - 1 - y) for c, (x, y) in pos.items()}
    special: dict[str, dict[str, str]] = {}
    maker = _SPECIALS.get(game.name)
    if maker is not None:
        special = maker(game, cells)
    geo: Geometry = {
        "game": game.name,
        "cols": cols,
        "rows": rows,
        "cells": {c: list(p) for c, p in pos.items()},
        "special": special,
    }
    if game.name == "crosslet":
        from games.crosslet_board import LETTER_VALUES

        geo["values"] = dict(LETTER_VALUES)  # each tile shows what its letter is worth
    return geo


def _crosslet(game: Game, cells: Sequence[str]) -> dict[str, dict[str, str]]:
    from games.crosslet_board import CENTRE, LETTER_MULTIPLIER, WORD_MULTIPLIER, parse_cell

    out: dict[str, dict[str, str]] = {}
    for cell in cells:
        col, row = parse_cell(cell)
        word, letter = WORD_MULTIPLIER[row][col], LETTER_MULTIPLIER[row][col]
        if cell == CENTRE:
            out[cell] = {"text": "★", "fill": "#f4b6c2", "name": "start: word ×2"}
        elif word == 3:
            out[cell] = {"text": "3W", "fill": "#e06666", "name": "word ×3"}
        elif word == 2:
            out[cell] = {"text": "2W", "fill": "#9fc5e8", "name": "word ×2"}
        elif letter == 3:
            out[cell] = {"text": "3L", "fill": "#ffe599", "name": "letter ×3"}
        elif letter == 2:
            out[cell] = {"text": "2L", "fill": "#b6d7a8", "name": "letter ×2"}
    return out


def _dominoes(game: Game, cells: Sequence[str]) -> dict[str, dict[str, str]]:
    from games.dominoes_board import DIAMONDS, STAR, cell_index

    out: dict[str, dict[str, str]] = {}
    for cell in cells:
        n = DIAMONDS.get(cell_index(cell))
        if cell == STAR:
            out[cell] = {"text": "★", "fill": "#ffd966", "name": "star: the first domino"}
        elif n is not None:
            out[cell] = {"text": f"◆{n}", "fill": "#d9d2e9", "name": f"diamond worth {n}"}
    return out


def _double_take(game: Game, cells: Sequence[str]) -> dict[str, dict[str, str]]:
    colour = getattr(game, "colour", None)
    if colour is None:
        return {}
    fills = ("#f4cccc", "#d9ead3")
    return {cell: {"text": "", "fill": fills[colour(cell) % 2]} for cell in cells}


def _doublecross(game: Game, cells: Sequence[str]) -> dict[str, dict[str, str]]:
    specials = getattr(game, "specials", None)
    if specials is None:
        return {}
    return {cell: doublecross_space(kind) for cell, kind in specials().items()}


DOUBLECROSS_SPACES = {
    "bonus": {"text": "+", "fill": "#ffd966", "name": "bonus"},
    "block": {"text": "■", "fill": "#777777", "name": "block: no tile here"},
    "mystery": {"text": "?", "fill": "#d9d2e9", "name": "mystery"},
    "ns": {"text": "↕", "fill": "#f9cb9c", "name": "bomb: its column"},
    "ew": {"text": "↔", "fill": "#f9cb9c", "name": "bomb: its row"},
    "nsew": {"text": "✥", "fill": "#f9cb9c", "name": "bomb: row and column"},
}
"""How DoubleCross's special spaces are drawn; a coloured bomb shows its seat."""


def doublecross_space(kind: str) -> dict[str, str]:
    """A DoubleCross special space (``bonus``, ``ns``, ``bomb-2`` ...) as text and fill."""
    if kind.startswith("bomb-"):
        return {"text": f"●{kind[5:]}", "fill": "#ea9999", "name": f"player {kind[5:]}'s bomb"}
    return dict(DOUBLECROSS_SPACES.get(kind, {"text": kind[:2], "fill": "#dddddd", "name": kind}))


_SPECIALS = {
    "crosslet": _crosslet,
    "dominoes": _dominoes,
    "double-take": _double_take,
    "doublecross": _doublecross,
}
