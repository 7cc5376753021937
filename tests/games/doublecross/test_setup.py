"""DoubleCross's set-up options: what they fix, the order of the bag, and every
problem of a bad set-up named at once."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.doublecross.board import TILE_COUNTS
from games.doublecross.game import DoubleCross, EndTurn, NewLetters
from games.doublecross.setup import read_options
from games.errors import BadSettings
from tests.games.doublecross.helpers import play, small_lexicon


def new(players: int = 2, seed: int = 3, **options: Any) -> DoubleCross:
    return DoubleCross(players, random.Random(seed), options, lexicon=small_lexicon())


def test_given_racks_bag_first_and_specials_are_used_as_given() -> None:
    g = new(
        3,
        start_word="CAT",
        first=2,
        racks=["RTS", "EMO", "DUE"],
        bag="XYZ",
        specials={"H3": "bonus", "b2": "ns", "A1": "bomb-3"},
    )
    assert g.to_move == 1
    assert [g.rack(p) for p in range(3)] == [list("RTS"), list("EMO"), list("DUE")]
    assert g.bag_count == 3
    assert g.specials() == {"A1": "bomb-3", "B2": "ns", "H3": "bonus"}


def test_refills_come_from_the_front_of_the_bag() -> None:
    g = new(start_word="CAT", racks=["RTS", "EM"], bag="ABCDEFGHIJ", first=1)
    play(g, "H9 R")
    assert g.apply(EndTurn()).accepted
    assert g.rack(0) == ["T", "S", "A", "B", "C", "D"]
    assert g.state.bag == list("EFGHIJ")


def test_new_letters_returns_the_rack_to_the_end_and_draws_from_the_front() -> None:
    g = new(start_word="CAT", racks=["RTS", "EMOD"], bag="ABCDEFGH", first=2)
    assert g.apply(NewLetters()).accepted
    # E M O D went to the end of the bag, then seat 2 drew six from its front.
    assert g.rack(1) == list("ABCDEF")
    assert g.state.bag == list("GHEMOD")


def test_a_given_bag_without_racks_deals_the_racks_from_the_tiles_named_nowhere() -> None:
    g = new(start_word="CAT", bag="QZEBRA")
    assert g.state.bag == list("QZEBRA")
    racks = [g.rack(p) for p in range(2)]
    assert all(len(r) == 6 for r in racks)
    used: dict[str, int] = {}
    for letter in "CAT" + "QZEBRA" + "".join("".join(r) for r in racks):
        used[letter] = used.get(letter, 0) + 1
    assert all(n <= TILE_COUNTS[letter] for letter, n in used.items())


def test_racks_without_a_bag_leave_the_rest_of_the_98_tiles_in_the_bag() -> None:
    g = new(start_word="CAT", racks=["RTSEMO", "DUEAIN"])
    assert g.bag_count == 98 - 3 - 12


def test_given_specials_replace_the_random_layout() -> None:
    g = new(start_word="CAT", specials={"C3": "block"})
    assert g.specials() == {"C3": "block"}


def test_a_bag_that_leaves_too_few_tiles_for_the_racks_says_so() -> None:
    every = "".join(letter * n for letter, n in TILE_COUNTS.items()).replace("CAT", "", 1)
    bag = every.replace("C", "", 1).replace("A", "", 1).replace("T", "", 1)
    with pytest.raises(BadSettings, match=r"leave 0 tiles of the 98 for 2 racks of 6"):
        new(start_word="CAT", bag=bag)


def test_every_problem_of_a_set_up_is_named_at_once() -> None:
    _, problems = read_options(
        {
            "min_word": 5,
            "first": 0,
            "start_word": "C4T",
            "racks": ["ABC", "D?"],
            "bag": "ZZ",
            "specials": {"P1": "bonus", "A2": "bomb-3", "B2": "lava"},
            "colour": "red",
        },
        2,
    )
    text = "\n".join(problems)
    for expected in (
        "no option 'colour'",
        "min_word must be a whole number from 3 to 4, not 5",
        "first must be a seat from 1 to 2, not 0",
        "start_word: '4' is not a DoubleCross tile",
        "racks (seat 2): '?' is not a DoubleCross tile",
        "use 2 Z tiles, but the set has only 1: take 1 out",
        "'P1' is not a cell of the board",
        "A2 = 'bomb-3' is not a special space; there is no seat 3 in a 2-player game",
        "B2 = 'lava' is not a special space; use one of bonus, block, mystery, ns, ew, "
        "nsew, bomb-1, bomb-2",
    ):
        assert expected in text
    assert len(problems) == 9


def test_a_rack_that_overflows_and_counts_over_the_set_are_both_named() -> None:
    _, problems = read_options({"racks": ["JJJJJJJ", ""]}, 2)
    assert problems == [
        "option racks: seat 1's rack has 7 tiles; a rack holds 6",
        "the start word, racks and bag use 7 J tiles, but the set has only 1: take 6 out",
    ]


def test_a_bag_may_be_a_list_of_letters_and_letters_any_case() -> None:
    g = new(start_word="cat", racks=["rts", "em"], bag=["x", "Y"])
    assert g.rack(0) == ["R", "T", "S"] and g.state.bag == ["X", "Y"]


def test_specials_on_a_drawn_start_word_are_refused_with_the_way_out() -> None:
    with pytest.raises(BadSettings, match=r"H8 holds the start word .*give the start word"):
        new(specials={"H8": "bonus"})


def test_a_start_word_shorter_than_the_minimum_word_is_refused_before_the_word_list() -> None:
    _, problems = read_options({"min_word": 4, "start_word": "CAT"}, 2)
    assert problems == [
        "option start_word: CAT has 3 letters, but with min_word = 4 a complete word has at "
        "least 4; give a longer start word"
    ]


def test_the_good_racks_are_still_counted_when_another_has_a_bad_letter() -> None:
    _, problems = read_options({"racks": ["AB?", "ZZ"]}, 2)
    assert problems == [
        "option racks (seat 1): '?' is not a DoubleCross tile; use the letters A to Z "
        "(there are no blanks)",
        "the start word, racks and bag use 2 Z tiles, but the set has only 1: take 1 out",
    ]
