"""Crosslet's move generator: every single-line placement for a rack, by Appel–Jacobson.

The words are held in a DAWG (a trie whose equal suffixes are shared), kept as flat
arrays: for each node a 26-bit mask of the letters that leave it and the offset of
its first edge, for each edge its target, in letter order. A child is found with one
popcount: ``targets[first[node] + popcount(mask & below(letter))]``. The same arrays
are the cache file, so loading copies bytes and builds no objects per node.

For each line and each anchor (an empty cell next to a tile) the search grows a left
part from the rack through non-anchor cells, then extends right through the anchor,
checking each new tile against the cross-word it makes across the line. Letters are
tried only where the rack, the word graph and the cross-word all allow them (one AND
of three masks), and a left part is tried at an anchor only if some tile left on the
rack can go on the anchor, lead on through the tiles right of it, and there end a word
or be followed by a tile left on the rack that the next empty cell allows. Cross-checks
are remembered by the letters above and below a cell, across searches. Scores are
kept as the search goes; when only the best is wanted, a placement scoring less than
the best so far is dropped as soon as it is found.

The order in which placements are found is part of the contract: the computer
player breaks ties between equal scores by it, so that seeded games replay exactly.

An install made with ``TABLETOP_COMPILE=1`` compiles this module with mypyc
(``setup.py``), and the extension imports in its place; the module must stay within
what mypyc compiles (no ``cls.__new__``, no attributes added to its classes from
outside). ``tests/games/crosslet/test_movegen_compiled.py`` checks that the two find the same.
"""

from __future__ import annotations

import gc
import heapq
import math
import operator
import sys
import zlib
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate

from games.core import Cell
from games.crosslet.actions import PlaceTiles
from games.crosslet.board import (
    ALL_TILES_BONUS,
    BLANK,
    CENTRE,
    LETTER_MULTIPLIER,
    LETTER_VALUES,
    RACK_SIZE,
    SIZE,
    WORD_MULTIPLIER,
    cell_name,
    parse_cell,
    tile_points,
)
from games.errors import BadGeneratorData

__all__ = [
    "BadGeneratorData",
    "Dawg",
    "Move",
    "MoveGenerator",
]

_MAGIC = b"CXDAWG2\n"
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ALL = (1 << 26) - 1
"""The mask of every letter."""
_BELOW = tuple((1 << i) - 1 for i in range(26))
"""``_BELOW[i]``: the mask of the letters before letter ``i``."""
_INDEX = {ch: i for i, ch in enumerate(_ALPHABET)}
_LINE = (1 << SIZE) - 1
"""The mask of every cell of a line."""
_LOWER = _ALPHABET.lower()
"""A blank's letter in a search result is lower case."""
_BLANK_AS = {1 << i: ch for i, ch in enumerate(_LOWER)}
"""A blank's letter in a search result by the bit of the letter."""


class Dawg:
    """A minimal acyclic word graph over upper-case words, as flat arrays; node 0 is the root.

    ``masks[n]`` has bit ``i`` set when letter ``i`` (A is 0) leaves node ``n``;
    ``final[n]`` is 1 when a word ends at ``n``; the edges of ``n`` are
    ``targets[first[n]:first[n + 1]]``, in letter order.
    """

    __slots__ = ("final", "first", "masks", "targets")

    def __init__(self, masks: array[int], final: bytes, targets: array[int]) -> None:
        self.masks = masks
        self.final = final
        self.targets = targets
        self.first = array("I", accumulate(map(int.bit_count, masks), initial=0))

    @classmethod
    def build(cls, words: Iterable[str]) -> Dawg:
        """The DAWG of every word of 2 to 15 letters A–Z (case is ignored; others skipped)."""
        chosen = sorted(
            {w.upper() for w in words if 2 <= len(w) <= SIZE and w.isascii() and w.isalpha()}
        )
        edges: list[dict[str, int]] = [{}]
        final = [False]
        register: dict[tuple[bool, tuple[tuple[str, int], ...]], int] = {}
        # The path of the previous word whose nodes are not yet merged with equals.
        path: list[tuple[int, str, int]] = []

        def merge_down_to(depth: int) -> None:
            while len(path) > depth:
                parent, letter, child = path.pop()
                key = (final[child], tuple(edges[child].items()))
                twin = register.get(key)
                if twin is None:
                    register[key] = child
                else:
                    edges[parent][letter] = twin

        previous = ""
        for word in chosen:
            common = 0
            limit = min(len(word), len(previous))
            while common < limit and word[common] == previous[common]:
                common += 1
            merge_down_to(common)
            node = path[-1][2] if path else 0
            for letter in word[common:]:
                new = len(edges)
                edges.append({})
                final.append(False)
                edges[node][letter] = new
                path.append((node, letter, new))
                node = new
            final[node] = True
            previous = word
        merge_down_to(0)
        return cls.flatten(edges, final)

    @classmethod
    def flatten(cls, edges: Sequence[Mapping[str, int]], final: Sequence[bool]) -> Dawg:
        """The flat form of a graph given as one letter-to-node map per node, with the
        nodes that the root reaches numbered in breadth-first order."""
        number = {0: 0}
        order = [0]
        for node in order:
            for child in edges[node].values():
                if child not in number:
                    number[child] = len(order)
                    order.append(child)
        masks = array("I")
        targets = array("I")
        for node in order:
            out = edges[node]
            mask = 0
            for letter in out:
                mask |= 1 << _INDEX[letter]
            masks.append(mask)
            targets.extend(number[out[letter]] for letter in sorted(out))
        return cls(masks, bytes(final[n] for n in order), targets)

    def child(self, node: int, letter: str) -> int | None:
        """The node reached from ``node`` by ``letter`` (upper case), or None."""
        i = _INDEX.get(letter)
        if i is None:
            return None
        mask = self.masks[node]
        if not mask >> i & 1:
            return None
        return self.targets[self.first[node] + (mask & _BELOW[i]).bit_count()]

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        node = 0
        for letter in word.upper():
            step = self.child(node, letter)
            if step is None:
                return False
            node = step
        return bool(self.final[node])

    def __len__(self) -> int:
        return len(self.masks)

    @property
    def edge_count(self) -> int:
        return len(self.targets)

    def to_bytes(self) -> bytes:
        """The arrays as they are held, little-endian, after a header and a checksum."""
        masks, targets = array("I", self.masks), array("I", self.targets)
        if sys.byteorder == "big":
            masks.byteswap()
            targets.byteswap()
        body = (
            len(masks).to_bytes(4, "little")
            + len(targets).to_bytes(4, "little")
            + masks.tobytes()
            + self.final
            + targets.tobytes()
        )
        return _MAGIC + zlib.crc32(body).to_bytes(4, "little") + body

    @classmethod
    def from_bytes(cls, blob: bytes) -> Dawg:
        head = len(_MAGIC) + 12
        if not blob.startswith(_MAGIC) or len(blob) < head:
            raise BadGeneratorData("these bytes are not a saved Crosslet word graph")
        view = memoryview(blob)
        crc = int.from_bytes(view[len(_MAGIC) : len(_MAGIC) + 4], "little")
        nodes = int.from_bytes(view[len(_MAGIC) + 4 : len(_MAGIC) + 8], "little")
        count = int.from_bytes(view[len(_MAGIC) + 8 : head], "little")
        if len(blob) != head + 5 * nodes + 4 * count:
            raise BadGeneratorData("the saved word graph is cut short or too long")
        if zlib.crc32(view[len(_MAGIC) + 4 :]) != crc:
            raise BadGeneratorData("the saved word graph is damaged (its checksum differs)")
        masks = array("I")
        masks.frombytes(view[head : head + 4 * nodes])
        final = bytes(view[head + 4 * nodes : head + 5 * nodes])
        targets = array("I")
        targets.frombytes(view[head + 5 * nodes :])
        if sys.byteorder == "big":
            masks.byteswap()
            targets.byteswap()
        dawg = cls(masks, final, targets)
        if (
            not nodes
            or dawg.first[-1] != count
            or (count and max(targets) >= nodes)
            or (nodes and max(masks) > _ALL)
            or final.strip(b"\x00\x01")
        ):
            raise BadGeneratorData("the saved word graph is not consistent")
        return dawg


@dataclass(frozen=True)
class Move:
    """A single-line placement: ``tiles`` as (cell, letter or ``"?"``), the blanks' letters,
    the points it scores, and the word it makes along its line."""

    tiles: tuple[tuple[Cell, str], ...]
    blanks: tuple[tuple[Cell, str], ...]
    score: int
    word: str

    def action(self) -> PlaceTiles:
        return PlaceTiles(self.tiles, self.blanks)


_Found = tuple[int, bool, int, tuple[tuple[int, str], ...]]
"""(score, down?, line, ((position, letter), ...)); a lower-case letter is a blank."""

_LM_ACROSS = LETTER_MULTIPLIER
_WM_ACROSS = WORD_MULTIPLIER
_LM_DOWN = tuple(tuple(LETTER_MULTIPLIER[r][c] for r in range(SIZE)) for c in range(SIZE))
_WM_DOWN = tuple(tuple(WORD_MULTIPLIER[r][c] for r in range(SIZE)) for c in range(SIZE))
_VALUES = {ch: v for ch, v in LETTER_VALUES.items() if ch != BLANK}


def _plain_left(lms: Sequence[int], wms: Sequence[int]) -> tuple[int, ...]:
    """For each cell of a line: how many cells just before it have no multiplier."""
    counts = [0]
    for lm, wm in zip(lms, wms, strict=True):
        counts.append(counts[-1] + 1 if lm == wm == 1 else 0)
    return tuple(counts[:-1])


_PLAIN_ACROSS = tuple(map(_plain_left, _LM_ACROSS, _WM_ACROSS))
_PLAIN_DOWN = tuple(map(_plain_left, _LM_DOWN, _WM_DOWN))
_CX, _CY = parse_cell(CENTRE)
_POINT = {cell_name(col, row): (col, row) for col in range(SIZE) for row in range(SIZE)}
"""(column, row) of each cell name."""
_EMPTY = 255
_CELL_NUMBERS = bytes(_INDEX.get(chr(b).upper(), _EMPTY) for b in range(256))
"""Turns a line (latin-1) into the number of the letter in each cell, a blank's too,
and ``_EMPTY`` for an empty cell."""
_POINTS = {".": 0} | _VALUES | {ch.lower(): 0 for ch in _VALUES}
"""The points of a cell of a line (a blank is lower case, worth nothing)."""
_OCCUPIED = str.maketrans({ch: "0" if ch == "." else "1" for ch in _POINTS})
"""Turns a line into a binary number, 1 for a tile."""

_Left = tuple[int, str, int, int, int, int, int, int]
"""A left part: (node, letters spelled, the letters that may follow it from the rack:
every one after the node while a blank is left, the place of the part one letter
shorter in its list, the bit of its last letter, the rack left (see ``_Rack``), the
letters after its node, the points of its tiles)."""

_Tile = tuple[str, int, int, int]
"""A letter of the rack: (letter, the bits before it, its points, its step in the
rack's number)."""

_Held = tuple[list[tuple[int, _Tile]], dict[int, list[_Tile]]]
"""The rack's letters in rack order, each with its bit, and those of each set of
letters that may be laid, as they are needed."""

_Starts = tuple[list[_Left], list[int]]
"""The left parts chosen for an anchor, shorter first, and where those of each length end."""


@dataclass(frozen=True)
class _Rack:
    """A rack and what is left of it as the search lays its tiles, as one number: the
    count of each letter left is a digit (the blanks' the highest), so laying a tile
    subtracts its step, and what is left is looked up by that number rather than
    counted. ``full`` is the whole rack."""

    steps: dict[str, int]
    """The step of each tile, ``?`` for a blank (in rack order, the blank last)."""
    letters: list[int]
    """For each number, the mask of the letters left (blanks aside)."""
    reach: list[int]
    """For each number, the letters a tile left can be: all of them while a blank is."""
    bonus: list[int]
    """For each number, the bonus of a move that leaves the rack so: all tiles laid."""
    full: int

    @classmethod
    def of(cls, counts: Mapping[str, int]) -> _Rack:
        """The rack of ``counts`` (tile to how many, letters in rack order)."""
        steps: dict[str, int] = {}
        # Built a digit at a time, the lowest first: each letter's numbers repeat those
        # of the letters before it once for each count of it.
        letters = [0]
        for ch in [ch for ch in counts if ch != BLANK]:
            steps[ch] = len(letters)
            bit = 1 << _INDEX[ch]
            count = counts[ch]
            letters = [m | bit if k else m for k in range(count + 1) for m in letters]
        steps[BLANK] = len(letters)
        blanks = counts.get(BLANK, 0)
        reach = letters + [_ALL] * (blanks * len(letters))
        letters = letters * (blanks + 1)
        bonus = [0] * len(letters)
        tiles = sum(counts.values())
        if tiles == RACK_SIZE:
            bonus[0] = ALL_TILES_BONUS  # every tile laid
        elif tiles > RACK_SIZE:
            left = [0]
            for ch in steps:
                left = [n + k for k in range(counts.get(ch, 0) + 1) for n in left]
            bonus = [ALL_TILES_BONUS if tiles - n == RACK_SIZE else 0 for n in left]
        return cls(steps, letters, reach, bonus, len(letters) - 1)


class MoveGenerator:
    """Finds every single-line Crosslet placement for a rack; build once from the words."""

    def __init__(self, words: Iterable[str] = (), *, dawg: Dawg | None = None) -> None:
        """From the words, or from their word graph already built (``dawg``)."""
        self.dawg = Dawg.build(words) if dawg is None else dawg
        self._crossings: dict[tuple[str, str], tuple[int, int]] = {}

    @classmethod
    def from_dawg(cls, dawg: Dawg) -> MoveGenerator:
        return cls(dawg=dawg)

    def to_bytes(self) -> bytes:
        return self.dawg.to_bytes()

    @classmethod
    def from_bytes(cls, blob: bytes) -> MoveGenerator:
        return cls.from_dawg(Dawg.from_bytes(blob))

    # -- the search ---------------------------------------------------------------
    def moves(self, board: Mapping[str, str], rack: Sequence[str]) -> Iterator[Move]:
        """Every legal single-line placement from ``rack`` (``"?"`` a blank) on ``board``
        (cell to letter, lower case for a blank), with its score."""
        grid = {parse_cell(c): ch for c, ch in board.items()}
        for found in self._search(board, rack):
            yield self._move(found, grid)

    def placements(self, board: Mapping[str, str], rack: Sequence[str]) -> list[PlaceTiles]:
        """Every single-line placement as an action, in the order found."""
        return [self._move(found, None).action() for found in self._search(board, rack)]

    def best(self, board: Mapping[str, str], rack: Sequence[str]) -> Move | None:
        """The highest-scoring single-line placement (the first found of equals), or None."""
        found = self._search(board, rack, best_only=True)
        return self._move(found[0], None) if found else None

    def best_moves(self, board: Mapping[str, str], rack: Sequence[str]) -> list[Move]:
        """Every placement of the highest score, in the order found (empty when none)."""
        return [self._move(f, None) for f in self._search(board, rack, best_only=True)]

    def top(self, board: Mapping[str, str], rack: Sequence[str], n: int) -> list[Move]:
        """The ``n`` highest-scoring single-line placements, best first (equals in the
        order found)."""
        found = self._search(board, rack)
        return [self._move(f, None) for f in heapq.nlargest(n, found, key=_score)]

    @staticmethod
    def _move(found: _Found, grid: Mapping[tuple[int, int], str] | None) -> Move:
        """The move of a search result; its word is spelled only when ``grid`` (the board
        by (column, row)) is given."""
        score, down, line, placed = found
        tiles: list[tuple[Cell, str]] = []
        blanks: list[tuple[Cell, str]] = []
        for pos, letter in placed:
            cell = cell_name(line, pos) if down else cell_name(pos, line)
            if letter.islower():
                tiles.append((cell, BLANK))
                blanks.append((cell, letter.upper()))
            else:
                tiles.append((cell, letter))
        word = ""
        if grid is not None:
            new = dict(placed)
            first = placed[0][0]
            last = placed[-1][0]

            def at(pos: int) -> str | None:
                if pos in new:
                    return new[pos]
                return grid.get((line, pos) if down else (pos, line))

            while first > 0 and at(first - 1) is not None:
                first -= 1
            while last < SIZE - 1 and at(last + 1) is not None:
                last += 1
            word = "".join((at(pos) or "").upper() for pos in range(first, last + 1))
        return Move(tuple(sorted(tiles)), tuple(sorted(blanks)), score, word)

    def _search(
        self, board: Mapping[str, str], rack: Sequence[str], *, best_only: bool = False
    ) -> list[_Found]:
        """Every placement in the order found; with ``best_only``, only those of the
        highest score (the others are dropped as the search goes).

        The search makes tens of thousands of short-lived tuples and no cycles of
        references, so the cyclic garbage collector, which those tuples would set off
        again and again to walk the whole heap for nothing, is paused while it runs
        (if it was running)."""
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._search_board(board, rack, best_only)
        finally:
            if collecting:
                gc.enable()

    def _search_board(
        self, board: Mapping[str, str], rack: Sequence[str], best_only: bool
    ) -> list[_Found]:
        """``_search`` with the collector paused."""
        rows = [["."] * SIZE for _ in range(SIZE)]
        for cell, letter in board.items():
            col, row = _POINT.get(cell) or parse_cell(cell)
            if letter == "." or letter not in _POINTS:
                raise ValueError(
                    f"{letter!r} on {cell} is not a tile; a board holds letters, "
                    "lower case for a blank"
                )
            rows[row][col] = letter
        across = ["".join(cells) for cells in rows]
        down = ["".join(cells) for cells in zip(*rows, strict=True)]
        counts: dict[str, int] = {}
        for tile in rack:
            t = tile.upper()
            if t != BLANK and t not in _VALUES:
                raise ValueError(f"{tile!r} is not a tile; racks hold A to Z and ? for a blank")
            counts[t] = counts.get(t, 0) + 1
        held_rack = _Rack.of(counts)
        lefts = self._left_parts(counts, held_rack)
        out: list[_Found] = []
        empty = not board
        # Left parts that may start a word at an anchor, by the letters the anchor allows,
        # the tiles right after it and the letters the empty cell after those allows:
        # the same for every line and both directions.
        starts: dict[tuple[int, tuple[int, ...], int], _Starts] = {}
        # The left parts of each length whose node leads on by each letter, and (by -1)
        # those that end a word or may be followed by a tile from the rack.
        leading: dict[tuple[int, int], list[_Left]] = {}
        # The lowest score kept: the best so far when only the best are kept.
        floor = [-1]
        steps = held_rack.steps
        letters = [
            (1 << _INDEX[ch], (ch, _BELOW[_INDEX[ch]], _VALUES[ch], steps[ch]))
            for ch in counts
            if ch != BLANK
        ]
        held: _Held = (letters, {})
        for lines, crossing, down_lines in ((across, down, False), (down, across, True)):
            self._search_lines(
                lines,
                crossing,
                down_lines,
                held_rack,
                held,
                lefts,
                starts,
                leading,
                out,
                floor,
                best_only,
                empty,
            )
        return out

    def _left_parts(self, counts: dict[str, int], rack: _Rack) -> list[list[_Left]]:
        """Every start of a word the rack can spell, up to 6 letters, grouped by length,
        in the order a depth-first walk finds them (rack letters in rack order, then a
        blank for each letter A to Z); a lower-case letter is a blank. The same for
        every anchor."""
        masks = self.dawg.masks
        first = self.dawg.first
        targets = self.dawg.targets
        steps = rack.steps
        haves = rack.letters
        letters = [
            (ch, _BELOW[_INDEX[ch]], 1 << _INDEX[ch], _VALUES[ch], steps[ch])
            for ch in counts
            if ch != BLANK
        ]
        blank_step = steps[BLANK]
        by_length: list[list[_Left]] = [[] for _ in range(RACK_SIZE)]
        full = rack.full
        held = haves[full]
        blanks = counts.get(BLANK, 0)
        by_length[0].append(
            (0, "", masks[0] if blanks else masks[0] & held, -1, 0, full, masks[0], 0)
        )

        def grow(
            node: int,
            spelled: str,
            state: int,
            have: int,
            blanks: int,
            total: int,
        ) -> None:
            depth = len(spelled) + 1
            parent = len(by_length[depth - 1]) - 1
            into = by_length[depth]
            deeper = depth < RACK_SIZE - 1
            mask = masks[node]
            start = first[node]
            usable = mask & have
            for ch, low, bit, value, step in letters if usable else ():
                if not usable & bit:
                    continue
                child = targets[start + (mask & low).bit_count()]
                left = state - step
                now = haves[left]
                word = spelled + ch
                m = masks[child]
                reach = m if blanks else m & now
                into.append((child, word, reach, parent, bit, left, m, total + value))
                if deeper and reach:
                    grow(child, word, left, now, blanks, total + value)
            if blanks:
                left = state - blank_step
                for child in targets[start : first[node + 1]]:
                    bit = mask & -mask
                    mask ^= bit
                    word = spelled + _LOWER[bit.bit_length() - 1]
                    m = masks[child]
                    reach = m if blanks > 1 else m & have
                    into.append((child, word, reach, parent, bit, left, m, total))
                    if deeper and reach:
                        grow(child, word, left, have, blanks - 1, total)

        grow(0, "", full, held, blanks, 0)
        grow = _unlinked  # it called itself: a cycle of references, broken here
        return by_length

    def _search_lines(
        self,
        lines: list[str],
        crossing: list[str],
        down: bool,
        rack: _Rack,
        held: _Held,
        lefts: list[list[_Left]],
        starts: dict[tuple[int, tuple[int, ...], int], _Starts],
        leading: dict[tuple[int, int], list[_Left]],
        out: list[_Found],
        floor: list[int],
        best_only: bool,
        empty_board: bool,
    ) -> None:
        """Search each line of one direction that has an anchor. ``lines`` and
        ``crossing`` are the board's lines in this direction and across it, ``.``
        where a cell is empty."""
        occupied = [int(cells.translate(_OCCUPIED)[::-1], 2) for cells in lines]
        for line in range(SIZE):
            tiles = occupied[line]
            near = (occupied[line - 1] if line > 0 else 0) | (
                occupied[line + 1] if line < SIZE - 1 else 0
            )
            if empty_board:
                if line != (_CX if down else _CY):
                    continue
                anchors = 1 << (_CY if down else _CX)
            else:
                anchors = (tiles << 1 | tiles >> 1 | near) & ~tiles & _LINE
            if anchors:
                self._search_line(
                    lines[line],
                    crossing,
                    line,
                    down,
                    tiles,
                    anchors,
                    near & ~tiles,
                    rack,
                    held,
                    lefts,
                    starts,
                    leading,
                    out,
                    floor,
                    best_only,
                )

    def _search_line(
        self,
        cells: str,
        crossing: list[str],
        line: int,
        down: bool,
        tile_bits: int,
        anchor_bits: int,
        crossed_bits: int,
        rack: _Rack,
        held: _Held,
        lefts: list[list[_Left]],
        starts: dict[tuple[int, tuple[int, ...], int], _Starts],
        leading: dict[tuple[int, int], list[_Left]],
        out: list[_Found],
        floor: list[int],
        best_only: bool,
    ) -> None:
        """Appel–Jacobson along one line: a left part through non-anchor cells, then right.
        ``tile_bits``, ``anchor_bits`` and ``crossed_bits``: the cells with a tile, the
        anchors, and the empty cells with a tile beside them across the line, bit ``i``
        for cell ``i``."""
        masks = self.dawg.masks
        first = self.dawg.first
        targets = self.dawg.targets
        final = self.dawg.final
        below = _BELOW
        allowed, crossed, cross_base = self._cross_checks(crossing, line, crossed_bits)
        lms = (_LM_DOWN if down else _LM_ACROSS)[line]
        wms = (_WM_DOWN if down else _WM_ACROSS)[line]
        plains = (_PLAIN_DOWN if down else _PLAIN_ACROSS)[line]
        index = cells.encode("latin-1").translate(_CELL_NUMBERS)
        letters, choices = held
        haves = rack.letters
        reaches = rack.reach
        bonuses = rack.bonus
        blank_step = rack.steps[BLANK]
        full = rack.full
        reach = reaches[full]
        # Tiles laid right of the anchor before the cell being tried, as (position, letter).
        placed: list[tuple[int, str]] = []
        # The anchor and the left part being extended: its tiles, and the one cell (if
        # any) where a single tile is the same move as one across (found that way).
        anchor = 0
        spelled = ""
        begin = 0
        twin_at = -1
        single_is_twin = False

        # From each cell: the letters of the run of tiles on the board that starts there,
        # their points, and the first empty cell after them (SIZE: the edge).
        runs: list[tuple[int, ...]] = [()] * (SIZE + 1)
        run_points = [0] * (SIZE + 1)
        stops = list(range(SIZE + 1))
        while tile_bits:
            pos = tile_bits.bit_length() - 1
            tile_bits ^= 1 << pos
            runs[pos] = (index[pos], *runs[pos + 1])
            run_points[pos] = _POINTS[cells[pos]] + run_points[pos + 1]
            stops[pos] = stops[pos + 1]
        # What a tile laid on each empty cell needs: its multipliers, the word across
        # it (if any) and its tiles' points, the run of tiles after it, their points,
        # the next empty cell and the letters allowed there (none at the edge).
        allowed.append(0)
        after = stops[1:]
        cell_data = list(
            zip(
                lms,
                wms,
                crossed,
                cross_base,
                runs[1:],
                run_points[1:],
                after,
                map(allowed.__getitem__, after),
                strict=True,
            )
        )

        def place(
            node: int, pos: int, fits: int, msum: int, wmul: int, xsum: int, state: int
        ) -> None:
            """Lay each tile of ``fits`` (the letters after ``node`` that the empty cell
            ``pos`` allows) that the rack left (``state``) holds; record the words that
            end there and go on. ``msum`` and ``wmul``: the points of the word's tiles
            so far, and its word multiplier; ``xsum``: the points of the words across."""
            m = masks[node]
            start = first[node]
            lm, wm, cross, base, run, rpts, stop, ok_next = cell_data[pos]
            wmul *= wm
            msum += rpts
            usable = fits & haves[state]
            tried = choices.get(usable)
            if tried is None:
                tried = choices[usable] = [t for bit, t in letters if bit & usable]
            for ch, low, value, step in tried:
                n = targets[start + (m & low).bit_count()]
                if run:
                    for i in run:
                        mm = masks[n]
                        if not mm >> i & 1:
                            n = -1
                            break
                        n = targets[first[n] + (mm & below[i]).bit_count()]
                    if n < 0:
                        continue
                left = state - step
                # The tile's points and the words across are counted only for a word
                # found or a search that goes on: for four letters in ten, neither.
                if final[n] and pos != twin_at:
                    v = value * lm
                    xs = xsum + (base + v) * wm if cross else xsum
                    score = (msum + v) * wmul + xs + bonuses[left]
                    if score >= floor[0]:
                        if best_only and score > floor[0]:
                            out.clear()
                            floor[0] = score
                        laid = zip(range(begin, anchor), spelled, strict=True)
                        out.append((score, down, line, (*laid, *placed, (pos, ch))))
                if ok_next:
                    nxt = masks[n] & ok_next
                    if nxt & reaches[left]:
                        v = value * lm
                        xs = xsum + (base + v) * wm if cross else xsum
                        placed.append((pos, ch))
                        place(n, stop, nxt, msum + v, wmul, xs, left)
                        placed.pop()
            if state >= blank_step:
                left = state - blank_step
                more = reaches[left]
                bonus = bonuses[left]
                xs = xsum + base * wm if cross else xsum
                while fits:
                    bit = fits & -fits
                    fits ^= bit
                    n = targets[start + (m & (bit - 1)).bit_count()]
                    for i in run:
                        mm = masks[n]
                        if not mm >> i & 1:
                            break
                        n = targets[first[n] + (mm & below[i]).bit_count()]
                    else:
                        if final[n] and pos != twin_at:
                            score = msum * wmul + xs + bonus
                            if score >= floor[0]:
                                if best_only and score > floor[0]:
                                    out.clear()
                                    floor[0] = score
                                laid = zip(range(begin, anchor), spelled, strict=True)
                                tile = (pos, _BLANK_AS[bit])
                                out.append((score, down, line, (*laid, *placed, tile)))
                        if ok_next:
                            nxt = masks[n] & ok_next
                            if nxt & more:
                                placed.append((pos, _BLANK_AS[bit]))
                                place(n, stop, nxt, msum, wmul, xs, left)
                                placed.pop()

        previous = -1
        while anchor_bits:
            low = anchor_bits & -anchor_bits
            anchor_bits ^= low
            anchor = low.bit_length() - 1
            ok = allowed[anchor]
            single_is_twin = down and crossed[anchor]
            if anchor > 0 and index[anchor - 1] != _EMPTY:
                # The word runs on from the tiles left of the anchor.
                pos = anchor - 1
                while pos > 0 and index[pos - 1] != _EMPTY:
                    pos -= 1
                msum = run_points[pos]
                node = 0
                while pos < anchor:
                    i = index[pos]
                    m = masks[node]
                    if not m >> i & 1:
                        break
                    node = targets[first[node] + (m & below[i]).bit_count()]
                    pos += 1
                fits = masks[node] & ok
                if pos == anchor and fits & reach:
                    spelled, begin = "", anchor
                    twin_at = anchor if single_is_twin else -1
                    place(node, anchor, fits, msum, 1, 0, full)
            elif anchor == previous + 1:
                # No room for a left part: a word starting on the anchor.
                fits = masks[0] & ok
                if fits & reach:
                    spelled, begin = "", anchor
                    twin_at = anchor if single_is_twin else -1
                    place(0, anchor, fits, 0, 1, 0, full)
            else:
                room = min(anchor - previous - 1, RACK_SIZE - 1)
                ahead = runs[anchor + 1]
                ok_next = cell_data[anchor][7]
                key = (ok, ahead, ok_next)
                known = starts.get(key)
                if known is None:
                    known = starts[key] = ([], [])
                chosen, ends = known
                if len(ends) <= room:
                    self._starts(lefts, leading, reaches, room, ok, ahead, ok_next, chosen, ends)
                plain = plains[anchor]
                for node, spelled, _, _, _, state, node_mask, total in chosen[: ends[room]]:
                    begin = anchor - len(spelled)
                    # A single tile is a left part of none laid on the anchor.
                    twin_at = begin if single_is_twin else -1
                    if anchor - begin <= plain:
                        place(node, anchor, node_mask & ok, total, 1, 0, state)
                    else:
                        points = map(_POINTS.__getitem__, spelled)
                        laid_sum = sum(map(operator.mul, points, lms[begin:anchor]))
                        laid_mul = math.prod(wms[begin:anchor])
                        place(node, anchor, node_mask & ok, laid_sum, laid_mul, 0, state)
            previous = anchor
        place = _unlinked  # it called itself: a cycle of references, broken here

    def _starts(
        self,
        lefts: list[list[_Left]],
        leading: dict[tuple[int, int], list[_Left]],
        reaches: list[int],
        room: int,
        ok: int,
        ahead: tuple[int, ...],
        ok_next: int,
        chosen: list[_Left],
        ends: list[int],
    ) -> None:
        """Add to ``chosen`` the left parts of ``lefts`` (one list a length) of the
        lengths after those already chosen up to ``room``, after which a tile left on
        the rack can go on an anchor that allows the letters ``ok``, lead on through
        the tiles ``ahead`` of it, in order, and there end a word or be followed by a
        tile on the next empty cell, which allows ``ok_next`` (0: the edge); and to
        ``ends`` how many are chosen after each length. ``reaches``: the rack's
        letters that may be laid, by what is left of it (``_Rack.reach``).
        ``leading``: the parts of each length whose node leads on by each letter, and
        (by -1) those that end a word or may be followed from the rack, as they are
        needed.

        The parts one letter longer are those tiles on the anchor: a part is chosen
        when one of its longer parts ends in a letter of ``ok`` at a node from which
        ``ahead`` can be spelled, to a word's end or a letter of ``ok_next``. A part
        not chosen would find nothing there; about half would, were it chosen for
        ``ok`` and ``ahead`` alone."""
        masks = self.dawg.masks
        first = self.dawg.first
        targets = self.dawg.targets
        final = self.dawg.final
        below = _BELOW
        # The longer parts of a part are found one after another, and the part is chosen
        # on the first of them that passes (``last``: its place in its list).
        longest = len(lefts) - 1
        head = ahead[0] if ahead else -1
        rest = ahead[1:]
        for length in range(len(ends), room + 1):
            parts = lefts[length]
            last = -1
            if length == longest:
                # No longer parts are kept: each letter is tried on the anchor.
                self._last_starts(parts, ok, ahead, chosen)
            elif not ahead:
                # The longer parts that put a letter of ``ok`` on the anchor and there
                # end a word or lead on to a letter of ``ok_next`` from the rack left
                # (``part[2]``).
                longer = leading.get((length + 1, -1))
                if longer is None:
                    # Only the parts that end a word or may be followed from the rack.
                    longer = leading[length + 1, -1] = [
                        p for p in lefts[length + 1] if final[p[0]] or p[2]
                    ]
                for part in longer:
                    if part[3] != last and part[4] & ok and (final[part[0]] or part[2] & ok_next):
                        last = part[3]
                        chosen.append(parts[last])
            else:
                # The longer parts that put a letter of ``ok`` on the anchor, at a node
                # from which the tiles ahead lead on, to a word's end or a letter of
                # ``ok_next`` from the rack left.
                longer = leading.get((length + 1, head))
                if longer is None:
                    step = 1 << head
                    longer = leading[length + 1, head] = [
                        p for p in lefts[length + 1] if p[6] & step
                    ]
                for part in longer:
                    if part[3] == last or not part[4] & ok:
                        continue
                    m = part[6]
                    n = targets[first[part[0]] + (m & below[head]).bit_count()]
                    for i in rest:
                        mm = masks[n]
                        if not mm >> i & 1:
                            break
                        n = targets[first[n] + (mm & below[i]).bit_count()]
                    else:
                        if final[n] or masks[n] & ok_next & reaches[part[5]]:
                            last = part[3]
                            chosen.append(parts[last])
            ends.append(len(chosen))

    def _last_starts(
        self, parts: list[_Left], ok: int, ahead: tuple[int, ...], chosen: list[_Left]
    ) -> None:
        """``_starts`` for the longest left parts, which have no longer parts kept: add
        to ``chosen`` those after which a letter of ``ok`` they may be followed by leads
        on through the tiles ``ahead``."""
        masks = self.dawg.masks
        first = self.dawg.first
        targets = self.dawg.targets
        below = _BELOW
        for part in parts:
            node = part[0]
            fits = part[2] & ok
            if not fits:
                continue
            m = masks[node]
            start = first[node]
            while fits:
                bit = fits & -fits
                fits ^= bit
                n = targets[start + (m & (bit - 1)).bit_count()]
                for i in ahead:
                    mm = masks[n]
                    if not mm >> i & 1:
                        break
                    n = targets[first[n] + (mm & below[i]).bit_count()]
                else:
                    chosen.append(part)
                    break

    def _cross_checks(
        self, crossing: list[str], line: int, crossed_bits: int
    ) -> tuple[list[int], list[bool], list[int]]:
        """For each cell of a line: the mask of the letters allowed by the word across it
        (every letter where there is none), whether there is one, and the points of that
        word's tiles already on the board. ``crossing``: the lines across this one;
        ``crossed_bits``: the cells with a word across them."""
        allowed = [_ALL] * SIZE
        crossed = [False] * SIZE
        base = [0] * SIZE
        known = self._crossings
        while crossed_bits:
            low = crossed_bits & -crossed_bits
            crossed_bits ^= low
            pos = low.bit_length() - 1
            cells = crossing[pos]
            end = cells.find(".", line + 1)
            key = (
                cells[cells.rfind(".", 0, line) + 1 : line],
                cells[line + 1 : end if end >= 0 else SIZE],
            )
            hit = known.get(key)
            if hit is None:
                if len(known) >= _CROSSINGS_KEPT:
                    known.clear()
                hit = known[key] = self._crossing(*key)
            allowed[pos], base[pos] = hit
            crossed[pos] = True
        return allowed, crossed, base

    def _crossing(self, prefix: str, suffix: str) -> tuple[int, int]:
        """The mask of the letters that make a word between ``prefix`` and ``suffix``
        (letters on the board, lower case for a blank), and the points of their tiles."""
        dawg = self.dawg
        points = sum(tile_points(ch) for ch in prefix) + sum(tile_points(ch) for ch in suffix)
        node: int | None = 0
        for ch in prefix.upper():
            node = dawg.child(node, ch) if node is not None else None
        ok = 0
        if node is not None:
            rest = dawg.masks[node]
            while rest:
                bit = rest & -rest
                rest ^= bit
                n = dawg.child(node, _ALPHABET[bit.bit_length() - 1])
                for ch in suffix.upper():
                    n = dawg.child(n, ch) if n is not None else None
                if n is not None and dawg.final[n]:
                    ok |= bit
        return ok, points


_CROSSINGS_KEPT = 4096
"""Cross-checks a generator remembers, by the letters above and below a cell: they
recur from line to line, turn to turn and game to game."""


def _unlinked(*_: object, **__: object) -> None:
    """What a search step that calls itself is set to once its search is over, so that
    it and all it holds are freed at once rather than by the garbage collector."""


def _score(found: _Found) -> int:
    return found[0]
