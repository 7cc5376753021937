"""Crosslet's move generator: every single-line placement for a rack, by Appel–Jacobson.

The words are held in a DAWG (a trie whose equal suffixes are shared). For each
line and each anchor (an empty cell next to a tile) the search grows a left part
from the rack through non-anchor cells, then extends right through the anchor,
checking each new tile against the cross-word it makes across the line. Scores
are kept as the search goes, so the best move costs no second pass.
"""

from __future__ import annotations

import heapq
import random
import sys
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.core import Action, Cell, Game, GameError, Pass, Player, PlayerId
from games.crosslet_board import (
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

if TYPE_CHECKING:
    from games.crosslet import Crosslet, PlaceTiles, WordList

__all__ = [
    "BadGeneratorData",
    "CrossletPlayer",
    "Dawg",
    "Move",
    "MoveGenerator",
    "generator_for",
    "use_generator",
]

_MAGIC = b"CXDAWG1\n"


class BadGeneratorData(GameError):
    """Bytes that are not a serialised move generator."""


class Dawg:
    """A minimal acyclic word graph over upper-case words; node 0 is the root.

    ``edges[n]`` maps a letter to the next node; ``final[n]`` says a word ends at ``n``.
    """

    __slots__ = ("edges", "final")

    def __init__(self, edges: list[dict[str, int]], final: list[bool]) -> None:
        self.edges = edges
        self.final = final

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
        return cls._compact(edges, final)

    @classmethod
    def _compact(cls, edges: list[dict[str, int]], final: list[bool]) -> Dawg:
        number = {0: 0}
        order = [0]
        for node in order:
            for child in edges[node].values():
                if child not in number:
                    number[child] = len(order)
                    order.append(child)
        return cls(
            [{ch: number[c] for ch, c in edges[n].items()} for n in order],
            [final[n] for n in order],
        )

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        node = 0
        for letter in word.upper():
            nxt = self.edges[node].get(letter)
            if nxt is None:
                return False
            node = nxt
        return self.final[node]

    def __len__(self) -> int:
        return len(self.edges)

    def to_bytes(self) -> bytes:
        """A compact serialisation that ``from_bytes`` loads much faster than a build."""
        data = array("I", [len(self.edges)])
        for node, out in enumerate(self.edges):
            data.append((self.final[node] << 8) | len(out))
            data.extend((ord(ch) << 24) | child for ch, child in out.items())
        if sys.byteorder == "big":
            data.byteswap()
        return _MAGIC + data.tobytes()

    @classmethod
    def from_bytes(cls, blob: bytes) -> Dawg:
        if not blob.startswith(_MAGIC) or (len(blob) - len(_MAGIC)) % 4:
            raise BadGeneratorData("these bytes are not a saved Crosslet word graph")
        data = array("I")
        data.frombytes(blob[len(_MAGIC) :])
        if sys.byteorder == "big":
            data.byteswap()
        try:
            count = data[0]
            edges: list[dict[str, int]] = []
            final: list[bool] = []
            i = 1
            for _ in range(count):
                head = data[i]
                n = head & 0xFF
                final.append(bool(head >> 8))
                edges.append({chr(v >> 24): v & 0xFFFFFF for v in data[i + 1 : i + 1 + n]})
                i += 1 + n
        except IndexError:
            raise BadGeneratorData("the saved word graph is cut short") from None
        if i != len(data) or any(c >= count for out in edges for c in out.values()):
            raise BadGeneratorData("the saved word graph is damaged")
        return cls(edges, final)


@dataclass(frozen=True)
class Move:
    """A single-line placement: ``tiles`` as (cell, letter or ``"?"``), the blanks' letters,
    the points it scores, and the word it makes along its line."""

    tiles: tuple[tuple[Cell, str], ...]
    blanks: tuple[tuple[Cell, str], ...]
    score: int
    word: str

    def action(self) -> PlaceTiles:
        from games.crosslet import PlaceTiles

        return PlaceTiles(self.tiles, self.blanks)


_Found = tuple[int, bool, int, tuple[tuple[int, str], ...]]
"""(score, down?, line, ((position, letter), ...)); a lower-case letter is a blank."""

_LM_ACROSS = LETTER_MULTIPLIER
_WM_ACROSS = WORD_MULTIPLIER
_LM_DOWN = tuple(tuple(LETTER_MULTIPLIER[r][c] for r in range(SIZE)) for c in range(SIZE))
_WM_DOWN = tuple(tuple(WORD_MULTIPLIER[r][c] for r in range(SIZE)) for c in range(SIZE))
_VALUES = {ch: v for ch, v in LETTER_VALUES.items() if ch != BLANK}
_CX, _CY = parse_cell(CENTRE)


class MoveGenerator:
    """Finds every single-line Crosslet placement for a rack; build once from the words."""

    def __init__(self, words: Iterable[str]) -> None:
        self.dawg = Dawg.build(words)

    @classmethod
    def from_dawg(cls, dawg: Dawg) -> MoveGenerator:
        gen = cls.__new__(cls)
        gen.dawg = dawg
        return gen

    def to_bytes(self) -> bytes:
        return self.dawg.to_bytes()

    @classmethod
    def from_bytes(cls, blob: bytes) -> MoveGenerator:
        return cls.from_dawg(Dawg.from_bytes(blob))

    # -- the search ---------------------------------------------------------------
    def moves(self, board: Mapping[str, str], rack: Sequence[str]) -> Iterator[Move]:
        """Every legal single-line placement from ``rack`` (``"?"`` a blank) on ``board``
        (cell to letter, lower case for a blank), with its score."""
        for found in self._search(board, rack):
            yield self._move(found, board)

    def best(self, game: Crosslet, player: PlayerId) -> PlaceTiles | None:
        """The highest-scoring single-line placement for ``player``, or None if none fits."""
        found = self._search(game.board_letters(), game.rack(player))
        if not found:
            return None
        return self._move(max(found, key=lambda f: f[0]), None).action()

    def top(self, game: Crosslet, player: PlayerId, n: int) -> list[PlaceTiles]:
        """The ``n`` highest-scoring single-line placements for ``player``, best first."""
        found = self._search(game.board_letters(), game.rack(player))
        return [self._move(f, None).action() for f in heapq.nlargest(n, found, key=lambda f: f[0])]

    @staticmethod
    def _move(found: _Found, board: Mapping[str, str] | None) -> Move:
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
        if board is not None:
            grid = {parse_cell(c): ch for c, ch in board.items()}
            for pos, letter in placed:
                grid[(line, pos) if down else (pos, line)] = letter
            dc, dr = (0, 1) if down else (1, 0)
            first = placed[0][0]
            col, row = (line, first) if down else (first, line)
            while (col - dc, row - dr) in grid:
                col, row = col - dc, row - dr
            while (col, row) in grid:
                word += grid[col, row].upper()
                col, row = col + dc, row + dr
        return Move(tuple(sorted(tiles)), tuple(sorted(blanks)), score, word)

    def _search(self, board: Mapping[str, str], rack: Sequence[str]) -> list[_Found]:
        across: list[list[str]] = [[""] * SIZE for _ in range(SIZE)]
        for cell, letter in board.items():
            col, row = parse_cell(cell)
            across[row][col] = letter
        down = [[across[r][c] for r in range(SIZE)] for c in range(SIZE)]
        counts: dict[str, int] = {}
        for tile in rack:
            t = tile.upper()
            if t != BLANK and t not in _VALUES:
                raise ValueError(f"{tile!r} is not a tile; racks hold A to Z and ? for a blank")
            counts[t] = counts.get(t, 0) + 1
        lefts = self._left_parts(counts)
        out: list[_Found] = []
        empty = not board
        self._search_lines(across, False, counts, lefts, out, empty)
        self._search_lines(down, True, counts, lefts, out, empty)
        return out

    def _left_parts(self, rack: dict[str, int]) -> list[list[tuple[int, str]]]:
        """Every start of a word the rack can spell, up to 6 letters, as (node, letters),
        grouped by length; a lower-case letter is a blank. The same for every anchor."""
        edges = self.dawg.edges
        letters = [ch for ch in rack if ch != BLANK]
        by_length: list[list[tuple[int, str]]] = [[] for _ in range(RACK_SIZE)]
        by_length[0].append((0, ""))

        def grow(node: int, spelled: str) -> None:
            depth = len(spelled) + 1
            nexts = edges[node]
            for ch in letters:
                if rack[ch]:
                    child = nexts.get(ch)
                    if child is None:
                        continue
                    rack[ch] -= 1
                    by_length[depth].append((child, spelled + ch))
                    if depth < RACK_SIZE - 1:
                        grow(child, spelled + ch)
                    rack[ch] += 1
            if rack.get(BLANK):
                rack[BLANK] -= 1
                for ch, child in nexts.items():
                    by_length[depth].append((child, spelled + ch.lower()))
                    if depth < RACK_SIZE - 1:
                        grow(child, spelled + ch.lower())
                rack[BLANK] += 1

        grow(0, "")
        return by_length

    def _search_lines(
        self,
        grid: list[list[str]],
        down: bool,
        rack: dict[str, int],
        lefts: list[list[tuple[int, str]]],
        out: list[_Found],
        empty_board: bool,
    ) -> None:
        for line in range(SIZE):
            cells = grid[line]
            above = grid[line - 1] if line > 0 else None
            below = grid[line + 1] if line < SIZE - 1 else None
            anchors: list[int] = []
            if empty_board:
                if line == (_CX if down else _CY):
                    anchors.append(_CY if down else _CX)
            else:
                for pos in range(SIZE):
                    if cells[pos]:
                        continue
                    if (
                        (pos > 0 and cells[pos - 1])
                        or (pos < SIZE - 1 and cells[pos + 1])
                        or (above is not None and above[pos])
                        or (below is not None and below[pos])
                    ):
                        anchors.append(pos)
            if not anchors:
                continue
            allowed, cross_base = self._cross_checks(grid, line)
            self._search_line(cells, line, down, anchors, allowed, cross_base, rack, lefts, out)

    def _search_line(
        self,
        cells: list[str],
        line: int,
        down: bool,
        anchors: list[int],
        allowed: list[frozenset[str] | None],
        cross_base: list[int],
        rack: dict[str, int],
        lefts: list[list[tuple[int, str]]],
        out: list[_Found],
    ) -> None:
        """Appel–Jacobson along one line: a left part through non-anchor cells, then right."""
        edges = self.dawg.edges
        final = self.dawg.final
        values = _VALUES
        lms = (_LM_DOWN if down else _LM_ACROSS)[line]
        wms = (_WM_DOWN if down else _WM_ACROSS)[line]
        on_board = [tile_points(ch) if ch else 0 for ch in cells]
        letters = [ch for ch in rack if ch != BLANK]
        has_blank = bool(rack.get(BLANK))
        # Tiles laid right of the anchor, as (position, letter).
        placed: list[tuple[int, str]] = []
        left_part = ""

        def record(anchor: int, msum: int, wmul: int, xsum: int) -> None:
            tiles = len(left_part) + len(placed)
            if down and tiles == 1 and allowed[anchor] is not None:
                return  # found already across, where it makes a word of 2 or more
            first = anchor - len(left_part)
            laid = [(first + k, ch) for k, ch in enumerate(left_part)]
            for pos, ch in laid:
                msum += (values[ch] if ch.isupper() else 0) * lms[pos]
                wmul *= wms[pos]
            bonus = ALL_TILES_BONUS if tiles == RACK_SIZE else 0
            out.append((msum * wmul + xsum + bonus, down, line, (*laid, *placed)))

        def extend(anchor: int, node: int, pos: int, msum: int, wmul: int, xsum: int) -> None:
            if pos < SIZE:
                letter = cells[pos]
                if letter:
                    child = edges[node].get(letter.upper())
                    if child is not None:
                        extend(anchor, child, pos + 1, msum + on_board[pos], wmul, xsum)
                    return
            if pos > anchor and final[node]:
                record(anchor, msum, wmul, xsum)
            if pos >= SIZE:
                return
            ok = allowed[pos]
            lm = lms[pos]
            wm = wms[pos]
            base = cross_base[pos]
            nexts = edges[node]
            for ch in letters:
                if rack[ch]:
                    child = nexts.get(ch)
                    if child is None or (ok is not None and ch not in ok):
                        continue
                    v = values[ch] * lm
                    cross = (base + v) * wm if ok is not None else 0
                    rack[ch] -= 1
                    placed.append((pos, ch))
                    extend(anchor, child, pos + 1, msum + v, wmul * wm, xsum + cross)
                    placed.pop()
                    rack[ch] += 1
            if rack.get(BLANK):
                rack[BLANK] -= 1
                for ch, child in nexts.items():
                    if ok is not None and ch not in ok:
                        continue
                    cross = base * wm if ok is not None else 0
                    placed.append((pos, ch.lower()))
                    extend(anchor, child, pos + 1, msum, wmul * wm, xsum + cross)
                    placed.pop()
                rack[BLANK] += 1

        everything = frozenset(_VALUES)
        previous = -1
        for anchor in anchors:
            ok = allowed[anchor]
            if has_blank:
                fits = everything if ok is None else ok
            else:
                fits = frozenset(letters) if ok is None else ok.intersection(letters)
            if fits:
                if anchor > 0 and cells[anchor - 1]:
                    pos = anchor - 1
                    while pos > 0 and cells[pos - 1]:
                        pos -= 1
                    node: int | None = 0
                    msum = 0
                    while pos < anchor and node is not None:
                        node = edges[node].get(cells[pos].upper())
                        msum += on_board[pos]
                        pos += 1
                    if node is not None:
                        left_part = ""
                        extend(anchor, node, anchor, msum, 1, 0)
                else:
                    room = min(anchor - previous - 1, RACK_SIZE - 1)
                    # Tiles just right of the anchor that the word must run through.
                    ahead = []
                    pos = anchor + 1
                    while pos < SIZE and cells[pos]:
                        ahead.append(cells[pos].upper())
                        pos += 1
                    for length in range(room + 1):
                        for node, spelled in lefts[length]:
                            nexts = edges[node]
                            if nexts.keys().isdisjoint(fits):
                                continue
                            if ahead and not _runs_through(edges, nexts, fits, ahead):
                                continue
                            for ch in spelled:
                                rack[ch if ch.isupper() else BLANK] -= 1
                            left_part = spelled
                            extend(anchor, node, anchor, 0, 1, 0)
                            for ch in spelled:
                                rack[ch if ch.isupper() else BLANK] += 1
            previous = anchor

    def _cross_checks(
        self, grid: list[list[str]], line: int
    ) -> tuple[list[frozenset[str] | None], list[int]]:
        """For each cell of a line: the letters allowed by the word across it (None: no word
        there) and the points of that word's tiles already on the board."""
        edges = self.dawg.edges
        final = self.dawg.final
        allowed: list[frozenset[str] | None] = [None] * SIZE
        base = [0] * SIZE
        for pos in range(SIZE):
            if grid[line][pos]:
                continue
            top = line
            while top > 0 and grid[top - 1][pos]:
                top -= 1
            bottom = line
            while bottom < SIZE - 1 and grid[bottom + 1][pos]:
                bottom += 1
            if top == bottom:
                continue
            points = 0
            node: int | None = 0
            for k in range(top, line):
                ch = grid[k][pos]
                points += tile_points(ch)
                node = edges[node].get(ch.upper()) if node is not None else None
            suffix = [grid[k][pos] for k in range(line + 1, bottom + 1)]
            points += sum(tile_points(ch) for ch in suffix)
            ok: set[str] = set()
            if node is not None:
                for ch, child in edges[node].items():
                    n: int | None = child
                    for s in suffix:
                        n = edges[n].get(s.upper()) if n is not None else None
                    if n is not None and final[n]:
                        ok.add(ch)
            allowed[pos] = frozenset(ok)
            base[pos] = points
        return allowed, base


def _runs_through(
    edges: list[dict[str, int]], nexts: dict[str, int], fits: frozenset[str], ahead: list[str]
) -> bool:
    """Whether some letter that fits the anchor leads on through the tiles after it."""
    for ch in nexts.keys() & fits:
        node = nexts[ch]
        for t in ahead:
            step = edges[node].get(t)
            if step is None:
                break
            node = step
        else:
            return True
    return False


_CACHE: dict[int, tuple[object, MoveGenerator]] = {}


def generator_for(lexicon: WordList) -> MoveGenerator:
    """The move generator of a lexicon, built on first use and kept while the lexicon is."""
    hit = _CACHE.get(id(lexicon))
    if hit is not None and hit[0] is lexicon:
        return hit[1]
    if len(_CACHE) >= 4:
        _CACHE.clear()
    gen = MoveGenerator(lexicon.words())
    _CACHE[id(lexicon)] = (lexicon, gen)
    return gen


def use_generator(lexicon: WordList, generator: MoveGenerator) -> None:
    """Make ``generator_for(lexicon)`` answer ``generator`` (say, one loaded from a cache)."""
    if len(_CACHE) >= 4:
        _CACHE.clear()
    _CACHE[id(lexicon)] = (lexicon, generator)


class CrossletPlayer(Player):
    """A computer player: the best-scoring single-line placement (ties broken by ``rng``);
    else an exchange of every tile but the blanks while the bag allows; else a pass.

    With table racks it must see its rack first: while it is not fully known, the
    computer's hand draws the missing tiles from the unseen ones (by ``rng``, as a
    hand draws from a bag) and shows them with ``SetRack``. A rack never seen cannot
    be revealed for the count by the computer.
    """

    def __init__(self, generator: MoveGenerator, rng: random.Random | None = None) -> None:
        self.generator = generator
        self.rng = rng if rng is not None else random.Random(0)

    def choose(self, game: Game) -> Action:
        from games.crosslet import Crosslet, Exchange, SetRack

        if not isinstance(game, Crosslet):
            raise TypeError(f"CrossletPlayer plays Crosslet, not {game.title}")
        seat = game.to_move
        if not game.rack_known(seat):
            if game.counting:
                raise ValueError(
                    f"the computer cannot reveal {game.seat_name(seat)}'s rack: it was never seen"
                )
            unseen = sorted(game.unseen_tiles().elements())
            missing = game.rack_size(seat) - len(game.rack(seat))
            drawn = self.rng.sample(unseen, missing)
            return SetRack(seat, tuple(game.rack(seat) + drawn))
        found = self.generator._search(game.board_letters(), game.rack(seat))
        if found:
            top = max(f[0] for f in found)
            pick = self.rng.choice([f for f in found if f[0] == top])
            return self.generator._move(pick, None).action()
        keep_out = [t for t in game.rack(seat) if t != BLANK]
        if game.bag_count >= RACK_SIZE and keep_out:
            return Exchange(tuple(keep_out))
        return Pass()
