"""Cell-name schemes, in sensor order."""

from __future__ import annotations

import pytest

from wiring.cells import scheme_cells


def test_files_ranks_start_at_a1_and_go_rank_by_rank() -> None:
    cells = scheme_cells("files-ranks", 9, 8)
    assert cells[:3] == ("a1", "b1", "c1")
    assert cells[8] == "a2"
    assert cells[-1] == "h9"
    assert len(cells) == 72


def test_letters_numbers_put_a1_top_left() -> None:
    cells = scheme_cells("letters-numbers", 15, 15)
    assert cells[0] == "A1"
    assert cells[14] == "O1"
    assert cells[7 * 15 + 7] == "H8"
    assert cells[-1] == "O15"


def test_dice_rows_columns_are_numbered_from_3() -> None:
    cells = scheme_cells("dice-rows-columns", 9, 9)
    assert cells[0] == "r3c3"
    assert cells[6 * 9 + 3] == "r9c6"
    assert cells[-1] == "r11c11"


def test_unknown_scheme_is_named() -> None:
    with pytest.raises(ValueError, match="unknown cell scheme 'chess'"):
        scheme_cells("chess", 8, 8)


def test_letter_scheme_cannot_name_more_than_26_columns() -> None:
    with pytest.raises(ValueError, match="at most 26 columns"):
        scheme_cells("letters-numbers", 2, 27)
