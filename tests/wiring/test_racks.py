"""Rack cells in a profile: ``[racks] seat1 = [...]``, checked against the board's cells."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.wiring.conftest import VALID, WriteProfile, edit
from wiring.loader import ProfileError, load_profile
from wiring.table import pin_table

# The test board's cells are a1 b1 c1 / a2 b2 c2.
WITH_RACKS = VALID + '\n[racks]\nseat1 = ["a2", "b2"]\nseat2 = ["c2"]\n'


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ProfileError) as caught:
        load_profile(str(path))
    return caught.value.problems


def test_a_profile_without_racks_has_none() -> None:
    assert load_profile("rfid-15x15-pico").racks == {}


def test_rack_cells_are_read_by_seat_from_zero(write_profile: WriteProfile) -> None:
    profile = load_profile(str(write_profile(WITH_RACKS)))
    assert profile.racks == {0: ("a2", "b2"), 1: ("c2",)}
    assert "rack cells: seat1 a2..b2, seat2 c2" in pin_table(profile)


def test_a_rack_cell_must_be_a_board_cell(write_profile: WriteProfile) -> None:
    path = write_profile(edit('seat2 = ["c2"]', 'seat2 = ["c2", "d9"]', WITH_RACKS))
    (problem,) = problems_of(path)
    assert "[racks] seat2: not cells of the board: d9" in problem
    assert "use names from [board] cells" in problem


def test_a_cell_in_two_racks_is_refused(write_profile: WriteProfile) -> None:
    path = write_profile(edit('seat2 = ["c2"]', 'seat2 = ["b2"]', WITH_RACKS))
    (problem,) = problems_of(path)
    assert "[racks] seat2: b2 is also in seat1" in problem


def test_a_cell_twice_in_one_rack_is_refused(write_profile: WriteProfile) -> None:
    path = write_profile(edit('seat2 = ["c2"]', 'seat2 = ["c2", "c2"]', WITH_RACKS))
    (problem,) = problems_of(path)
    assert "[racks] seat2: c2 is twice in this rack" in problem


def test_at_most_four_seats_have_racks(write_profile: WriteProfile) -> None:
    path = write_profile(WITH_RACKS + 'seat5 = ["c1"]\n')
    (problem,) = problems_of(path)
    assert "[racks] seat5: not a seat: a board has racks for at most 4 seats" in problem
    assert "seat1 to seat4" in problem


def test_a_rack_must_be_a_list_of_cell_names(write_profile: WriteProfile) -> None:
    path = write_profile(edit('seat2 = ["c2"]', 'seat2 = "c2"', WITH_RACKS))
    (problem,) = problems_of(path)
    assert "[racks] seat2: a string ('c2') where a non-empty list of cell names" in problem


def test_the_racks_board_has_four_racks_of_seven_below_the_15_by_15_board() -> None:
    profile = load_profile("rfid-15x15-racks-pico")
    assert profile.serial is not None and (profile.serial.rows, profile.serial.columns) == (17, 15)
    assert profile.games == ("crosslet",)
    assert [len(cells) for cells in profile.racks.values()] == [7, 7, 7, 7]
    racked = [c for cells in profile.racks.values() for c in cells]
    assert len(set(racked)) == 28
    assert all(int(c[1:]) > 15 for c in racked)
    assert profile.racks[0][0] == "A16" and profile.racks[3][-1] == "O17"
