"""Judging DoubleCross tiles: judged runs, a tile's word, refusal, and settling the board.

docs/rules.md, point by point:

- an unstable tile's *judged run* along an axis is the tile, the unstable letters
  next to it in that line, and at each end the whole block of stable letters that
  stops them;
- a tile's *word* along an axis is the longest complete word containing its judged
  run whose two ends are each the end of the line or the outer edge of a stable
  block (equal lengths: the one that starts first);
- a tile none of whose judged runs holds a stable letter is refused; one none of
  whose judged runs is a partial word is destroyed;
- *settling*: destroy every orphan and every tile with no partial judged run (again
  and again while any goes), then stabilise every tile whose words are all complete,
  and repeat the two until nothing changes.

A single letter is never a word: an axis along which a tile has no neighbour has no
judged run and sets no condition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from games.doublecross.board import AXES, NEIGHBOURS, STEP, Board, cell_name

_REMEMBERED = 4096
"""How many answers a judge keeps before it starts its memory afresh."""


class Words(Protocol):
    """What DoubleCross needs of a lexicon (``games.lexicon.Lexicon`` has it all)."""

    def is_word(self, s: str) -> bool: ...
    def is_substring(self, s: str) -> bool: ...
    def is_prefix(self, s: str) -> bool: ...
    def is_suffix(self, s: str) -> bool: ...


@dataclass(frozen=True)
class Word:
    """A run of cells along one axis and the letters on them."""

    axis: int
    cells: tuple[int, ...]
    text: str

    def __len__(self) -> int:
        return len(self.cells)

    @property
    def name(self) -> str:
        """``ROAD (G8-J8)``."""
        return f"{self.text} ({cell_name(self.cells[0])}-{cell_name(self.cells[-1])})"


@dataclass
class Settled:
    """What one settling did: tiles destroyed (cell, letter, owner) and tiles made
    stable with their words, in the order it happened."""

    destroyed: list[tuple[int, str, int | None]]
    stabilised: list[tuple[int, tuple[Word, ...]]]


class Judge:
    """The word tests of one game: a lexicon and a minimum word size."""

    def __init__(self, words: Words, min_word: int) -> None:
        self.words = words
        self.min_word = min_word
        self._partial: dict[str, bool] = {}
        """``is_partial`` of each text asked about."""
        self._spans: dict[tuple[str, tuple[bool, ...], int, int], tuple[int, int] | None] = {}
        """The word ``tile_word`` found in a line (the span's ends, or None), by the
        line's letters and stable tiles and the judged run's ends in it: the same
        line anywhere on the board has the same word."""

    def is_complete(self, text: str) -> bool:
        return len(text) >= self.min_word and self.words.is_word(text.lower())

    def is_partial(self, text: str) -> bool:
        known = self._partial.get(text)
        if known is None:
            if len(self._partial) >= _REMEMBERED:
                self._partial.clear()
            known = self._partial[text] = len(text) >= 2 and self.words.is_substring(text.lower())
        return known

    # -- runs and words ------------------------------------------------------------
    def line(self, board: Board, i: int, axis: int) -> tuple[int, ...]:
        """The letters in line with ``i`` along ``axis`` up to an empty cell or the edge."""
        letters = board.letters
        back, ahead = STEP[axis]
        lo = i
        while back[lo] >= 0 and letters[back[lo]]:
            lo = back[lo]
        cells = [lo]
        j = ahead[lo]
        while j >= 0 and letters[j]:
            cells.append(j)
            j = ahead[j]
        return tuple(cells)

    def judged_run(self, board: Board, i: int, axis: int) -> tuple[int, ...] | None:
        """The cells of ``i``'s judged run along ``axis``; None if it has no neighbour there."""
        letters, stable = board.letters, board.stable
        back, ahead = STEP[axis]
        ends: list[int] = []
        for step in (back, ahead):
            end = i
            j = step[end]
            while j >= 0 and letters[j] and not stable[j]:
                end, j = j, step[j]
            while j >= 0 and letters[j] and stable[j]:
                end, j = j, step[j]
            ends.append(end)
        lo, hi = ends
        if lo == i and hi == i:
            return None
        cells = [lo]
        while cells[-1] != hi:
            cells.append(ahead[cells[-1]])
        return tuple(cells)

    def runs(self, board: Board, i: int) -> list[tuple[int, tuple[int, ...]]]:
        """``(axis, run)`` for each axis along which ``i`` has a neighbour."""
        out = []
        for axis in AXES:
            run = self.judged_run(board, i, axis)
            if run is not None:
                out.append((axis, run))
        return out

    def tile_word(
        self, board: Board, i: int, axis: int, run: tuple[int, ...] | None = None
    ) -> Word | None:
        """``i``'s word along ``axis`` if there is a complete one, else None."""
        if run is None:
            run = self.judged_run(board, i, axis)
            if run is None:
                return None
        line = self.line(board, i, axis)
        stable = board.stable
        text = board.text(line)
        first = line.index(run[0])
        last = first + len(run) - 1
        flags = tuple([stable[j] for j in line])
        key = (text, flags, first, last)
        if key in self._spans:
            span = self._spans[key]
        else:
            if len(self._spans) >= _REMEMBERED:
                self._spans.clear()
            span = self._spans[key] = self._word_span(text, flags, first, last)
        if span is None:
            return None
        p, q = span
        return Word(axis, line[p : q + 1], text[p : q + 1])

    def _word_span(
        self, text: str, stable: tuple[bool, ...], first: int, last: int
    ) -> tuple[int, int] | None:
        """The ends of the longest complete word in a line's ``text`` that holds the
        judged run ``first``..``last`` and ends at the line's ends or a stable
        block's outer edges (equal lengths: the one that starts first); None if none."""
        top = len(text) - 1
        starts = [p for p in range(first + 1) if p == 0 or (stable[p] and not stable[p - 1])]
        ends = [q for q in range(last, top + 1) if q == top or (stable[q] and not stable[q + 1])]
        spans = sorted(((q - p, p, q) for p in starts for q in ends), key=lambda s: (-s[0], s[1]))
        for _, p, q in spans:
            if self.is_complete(text[p : q + 1]):
                return p, q
        return None

    def refused(self, board: Board, i: int) -> bool:
        """Whether no judged run of the tile on ``i`` holds a stable letter."""
        stable = board.stable
        return not any(stable[j] for _, run in self.runs(board, i) for j in run)

    def has_partial_run(self, board: Board, i: int) -> bool:
        """Whether some judged run of the tile on ``i`` is a partial word."""
        return any(self.is_partial(board.text(run)) for _, run in self.runs(board, i))

    def words_if_stable(self, board: Board, i: int) -> tuple[Word, ...] | None:
        """The tile's words if they are all complete (it may become stable), else None."""
        out = []
        for axis, run in self.runs(board, i):
            word = self.tile_word(board, i, axis, run)
            if word is None:
                return None
            out.append(word)
        return tuple(out)

    def complete_words(self, board: Board) -> set[Word]:
        """The complete words of every unstable tile on the board."""
        found: set[Word] = set()
        for i in board.unstable():
            for axis, run in self.runs(board, i):
                word = self.tile_word(board, i, axis, run)
                if word is not None:
                    found.add(word)
        return found

    # -- settling -------------------------------------------------------------------
    def orphans(self, board: Board) -> list[int]:
        """Unstable tiles not joined through edge-to-edge neighbours to a stable tile."""
        letters, stable = board.letters, board.stable
        loose = board.unstable()
        # Walk from the unstable tiles that touch a stable one (there are few unstable
        # tiles and many stable ones): an unstable tile is joined to a stable tile
        # exactly when its group of unstable tiles touches one.
        held = [i for i in loose if any(stable[j] for j in NEIGHBOURS[i])]
        seen = set(held)
        while held:
            i = held.pop()
            for j in NEIGHBOURS[i]:
                if letters[j] and not stable[j] and j not in seen:
                    seen.add(j)
                    held.append(j)
        return [i for i in loose if i not in seen]

    def doomed(self, board: Board) -> list[int]:
        """Unstable tiles that settling destroys now: orphans, and tiles with no
        partial judged run."""
        out = set(self.orphans(board))
        out.update(
            i for i in board.unstable() if i not in out and not self.has_partial_run(board, i)
        )
        return sorted(out)

    def settle(self, board: Board) -> Settled:
        """Settle ``board`` in place until nothing changes; say what happened."""
        done = Settled([], [])
        while True:
            changed = False
            while doomed := self.doomed(board):
                changed = True
                for i in doomed:
                    done.destroyed.append((i, board.letters[i], board.owners[i]))
                    board.remove(i)
            ready = []
            for i in board.unstable():
                words = self.words_if_stable(board, i)
                if words is not None:
                    ready.append((i, words))
            for i, _ in ready:
                board.stable[i] = True
            done.stabilised.extend(ready)
            if not ready and not changed:
                return done
