"""Whether a Doubles Wild board needs fixes, told quickly: the same answer as the fixes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.kits.doubles_wild.turn import shows
from firmware_bridge.referees.fixes import reconcile
from games.core import Piece
from games.doubles_wild.board import CELLS
from games.doubles_wild.game import COLOURS
from hardware.board import OCCUPIED

TAGS = {"0A0B0C01": "blue", "0A0B0C02": "red", "0A0B0C03": "purple", "0A0B0C04": "lamp"}
"""Tags enrolled as balls, and one as something else; any other tag is unknown."""

SPOTS = st.sampled_from(CELLS[:12])
"""A corner of the board, so that layouts and boards often meet."""
BALL = st.builds(
    Piece,
    kind=st.just("ball"),
    label=st.sampled_from(COLOURS[:3]),
    owner=st.integers(0, 2),
    state=st.sampled_from(["", "protected"]),
)
SENSED = st.sampled_from([OCCUPIED, "", "0A0B0C09", *TAGS])


def matches(piece: Piece, sensed: str) -> bool:
    return sensed == OCCUPIED or TAGS.get(sensed) == piece.label


@settings(max_examples=300, deadline=None)
@given(
    layout=st.dictionaries(SPOTS, BALL, max_size=6),
    seen=st.dictionaries(st.one_of(SPOTS, st.just("tray")), SENSED, max_size=7),
)
def test_shows_is_true_exactly_when_there_is_nothing_to_fix(
    layout: dict[str, Piece], seen: dict[str, str]
) -> None:
    on_spots = {cell: value for cell, value in seen.items() if cell in CELLS}
    fixes = reconcile(layout, on_spots, list(CELLS), matches, TAGS.get)
    assert shows(layout, seen, matches) == (fixes == [])


def test_a_board_just_like_the_layout_shows_it_and_one_ball_off_does_not() -> None:
    layout = {"r3c3": Piece("ball", "red", 1), "r5c7": Piece("ball", "blue", 0, "protected")}
    seen = {"r3c3": "0A0B0C02", "r5c7": OCCUPIED, "tray": OCCUPIED}
    assert shows(layout, seen, matches)
    assert not shows(layout, {**seen, "r3c3": "0A0B0C01"}, matches), "a blue ball on red's spot"
    assert not shows(layout, {"r3c3": "0A0B0C02"}, matches), "r5c7 is empty"
    assert not shows(layout, {**seen, "r4c4": OCCUPIED}, matches), "a ball too many"
