"""The ambiguity rule: tags placed from row and column inventories and the switches."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from wiring.rf.placement import place, reads_needed

N = 5


def _reads(truth, rows, cols, dropped=frozenset()):
    rows_seen = {
        r: {u for (rr, _), u in truth.items() if rr == r and (u, "r") not in dropped} for r in rows
    }
    cols_seen = {
        c: {u for (_, cc), u in truth.items() if cc == c and (u, "c") not in dropped} for c in cols
    }
    return rows_seen, cols_seen


def test_one_new_tile_in_a_row_needs_only_its_row() -> None:
    before = {(0, 0): "A"}
    truth = {(0, 0): "A", (0, 3): "B"}
    rows, cols = reads_needed({(0, 3)})
    assert (rows, cols) == ({0}, set())
    r, c = _reads(truth, rows, cols)
    assert place(before, {(0, 3)}, truth, r, c) == truth


def test_two_new_tiles_in_one_row_and_one_column_are_told_apart_by_the_columns() -> None:
    truth = {(1, 1): "A", (1, 2): "B", (2, 1): "C"}
    changed = set(truth)
    rows, cols = reads_needed(changed)
    assert rows == {1, 2} and cols == {1, 2}
    r, c = _reads(truth, rows, cols)
    assert place({}, changed, truth, r, c) == truth


def test_a_missed_read_leaves_the_square_unread_not_wrong() -> None:
    truth = {(1, 1): "A", (1, 2): "B"}
    rows, cols = reads_needed(set(truth))
    r, c = _reads(truth, rows, cols, dropped={("B", "c")})
    after = place({}, set(truth), truth, r, c)
    assert after == {(1, 1): "A", (1, 2): None}


def test_a_lifted_tile_leaves_the_map_and_a_moved_one_follows() -> None:
    before = {(0, 0): "A", (3, 3): "B"}
    truth = {(0, 0): "A", (2, 4): "B"}
    changed = {(3, 3), (2, 4)}
    rows, cols = reads_needed(changed & set(truth))
    r, c = _reads(truth, rows, cols)
    assert place(before, changed, truth, r, c) == truth


squares = st.tuples(st.integers(0, N - 1), st.integers(0, N - 1))


@settings(max_examples=300, deadline=None)
@given(
    old=st.sets(squares, max_size=10),
    new=st.sets(squares, max_size=6),
    lifted=st.sets(squares, max_size=4),
    drops=st.sets(st.tuples(st.integers(0, 40), st.sampled_from("rc")), max_size=4),
)
def test_placement_is_never_wrong_and_complete_when_no_read_is_missed(
    old: set, new: set, lifted: set, drops: set
) -> None:
    before = {sq: f"old{i}" for i, sq in enumerate(sorted(old))}
    truth = {sq: u for sq, u in before.items() if sq not in lifted}
    placed_now = {sq: f"new{i}" for i, sq in enumerate(sorted(new - set(truth)))}
    truth.update(placed_now)
    changed = (set(before) - set(truth)) | set(placed_now)
    targets = changed & set(truth)
    rows, cols = reads_needed(targets)
    uid_drops = {(f"new{i}", side) for i, side in drops}
    r, c = _reads(truth, rows, cols)
    assert place(before, changed, truth, r, c) == truth
    r, c = _reads(truth, rows, cols, dropped=frozenset(uid_drops))
    after = place(before, changed, truth, r, c)
    assert set(after) == set(truth)
    for sq, uid in after.items():
        assert uid is None or uid == truth[sq]
