from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.board import OCCUPIED
from hardware.settle import SettleFilter

WINDOW = 0.15
CELLS = ("a1", "b1", "c1")


def settled_after_start(raw: dict[str, str]) -> SettleFilter:
    """A filter that has settled on ``raw`` (fed at t=0 and t=WINDOW)."""
    f = SettleFilter(CELLS, WINDOW)
    assert f.update(raw, 0.0) is None
    assert f.update(raw, WINDOW) == raw
    return f


def test_nothing_is_reported_before_the_first_window() -> None:
    f = SettleFilter(CELLS, WINDOW)
    assert f.update({"a1": OCCUPIED}, 0.0) is None
    assert f.update({"a1": OCCUPIED}, 0.1) is None
    assert f.update({"a1": OCCUPIED}, 0.15) == {"a1": OCCUPIED}


def test_empty_board_is_reported_once_settled() -> None:
    f = SettleFilter(CELLS, WINDOW)
    assert f.update({}, 0.0) is None
    assert f.update({}, 0.2) == {}
    assert f.update({}, 0.4) is None


def test_zero_window_reports_at_once() -> None:
    f = SettleFilter(CELLS, 0.0)
    assert f.update({"b1": "04A1B2"}, 0.0) == {"b1": "04A1B2"}


def test_placed_piece_counts_only_after_holding_still() -> None:
    f = settled_after_start({})
    assert f.update({"a1": OCCUPIED}, 1.0) is None
    assert f.update({"a1": OCCUPIED}, 1.1) is None
    assert f.update({"a1": OCCUPIED}, 1.15) == {"a1": OCCUPIED}
    assert f.update({"a1": OCCUPIED}, 1.3) is None


def test_lifted_piece_counts_only_after_holding_still() -> None:
    f = settled_after_start({"a1": OCCUPIED})
    assert f.update({}, 1.0) is None
    assert f.update({}, 1.1) is None
    assert f.update({}, 1.2) == {}


def test_flicker_shorter_than_window_never_shows() -> None:
    f = settled_after_start({"a1": OCCUPIED})
    for t in (1.0, 1.05, 1.1):
        assert f.update({}, t) is None
    assert f.update({"a1": OCCUPIED}, 1.14) is None
    assert f.update({"a1": OCCUPIED}, 5.0) is None
    assert f.settled == {"a1": OCCUPIED}


def test_piece_slid_across_cells_shows_only_where_it_stops() -> None:
    f = settled_after_start({})
    t = 1.0
    for cell in ("a1", "b1"):
        assert f.update({cell: OCCUPIED}, t) is None
        assert f.update({cell: OCCUPIED}, t + 0.1) is None
        t += 0.12
    assert f.update({"c1": OCCUPIED}, t) is None
    assert f.update({"c1": OCCUPIED}, t + WINDOW) == {"c1": OCCUPIED}


def test_tag_swap_restarts_the_window() -> None:
    f = settled_after_start({"a1": "AA"})
    assert f.update({"a1": "BB"}, 1.0) is None
    assert f.update({"a1": "CC"}, 1.1) is None
    assert f.update({"a1": "CC"}, 1.2) is None
    assert f.update({"a1": "CC"}, 1.25) == {"a1": "CC"}


def test_unknown_cell_is_rejected_by_name() -> None:
    f = SettleFilter(CELLS, WINDOW)
    with pytest.raises(ValueError, match="z9"):
        f.update({"z9": OCCUPIED}, 0.0)


def test_negative_window_is_rejected() -> None:
    with pytest.raises(ValueError, match="negative"):
        SettleFilter(CELLS, -0.1)


readings = st.sampled_from([None, OCCUPIED, "04A1", "04B2"])


@st.composite
def glitchy_run(draw: st.DrawFn) -> tuple[dict[str, str], list[tuple[float, dict[str, str]]]]:
    """A settled board, then raw samples where every deviation lasts < WINDOW.

    A deviation of a cell lasts from the first sample showing it until the
    first sample where the cell reads its settled value again.
    """
    base: dict[str, str] = {}
    for cell in CELLS:
        reading = draw(readings)
        if reading is not None:
            base[cell] = reading
    samples: list[tuple[float, dict[str, str]]] = []
    t = 1.0
    since: dict[str, float] = {}  # cell -> when its current deviation began
    value: str | None
    for _ in range(draw(st.integers(1, 40))):
        t += draw(st.floats(0.001, 0.2))
        raw: dict[str, str] = {}
        for cell in CELLS:
            deviating = cell in since
            if deviating and t - since[cell] >= WINDOW * 0.999:
                value = base.get(cell)  # the glitch must end now
            else:
                value = draw(readings)
            if value != base.get(cell):
                since.setdefault(cell, t)
            else:
                since.pop(cell, None)
            if value is not None:
                raw[cell] = value
        samples.append((t, raw))
    return base, samples


@settings(max_examples=150, deadline=None)
@given(glitchy_run())
def test_changes_shorter_than_window_never_alter_settled_output(
    run: tuple[dict[str, str], list[tuple[float, dict[str, str]]]],
) -> None:
    base, samples = run
    f = settled_after_start(base)
    for t, raw in samples:
        assert f.update(raw, t) is None
    assert f.settled == base


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.floats(0.001, 0.3), readings), min_size=1, max_size=30))
def test_settled_value_is_one_that_held_for_the_window(
    steps: list[tuple[float, str | None]],
) -> None:
    f = settled_after_start({})
    t = 1.0
    history: list[tuple[float, str | None]] = []  # (time first seen, value)
    for dt, value in steps:
        t += dt
        if not history or history[-1][1] != value:
            history.append((t, value))
        f.update({} if value is None else {"a1": value}, t)
        got = f.settled.get("a1")
        if got is not None:
            # Whatever is settled was read continuously for at least the window.
            runs = [
                (start, history[i + 1][0] if i + 1 < len(history) else t)
                for i, (start, v) in enumerate(history)
                if v == got
            ]
            assert any(end - start >= WINDOW - 1e-9 for start, end in runs)


def test_a_delayed_cell_must_hold_for_the_window_and_its_delay() -> None:
    f = settled_after_start({})
    delays = {"a1": 0.04}
    assert f.update({"a1": OCCUPIED}, 1.0, delays) is None
    assert f.update({"a1": OCCUPIED}, 1.15, delays) is None
    assert f.update({"a1": OCCUPIED}, 1.19, delays) == {"a1": OCCUPIED}
    # Lifting it is delayed the same way; other cells are not.
    assert f.update({"b1": OCCUPIED}, 2.0, delays) is None
    assert f.update({"b1": OCCUPIED}, 2.15, delays) == {"a1": OCCUPIED, "b1": OCCUPIED}


def test_after_a_restart_changes_settle_together_once_the_whole_board_holds_still() -> None:
    f = settled_after_start({"b1": "AA"})
    f.restart(1.0)
    # A piece moved from b1 to a1 while the readings were unknown.
    assert f.update({"a1": "AA"}, 1.0) is None
    # A new piece on b1 before the window is out restarts it for every cell.
    assert f.update({"a1": "AA", "b1": "BB"}, 1.1) is None
    assert f.update({"a1": "AA", "b1": "BB"}, 1.2) is None
    assert f.update({"a1": "AA", "b1": "BB"}, 1.25) == {"a1": "AA", "b1": "BB"}
    # Then cells settle one by one again.
    assert f.update({"a1": "AA", "b1": "BB", "c1": "CC"}, 2.0) is None
    assert f.update({"b1": "BB", "c1": "CC"}, 2.1) is None
    assert f.update({"b1": "BB", "c1": "CC"}, 2.15) == {"a1": "AA", "b1": "BB", "c1": "CC"}


def test_a_restart_forgets_when_pending_readings_began() -> None:
    f = settled_after_start({})
    assert f.update({"a1": OCCUPIED}, 1.0) is None
    f.restart(1.1)
    assert f.update({"a1": OCCUPIED}, 1.2) is None
    assert f.update({"a1": OCCUPIED}, 1.3) is None
    assert f.update({"a1": OCCUPIED}, 1.35) == {"a1": OCCUPIED}
