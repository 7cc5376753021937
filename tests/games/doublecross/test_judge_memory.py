"""The judge remembers the word it found in a line and whether a text is a partial
word, and finds orphans from the unstable tiles: each the same as working it out
afresh from the rules' definitions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.doublecross.board import AXES, CELLS, NEIGHBOURS, Board
from games.doublecross.judge import Judge, Word
from tests.games.doublecross.helpers import small_lexicon


def reference_word(judge: Judge, board: Board, i: int, axis: int) -> Word | None:
    """The longest complete word holding the judged run whose ends are line ends or
    outer edges of stable blocks (equal lengths: the first), tried span by span."""
    run = judge.judged_run(board, i, axis)
    if run is None:
        return None
    line = judge.line(board, i, axis)
    stable = board.stable
    first = line.index(run[0])
    last = first + len(run) - 1
    top = len(line) - 1
    best: tuple[int, int] | None = None
    for p in range(first + 1):
        if not (p == 0 or (stable[line[p]] and not stable[line[p - 1]])):
            continue
        for q in range(last, top + 1):
            if not (q == top or (stable[line[q]] and not stable[line[q + 1]])):
                continue
            text = board.text(line[p : q + 1])
            complete = len(text) >= judge.min_word and judge.words.is_word(text.lower())
            if complete and (best is None or (q - p, -p) > (best[1] - best[0], -best[0])):
                best = (p, q)
    if best is None:
        return None
    p, q = best
    return Word(axis, line[p : q + 1], board.text(line[p : q + 1]))


def reference_orphans(board: Board) -> list[int]:
    """Unstable tiles no path of tiles joins to a stable tile, walked from every stable one."""
    seen = {i for i in range(CELLS) if board.stable[i]}
    todo = list(seen)
    while todo:
        for j in NEIGHBOURS[todo.pop()]:
            if board.letters[j] and j not in seen:
                seen.add(j)
                todo.append(j)
    return [i for i in board.unstable() if i not in seen]


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Tiles of a few letters crowded into the top left corner, some stable, so that
    lines hold words, stable blocks and gaps."""
    board = Board()
    cells = st.integers(0, 5).flatmap(lambda r: st.integers(r * 15, r * 15 + 6))
    tiles = draw(st.dictionaries(cells, st.tuples(st.sampled_from("ACDEORST"), st.booleans())))
    for i, (letter, stable) in tiles.items():
        board.put(i, letter, 0, stable)
    return board


@settings(max_examples=300, deadline=None)
@given(boards())
def test_the_remembered_word_of_a_line_is_the_word_read_off_it(board: Board) -> None:
    judge = Judge(small_lexicon(), 3)
    for _ in range(2):  # worked out, then remembered
        for i in board.unstable():
            for axis in AXES:
                assert judge.tile_word(board, i, axis) == reference_word(judge, board, i, axis)


@settings(max_examples=300, deadline=None)
@given(boards())
def test_orphans_are_the_unstable_tiles_no_stable_tile_reaches(board: Board) -> None:
    assert Judge(small_lexicon(), 3).orphans(board) == reference_orphans(board)


def test_the_same_line_elsewhere_has_the_same_word_in_its_own_cells() -> None:
    judge = Judge(small_lexicon(), 3)
    board = Board()
    for i, letter in zip((0, 1, 2), "CAT", strict=True):
        board.put(i, letter, 0, stable=i == 0)
    for i, letter in zip((150, 151, 152), "CAT", strict=True):
        board.put(i, letter, 1, stable=i == 150)
    assert judge.tile_word(board, 2, AXES[0]) == Word(0, (0, 1, 2), "CAT")
    assert judge.tile_word(board, 152, AXES[0]) == Word(0, (150, 151, 152), "CAT")
    board.put(151, "O", 1)
    assert judge.tile_word(board, 152, AXES[0]) is None  # COT is no word of the list


def test_partial_words_are_remembered_as_the_lexicon_says() -> None:
    judge = Judge(small_lexicon(), 3)
    assert [judge.is_partial(t) for t in ("TE", "TE", "QZ", "QZ", "E")] == [
        True,
        True,
        False,
        False,
        False,
    ]
