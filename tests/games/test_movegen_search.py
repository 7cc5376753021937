"""The move generator's search: the rack's numbering, and the search for the best
against the search for every placement, over random positions and racks."""

from __future__ import annotations

import gc
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.crosslet import Crosslet
from games.crosslet_board import ALL_TILES_BONUS, BLANK, RACK_SIZE
from games.movegen import CrossletPlayer, MoveGenerator, _Rack
from tests.games.crosslet_helpers import WordSet, enable_words

ALL_LETTERS = (1 << 26) - 1
TILES = st.sampled_from([*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", BLANK])


def _mask(letters: Counter[str]) -> int:
    return sum(1 << (ord(ch) - ord("A")) for ch, n in letters.items() if n and ch != BLANK)


@settings(max_examples=200, deadline=None)
@given(st.lists(TILES, max_size=9))
def test_every_part_of_a_rack_has_its_own_number_and_what_it_holds(rack: list[str]) -> None:
    counts = Counter(rack)
    numbers = _Rack.of(dict(counts))
    # Every part of the rack, by how many of each tile it keeps.
    tiles = list(counts)
    seen = set()
    for kept in itertools.product(*(range(counts[t] + 1) for t in tiles)):
        left = Counter(dict(zip(tiles, kept, strict=True)))
        number = sum(k * numbers.steps[t] for t, k in left.items())
        assert number not in seen
        seen.add(number)
        assert numbers.letters[number] == _mask(left)
        blank_left = left[BLANK] > 0
        assert numbers.reach[number] == (ALL_LETTERS if blank_left else _mask(left))
        laid = len(rack) - left.total()
        assert numbers.bonus[number] == (ALL_TILES_BONUS if laid == RACK_SIZE else 0)
    assert numbers.full == sum(counts[t] * numbers.steps[t] for t in tiles)
    assert len(numbers.letters) == len(seen) == numbers.full + 1


@pytest.fixture(scope="module")
def enable_generator() -> MoveGenerator:
    words = enable_words()
    if words is None:
        pytest.skip("enable1.txt.gz is not available")
    return MoveGenerator(words)


@pytest.fixture(scope="module")
def enable_set() -> WordSet:
    words = enable_words()
    if words is None:
        pytest.skip("enable1.txt.gz is not available")
    return WordSet(words)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    turns=st.integers(0, 14),
    rack=st.lists(TILES, min_size=1, max_size=RACK_SIZE),
)
def test_the_best_placements_are_the_highest_scoring_of_all_in_the_order_found(
    enable_generator: MoveGenerator, enable_set: WordSet, seed: int, turns: int, rack: list[str]
) -> None:
    gen = enable_generator
    game = Crosslet(2, random.Random(seed), lexicon=enable_set, generator=gen)
    player = CrossletPlayer(gen, random.Random(seed))
    for _ in range(turns):
        if game.outcome is not None:
            break
        game.play(player.choose(game))
    board = game.board_letters()
    every = list(gen.moves(board, rack))
    keys = [(m.tiles, m.blanks) for m in every]
    assert len(keys) == len(set(keys)), "a placement was found twice"
    top = max((m.score for m in every), default=None)
    expected = [(m.tiles, m.blanks, m.score) for m in every if m.score == top]
    assert [(m.tiles, m.blanks, m.score) for m in gen.best_moves(board, rack)] == expected
    best = gen.best(board, rack)
    assert (best.tiles, best.blanks, best.score) == expected[0] if best else not expected


def test_a_search_leaves_nothing_for_the_garbage_collector(
    enable_generator: MoveGenerator, enable_set: WordSet
) -> None:
    gen = enable_generator
    game = Crosslet(2, random.Random(5), lexicon=enable_set, generator=gen)
    player = CrossletPlayer(gen, random.Random(5))
    for _ in range(6):
        game.play(player.choose(game))
    board = game.board_letters()
    gc.collect()
    gc.disable()
    try:
        for rack in (list("AEINRST"), list("QU?ZEAL")):
            assert gen.best(board, rack) is not None
            assert list(gen.moves(board, rack))
            # The search's steps call themselves; once it is over, nothing of it may
            # be left in a cycle that only the collector would free.
            assert gc.collect() == 0
    finally:
        gc.enable()
