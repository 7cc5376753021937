"""Judged runs, a tile's word and settling, on the seed's pictures (RULES.md §2)."""

from __future__ import annotations

from games.doublecross.board import ACROSS, DOWN, cell_index, cell_name
from games.doublecross.judge import Judge
from games.doublecross.score import Tally, pay_settling
from tests.games.doublecross.helpers import board_from, small_lexicon


def at(cell: str) -> int:
    i = cell_index(cell)
    assert i is not None
    return i


def names(cells: tuple[int, ...] | None) -> list[str]:
    assert cells is not None
    return [cell_name(i) for i in cells]


JUDGE3 = Judge(small_lexicon(), 3)


def test_blue_t_judges_only_th_and_ignores_the_letters_beyond_the_stable_h() -> None:
    board = board_from({"C5": "tHate"})
    run = JUDGE3.judged_run(board, at("C5"), ACROSS)
    assert names(run) == ["C5", "D5"]
    assert board.text(run or ()) == "TH"
    assert JUDGE3.has_partial_run(board, at("C5"))  # TH is inside THAT
    assert not JUDGE3.refused(board, at("C5"))
    assert JUDGE3.tile_word(board, at("C5"), ACROSS) is None  # neither TH nor THATE is a word


def test_rts_inside_darts_is_judged_but_the_word_made_stable_is_darts() -> None:
    board = board_from({"C5": "daRtS"})
    assert board.text(JUDGE3.judged_run(board, at("F5"), ACROSS) or ()) == "RTS"
    word = JUDGE3.tile_word(board, at("F5"), ACROSS)
    assert word is not None and word.text == "DARTS"
    settled = JUDGE3.settle(board)
    assert sorted(cell_name(i) for i, _ in settled.stabilised) == ["C5", "D5", "F5"]
    assert settled.destroyed == []
    tally = Tally()
    paid: set = set()  # type: ignore[type-arg]
    pay_settling(JUDGE3, board, paid, 1, settled, tally, "test")
    # DARTS: 5 to the placer (seat 1), 5 for each of D, A, T to their owner (seat 0).
    assert tally.points(2) == [15, 5]


def test_a_word_ends_at_the_line_end_or_at_the_outer_edge_of_a_stable_block() -> None:
    # R O A D U E with only D stable: placing R makes ROAD, not a word reaching E.
    board = board_from({"C5": "roaDue"})
    word = JUDGE3.tile_word(board, at("C5"), ACROSS)
    assert word is not None and (word.text, names(word.cells)) == ("ROAD", ["C5", "D5", "E5", "F5"])


def test_of_two_words_of_one_length_the_one_that_starts_first_is_the_tiles_word() -> None:
    judge = Judge(small_lexicon(("eate", "atea")), 3)
    board = board_from({"C5": "eAtEa"})  # T judges ATE; EATE and ATEA both end at edges
    word = judge.tile_word(board, at("E5"), ACROSS)
    assert word is not None and (word.text, names(word.cells)[0]) == ("EATE", "C5")


def test_oad_and_due_are_each_partial_round_a_stable_d_and_oadue_is_not() -> None:
    judge = Judge(small_lexicon(), 4)
    board = board_from({"C5": "oaDue"})
    assert board.text(judge.judged_run(board, at("C5"), ACROSS) or ()) == "OAD"
    assert board.text(judge.judged_run(board, at("G5"), ACROSS) or ()) == "DUE"
    assert all(judge.has_partial_run(board, at(c)) for c in ("C5", "D5", "F5", "G5"))
    assert not judge.is_partial("OADUE")
    assert judge.settle(board).destroyed == []


def test_settling_destroys_orphans_and_tiles_in_no_partial_word() -> None:
    board = board_from({"C5": "Cat", "H9": "ox"})  # H9-I9 join nothing stable
    settled = JUDGE3.settle(board)
    gone = sorted(cell_name(i) for i, _, _ in settled.destroyed)
    assert gone == ["H9", "I9"]
    assert [cell_name(i) for i, _ in settled.stabilised] == ["D5", "E5"]  # CAT


def test_a_tile_with_one_partial_run_stays_though_its_other_line_is_no_word() -> None:
    board = board_from({"C5": "Ca", "D6": "q"})  # A: CA across partial; down AQ is not
    settled = JUDGE3.settle(board)
    assert settled.destroyed == [(at("D6"), "Q", 0)]
    assert board.text((at("C5"), at("D5"))) == "CA"


def test_a_tile_is_stable_only_when_its_words_on_both_lines_are_complete() -> None:
    board = board_from({"C5": "Cat", "E4": "S", "E6": "E"})
    # T on E5: across CAT complete, down S-T-E (STE) is not a word: T stays unstable.
    settled = JUDGE3.settle(board)
    assert at("E5") not in {i for i, _ in settled.stabilised}
    assert JUDGE3.tile_word(board, at("E5"), DOWN) is None
