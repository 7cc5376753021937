"""Double Double Dominoes geometry: cells, diamonds, the score track, where a domino fits.

Pure: standard library only. Cells are named ``A1``..``O15`` (column letter, row
number, ``A1`` top left, ``H8`` the star); inside this module a cell is its index
``row * 15 + column``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from games.errors import BadCell

SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"
STAR = "H8"
MAX_PIP = 6


class Domino(NamedTuple):
    """A domino: ``a`` and ``b`` are the pips on its two halves."""

    a: int
    b: int

    @property
    def is_double(self) -> bool:
        return self.a == self.b

    @property
    def pips(self) -> int:
        return self.a + self.b

    def key(self) -> Domino:
        """The same domino with the smaller pip first, as hands and the pit hold it."""
        return self if self.a <= self.b else Domino(self.b, self.a)

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"


def double_six_sets(count: int) -> list[Domino]:
    """``count`` double-six sets: every pair 0-0 … 6-6, ``count`` times each."""
    one = [Domino(a, b) for a in range(MAX_PIP + 1) for b in range(a, MAX_PIP + 1)]
    return one * count


NAMES: tuple[str, ...] = tuple(f"{COLUMNS[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE))
_INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
STAR_INDEX = _INDEX[STAR]


def _neighbours(i: int) -> tuple[int, ...]:
    row, col = divmod(i, SIZE)
    out = []
    if row > 0:
        out.append(i - SIZE)
    if col > 0:
        out.append(i - 1)
    if col < SIZE - 1:
        out.append(i + 1)
    if row < SIZE - 1:
        out.append(i + SIZE)
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(SIZE * SIZE))


def cell_index(name: str) -> int:
    """The index of a cell name such as ``"H8"``; raise BadCell for anything else."""
    i = _INDEX.get(name)
    if i is None and isinstance(name, str):
        i = _INDEX.get(name.strip().upper())
    if i is None:
        raise BadCell(f"{name!r} is not a cell: use a column A–O then a row 1–15, like H8")
    return i


def span(c1: int, c2: int) -> str:
    """Two cells written as a range: ``"H7–H8"``."""
    return f"{NAMES[c1]}–{NAMES[c2]}"


_DIAMOND_ROWS = (
    "5..4...3...4..5",
    "..3..4...4..3..",
    ".3..2.....2..3.",
    "4..3.2...2.3..4",
    "..2.1.1.1.1.2..",
    ".4.2.1...1.2.4.",
    "....1.....1....",
    "3......*......3",
    "....1.....1....",
    ".4.2.1...1.2.4.",
    "..2.1.1.1.1.2..",
    "4..3.2...2.3..4",
    ".3..2.....2..3.",
    "..3..4...4..3..",
    "5..4...3...4..5",
)
DIAMONDS: dict[int, int] = {
    r * SIZE + c: int(ch)
    for r, row in enumerate(_DIAMOND_ROWS)
    for c, ch in enumerate(row)
    if ch.isdigit()
}

_TRACK_TEXT = (
    "1 2 3 4 5 6 0 2 5 3  4 6 2 2 0 3 5 4 1 6  2 4 5 5 0 6 3 4 2 0 "
    "1 5 1 3 4 4 4 5 0 6  3 5 4 1 3 2 0 0 1 1  2 3 6 3 5 2 1 0 6 6 "
    "5 2 1 2 5 0 3 3 5 0  6 1 4 0 6 3 5 1 4 2  6 2 3 1 6 5 6 2 0 4 "
    "0 1 6 4 4 1 6 6 3 0"
)
TRACK: tuple[int, ...] = tuple(int(p) for p in _TRACK_TEXT.split())
"""Pips on track spaces 1–100 (``TRACK[k - 1]`` is space ``k``); the start spot has none."""
TRACK_LENGTH = len(TRACK)


def track_pips(space: int) -> int | None:
    """The pips shown on a track space; ``None`` for the start spot (space 0)."""
    if space <= 0:
        return None
    return TRACK[min(space, TRACK_LENGTH) - 1]


def _blocks_of(cell: int) -> tuple[tuple[int, int, int, int], ...]:
    row, col = divmod(cell, SIZE)
    out = []
    for r in (row - 1, row):
        for c in (col - 1, col):
            if 0 <= r < SIZE - 1 and 0 <= c < SIZE - 1:
                top = r * SIZE + c
                out.append((top, top + 1, top + SIZE, top + SIZE + 1))
    return tuple(out)


BLOCKS: tuple[tuple[tuple[int, int, int, int], ...], ...] = tuple(
    _blocks_of(i) for i in range(SIZE * SIZE)
)
"""The 2×2 blocks containing each cell, each as its four cells, top left first."""

NEAR: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        j for j in range(SIZE * SIZE) if abs(j // SIZE - i // SIZE) + abs(j % SIZE - i % SIZE) <= 2
    )
    for i in range(SIZE * SIZE)
)
"""Cells within two steps of each cell: whose slots a domino laid there can change."""


@dataclass(frozen=True)
class Laid:
    """A domino on the board: pip ``domino.a`` on ``cell_a``, ``domino.b`` on ``cell_b``."""

    domino: Domino
    cell_a: int
    cell_b: int
    owner: int

    def where(self) -> str:
        return f"{self.domino} on {span(self.cell_a, self.cell_b)}"


@dataclass(frozen=True)
class Slot:
    """Two empty neighbouring cells a domino may cover, and what each half must show.

    ``needs[i]`` is the pip the half on ``cells[i]`` must match (``None``: any),
    ``touches[i]`` the board cell that half lies against; ``dominoes`` are the
    indices of the dominoes touched.
    """

    cells: tuple[int, int]
    needs: tuple[int | None, int | None]
    touches: tuple[int | None, int | None]
    dominoes: frozenset[int]

    def mismatch(self, pip_a: int, pip_b: int) -> str:
        """Why pips ``pip_a`` on ``cells[0]`` and ``pip_b`` on ``cells[1]`` fail; "" if they fit."""
        joins = self.needs[0] is not None and self.needs[1] is not None
        for pip, need, touch in zip((pip_a, pip_b), self.needs, self.touches, strict=True):
            if need is None or pip == need or touch is None:
                continue
            end = "end" if joins else "tail"
            return f"the {end} {pip} does not match the {need} on {NAMES[touch]}"
        return ""

    def fits(self, pip_a: int, pip_b: int) -> bool:
        n0, n1 = self.needs
        return (n0 is None or n0 == pip_a) and (n1 is None or n1 == pip_b)


class Board:
    """The dominoes laid so far and the rules of where the next one may go."""

    def __init__(self) -> None:
        self.laid: list[Laid] = []
        self.pip: dict[int, int] = {}
        self.domino_at: dict[int, int] = {}
        self._slots: dict[tuple[int, int], Slot] | None = None
        self._slot_list: list[Slot] | None = None

    def copy(self) -> Board:
        other = Board()
        other.laid = list(self.laid)
        other.pip = dict(self.pip)
        other.domino_at = dict(self.domino_at)
        other._slots = None if self._slots is None else dict(self._slots)
        other._slot_list = self._slot_list
        return other

    def lay(self, domino: Domino, cell_a: int, cell_b: int, owner: int) -> int:
        """Put a domino down without judging it; return its index."""
        index = len(self.laid)
        self.laid.append(Laid(domino, cell_a, cell_b, owner))
        self.pip[cell_a], self.pip[cell_b] = domino.a, domino.b
        self.domino_at[cell_a] = self.domino_at[cell_b] = index
        self._slot_list = None
        if self._slots is not None:
            if index == 0:
                self._slots = None
            else:
                self._update_slots(cell_a, cell_b)
        return index

    def analyse(self, c1: int, c2: int) -> Slot | str:
        """The slot two empty neighbouring cells form, or why no domino may lie there."""
        return self._judge(c1, c2, explain=True)

    def slots(self) -> list[Slot]:
        """Every place a domino could lie now, each pair of cells once (lower index first)."""
        if self._slot_list is None:
            if self._slots is None:
                self._slots = self._find_slots()
            self._slot_list = [self._slots[k] for k in sorted(self._slots)]
        return self._slot_list

    def _judge(self, c1: int, c2: int, explain: bool) -> Slot | str:
        # Messages cost more than the test itself, so they are built only when asked.
        pip = self.pip
        if not self.laid:
            if STAR_INDEX not in (c1, c2):
                return f"the first domino must lie on the star {STAR}" if explain else ""
            return Slot((c1, c2), (None, None), (None, None), frozenset())
        touch1 = [n for n in NEIGHBOURS[c1] if n != c2 and n in pip]
        touch2 = [n for n in NEIGHBOURS[c2] if n != c1 and n in pip]
        if not touch1 and not touch2:
            return f"{span(c1, c2)} does not touch the line" if explain else ""
        for cell, touching in ((c1, touch1), (c2, touch2)):
            if len(touching) > 1:
                if not explain:
                    return ""
                names = " and ".join(self.laid[self.domino_at[t]].where() for t in touching)
                return f"{NAMES[cell]} touches {names}; a domino may touch only one at each end"
        if touch1 and touch2:
            d1 = self.domino_at[touch1[0]]
            if d1 == self.domino_at[touch2[0]]:
                return f"lies side by side with {self.laid[d1].where()}" if explain else ""
            # An end touching one domino leaves its own blocks open, so only a block
            # holding both ends and both touched cells can be filled.
            for block in BLOCKS[c1]:
                if c2 in block and all(x in pip or x in (c1, c2) for x in block):
                    span_text = span(block[0], block[3])
                    return f"would fill the 2×2 block {span_text}" if explain else ""
        t1 = touch1[0] if touch1 else None
        t2 = touch2[0] if touch2 else None
        return Slot(
            (c1, c2),
            (None if t1 is None else pip[t1], None if t2 is None else pip[t2]),
            (t1, t2),
            frozenset(self.domino_at[t] for t in (t1, t2) if t is not None),
        )

    def _add_slots(self, found: dict[tuple[int, int], Slot], cells: set[int]) -> None:
        pip = self.pip
        judged: set[tuple[int, int]] = set()  # a pair is met from both its cells
        for c in cells:
            if c in pip:
                continue
            for n in NEIGHBOURS[c]:
                key = (c, n) if c < n else (n, c)
                if n in pip or key in found or key in judged:
                    continue
                judged.add(key)
                slot = self._judge(key[0], key[1], explain=False)
                if isinstance(slot, Slot):
                    found[key] = slot

    def _find_slots(self) -> dict[tuple[int, int], Slot]:
        found: dict[tuple[int, int], Slot] = {}
        if not self.laid:
            self._add_slots(found, {STAR_INDEX})
        else:
            self._add_slots(found, {n for c in self.pip for n in NEIGHBOURS[c]})
        return found

    def _update_slots(self, cell_a: int, cell_b: int) -> None:
        assert self._slots is not None
        near = set(NEAR[cell_a]) | set(NEAR[cell_b])
        kept = {k: v for k, v in self._slots.items() if k[0] not in near and k[1] not in near}
        self._add_slots(kept, near)
        self._slots = kept
