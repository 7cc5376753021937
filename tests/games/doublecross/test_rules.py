"""DoubleCross placing and settling: the seed's pictures and each rule of RULES.md §2."""

from __future__ import annotations

from games.doublecross.game import EndTurn, PlaceTile
from tests.games.doublecross.helpers import game, play


def stable_cells(g) -> set[str]:  # type: ignore[no-untyped-def]
    return {c for c, p in g.layout().items() if p.state == "stable"}


def test_stem_scores_placer_12_and_owner_of_s_4() -> None:
    g = game()
    # Seat 1 (red) makes ART down from the start word's A, then lays S before T.
    play(g, "H9 R", "H10 T", "G10 S")
    assert g.scores() == [9, 0]
    assert "G10" not in stable_cells(g)
    g.apply(EndTurn())
    before = g.scores()
    play(g, "I10 E")
    verdict = play(g, "J10 M")[0]
    gained = [a - b for a, b in zip(g.scores(), before, strict=True)]
    assert gained == [4, 12]
    assert verdict.points(2) == [4, 12]
    assert {"G10", "H10", "I10", "J10"} <= stable_cells(g)
    assert [e.reason for e in verdict.events] == [
        "STEM completed",
        "S on G10 made stable in STEM",
        "E on I10 made stable in STEM",
        "M on J10 made stable in STEM",
    ]


def oad_due(min_word: int):  # type: ignore[no-untyped-def]
    g = game(start="ODDS", racks=("OAUER", ""), min_word=min_word)
    play(g, "H7 A", "H6 O", "H9 U")
    return g


def test_road_destroys_u_and_e_beyond_the_stable_d_at_minimum_four() -> None:
    g = oad_due(4)
    play(g, "H10 E")
    assert g.scores() == [0, 0]
    verdict = play(g, "H5 R")[0]
    assert set(verdict.removed) == {"H9", "H10"}
    assert {"H5", "H6", "H7"} <= stable_cells(g)
    # ROAD: 4 to the placer and 4 for each of R, O, A (all the placer's); U and E -4 each.
    assert g.scores() == [16 - 8, 0]


def test_due_completes_first_at_minimum_three_and_o_a_are_destroyed() -> None:
    g = oad_due(3)
    verdict = play(g, "H10 E")[0]
    assert set(verdict.removed) == {"H6", "H7"}
    assert {"H9", "H10"} <= stable_cells(g)
    assert g.scores() == [3 + 6 - 8, 0]


def test_a_tile_that_reaches_no_stable_letter_is_refused_and_stays_on_the_rack() -> None:
    g = game()
    verdict = g.judge(PlaceTile("A3", "R"))
    assert not verdict.accepted
    assert verdict.reason.startswith("refused")
    assert g.rack(0) == ["R", "T", "S"]
    assert g.to_move == 0


def test_a_chain_round_a_corner_does_not_reach_the_stable_letter() -> None:
    g = game(extra=("rt", "tr"))
    play(g, "H9 R")  # AR down from the start word
    verdict = g.apply(PlaceTile("I9", "T"))  # across RT; down from I8's T: TT, fine
    assert verdict.accepted
    # J10 touches nothing stable along either of its lines.
    assert not g.judge(PlaceTile("J10", "S")).accepted


def test_a_tile_in_no_partial_word_is_destroyed_owner_loses_4_turn_ends() -> None:
    g = game(racks=("RTS", "EM"), bag="AAAA")
    verdict = g.apply(PlaceTile("J8", "S"))  # CATS is no partial word of this list
    assert verdict.accepted
    assert verdict.removed == ("J8",)
    assert g.scores() == [-4, 0]
    assert g.to_move == 1
    assert "J8" not in g.layout()
    assert g.rack(0) == ["R", "T", "A", "A", "A", "A"]  # refilled from the bag's front
