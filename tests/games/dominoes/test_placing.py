"""Double Double Dominoes: where a domino may be laid, with a legal and an illegal case each."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from games.dominoes.game import Discard, Dominoes, Place

OTHER_HAND = [(0, 1), (0, 2), (0, 3)]

Laid = tuple[int, int, str, str]


def position(board: Sequence[Laid], hand: Sequence[tuple[int, int]]) -> Dominoes:
    """Seat 0 to lay a domino (its turn's draw already made) on the given board."""
    return Dominoes.from_position(2, board=board, hands=[hand, OTHER_HAND], phase="play")


def legal(game: Dominoes, place: Place) -> None:
    verdict = game.judge(place)
    assert verdict.accepted, verdict.reason
    assert place.normalised() in game.placements()


def illegal(game: Dominoes, place: Place, reason: str) -> None:
    verdict = game.judge(place)
    assert not verdict.accepted
    assert verdict.reason == reason
    assert place.normalised() not in game.placements()


# -- the first domino -------------------------------------------------------------
def test_first_domino_may_lie_on_the_star() -> None:
    game = position([], [(6, 3)])
    legal(game, Place(6, 3, "H8", "H9"))
    legal(game, Place(3, 6, "G8", "H8"))


def test_first_domino_off_the_star_is_refused() -> None:
    game = position([], [(6, 3)])
    illegal(game, Place(6, 3, "G7", "G8"), "the first domino must lie on the star H8")


def test_first_domino_has_every_star_placement() -> None:
    game = position([], [(6, 3), (2, 2)])
    # Four neighbours of the star, two ways round for 6-3, one for the double.
    assert len(game.placements()) == 4 * 2 + 4


# -- the tail ---------------------------------------------------------------------
LINE: list[Laid] = [(6, 5, "H8", "H9")]


def test_tail_matching_the_domino_it_touches_is_legal() -> None:
    legal(position(LINE, [(5, 3)]), Place(5, 3, "H10", "H11"))


def test_tail_not_matching_is_refused() -> None:
    illegal(
        position(LINE, [(5, 3)]),
        Place(3, 5, "H10", "H11"),
        "the tail 3 does not match the 5 on H9",
    )


def test_tail_may_meet_the_side_of_a_domino() -> None:
    legal(position(LINE, [(6, 1)]), Place(6, 1, "G8", "F8"))


def test_a_domino_touching_nothing_is_refused() -> None:
    illegal(position(LINE, [(5, 3)]), Place(5, 3, "C4", "C5"), "C4–C5 does not touch the line")


def test_the_cells_are_named_either_way_round() -> None:
    game = position(LINE, [(5, 3)])
    legal(game, Place(5, 3, "H10", "H11"))
    assert game.judge(Place(3, 5, "H11", "H10")).accepted


# -- one and only one domino ------------------------------------------------------
TWO_APART: list[Laid] = [(6, 5, "H8", "H9"), (5, 2, "G10", "G11")]


def test_tail_touching_one_domino_is_legal() -> None:
    legal(position(TWO_APART, [(5, 4)]), Place(5, 4, "I9", "J9"))


def test_tail_touching_two_dominoes_is_refused() -> None:
    illegal(
        position(TWO_APART, [(5, 4)]),
        Place(5, 4, "G9", "F9"),
        "G9 touches 6-5 on H8–H9 and 5-2 on G10–G11; a domino may touch only one at each end",
    )


# -- the head: free, unless it joins two lines ------------------------------------
GAP: list[Laid] = [(3, 6, "F8", "G8"), (2, 4, "J8", "K8")]


def test_head_touching_nothing_is_legal() -> None:
    legal(position(GAP, [(6, 1)]), Place(6, 1, "G9", "G10"))


def test_joining_two_lines_matching_both_is_legal() -> None:
    legal(position(GAP, [(6, 2)]), Place(6, 2, "H8", "I8"))


def test_head_touching_a_domino_it_does_not_match_is_refused() -> None:
    illegal(
        position(GAP, [(6, 3)]),
        Place(6, 3, "H8", "I8"),
        "the end 3 does not match the 2 on J8",
    )


def test_joining_with_the_tail_wrong_is_refused() -> None:
    illegal(
        position(GAP, [(5, 2)]),
        Place(5, 2, "H8", "I8"),
        "the end 5 does not match the 6 on G8",
    )


# -- side by side -----------------------------------------------------------------
DOUBLE_UP: list[Laid] = [(6, 6, "H7", "H8")]


def test_meeting_a_domino_crosswise_is_legal() -> None:
    legal(position(DOUBLE_UP, [(6, 1)]), Place(6, 1, "G8", "F8"))


def test_lying_side_by_side_along_a_domino_is_refused() -> None:
    illegal(
        position(DOUBLE_UP, [(6, 6)]),
        Place(6, 6, "G7", "G8"),
        "lies side by side with 6-6 on H7–H8",
    )


def test_side_by_side_is_refused_even_when_offset_pips_match() -> None:
    illegal(
        position([(6, 5, "H8", "H9")], [(6, 5)]),
        Place(6, 5, "G8", "G9"),
        "lies side by side with 6-5 on H8–H9",
    )


# -- the 2×2 block ----------------------------------------------------------------
CORNER: list[Laid] = [(6, 5, "H8", "H9"), (5, 2, "H10", "H11")]


def test_lying_beside_a_block_left_open_is_legal() -> None:
    legal(position(LINE, [(5, 5)]), Place(5, 5, "G9", "G10"))


def test_filling_a_two_by_two_block_is_refused() -> None:
    illegal(
        position(CORNER, [(5, 5)]),
        Place(5, 5, "G9", "G10"),
        "would fill the 2×2 block G9–H10",
    )


# -- plain mistakes ---------------------------------------------------------------
def test_a_covered_cell_is_refused() -> None:
    illegal(
        position(LINE, [(5, 3)]), Place(5, 3, "H9", "H10"), "H9 is already covered by 6-5 on H8–H9"
    )


def test_cells_that_are_not_neighbours_are_refused() -> None:
    illegal(
        position(LINE, [(5, 3)]),
        Place(5, 3, "H10", "H12"),
        "H10 and H12 are not next to each other",
    )


def test_a_domino_not_in_hand_is_refused() -> None:
    illegal(position(LINE, [(5, 3)]), Place(5, 4, "H10", "H11"), "you do not hold 4-5")


def test_a_cell_off_the_board_is_refused() -> None:
    reason = position(LINE, [(5, 3)]).judge(Place(5, 3, "H10", "Z11")).reason
    assert reason == "'Z11' is not a cell: use a column A–O then a row 1–15, like H8"


def test_pips_outside_zero_to_six_are_refused() -> None:
    reason = position(LINE, [(5, 3)]).judge(Place(5, 7, "H10", "H11")).reason
    assert reason == "domino_b must be a whole number of pips from 0 to 6, not 7"


# -- must play if able ------------------------------------------------------------
def test_discarding_while_a_domino_fits_is_refused() -> None:
    game = position(LINE, [(5, 3), (0, 0)])
    assert game.phase == "play"
    verdict = game.judge(Discard(0, 0))
    assert not verdict.accepted
    assert verdict.reason == "you hold a domino that can be played"


def test_every_placement_listed_is_accepted_and_every_accepted_one_listed() -> None:
    game = position([*GAP, (1, 2, "D3", "D4")], [(6, 2), (2, 2), (4, 1)])
    listed = set(game.placements())
    cells = game.cells()
    found = set()
    for i, c1 in enumerate(cells):
        for c2 in (cells[i + 1] if (i + 1) % 15 else None, cells[i + 15] if i + 15 < 225 else None):
            if c2 is None:
                continue
            for d in game.hand(0):
                for a, b in {(d.a, d.b), (d.b, d.a)}:
                    if game.judge(Place(a, b, c1, c2)).accepted:
                        found.add(Place(a, b, c1, c2))
    assert found == listed
    assert len(listed) > 20


def test_lowercase_cell_names_are_accepted() -> None:
    assert position(LINE, [(5, 3)]).judge(Place(5, 3, "h10", "h11")).accepted


@pytest.mark.parametrize("cells", [("H10", "H11"), ("I9", "J9"), ("G9", "G10")])
def test_a_double_may_be_met_at_its_end_or_either_side(cells: tuple[str, str]) -> None:
    game = position([(5, 5, "H8", "H9")], [(5, 3)])
    assert game.judge(Place(5, 3, *cells)).accepted
