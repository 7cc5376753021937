"""The move generator's search: the rack's numbering, and the search for the best
against the search for every placement, over random positions and racks."""

from __future__ import annotations

import bisect
import gc
import itertools
import random
import string
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.crosslet.board import ALL_TILES_BONUS, BLANK, RACK_SIZE
from games.crosslet.game import Crosslet
from games.crosslet.movegen import MoveGenerator, _Rack
from games.crosslet.player import CrossletPlayer
from tests.games.crosslet.helpers import WordSet

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
        game.apply(player.choose(game))
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
        game.apply(player.choose(game))
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


def _leads_on(words: list[str], prefix: str) -> bool:
    """Whether some word of ``words`` (sorted) starts with ``prefix``."""
    i = bisect.bisect_left(words, prefix)
    return i < len(words) and words[i].startswith(prefix)


def _letters(mask: int) -> str:
    return "".join(ch for i, ch in enumerate(string.ascii_lowercase) if mask >> i & 1)


@settings(max_examples=30, deadline=None)
@given(
    rack=st.lists(TILES, min_size=1, max_size=RACK_SIZE).filter(lambda r: r.count(BLANK) <= 1),
    data=st.data(),
)
def test_a_left_part_is_tried_at_an_anchor_only_where_a_tile_on_it_can_find_a_word(
    enable_generator: MoveGenerator, enable_set: WordSet, rack: list[str], data: st.DataObject
) -> None:
    """The left parts chosen for an anchor are, in order, those after which a tile left
    on the rack can go on the anchor (a letter it allows), lead on through the tiles
    after it, and there end a word or be followed by a tile left on the rack that the
    next empty cell allows; the longest parts only need to lead on through the tiles."""
    gen = enable_generator
    words = [w for w in enable_set.words() if 2 <= len(w) <= 15]
    is_word = set(words).__contains__
    counts: dict[str, int] = {}
    for tile in rack:
        counts[tile] = counts.get(tile, 0) + 1
    held = _Rack.of(counts)
    lefts = gen._left_parts(counts, held)
    # Tiles after the anchor taken from a word, so that some parts lead on through them.
    word = data.draw(st.sampled_from(words))
    cut = data.draw(st.integers(0, len(word) - 1))
    after = word[cut + 1 : cut + 1 + data.draw(st.integers(0, 2))]
    some = st.integers(1, ALL_LETTERS)
    ok = data.draw(st.one_of(st.just(ALL_LETTERS), some)) | 1 << (ord(word[cut]) - ord("a"))
    ok_next = data.draw(st.one_of(st.just(0), st.just(ALL_LETTERS), some))
    room = data.draw(st.integers(0, RACK_SIZE - 1))

    def left_after(laid: str) -> Counter[str]:
        left = Counter(counts)
        left.subtract(BLANK if ch.islower() else ch for ch in laid)
        return left

    def finds_a_word(spelled: str) -> bool:
        left = left_after(spelled)
        for letter in _letters(ok):
            for tile in (letter.upper(), BLANK):
                if left[tile] <= 0:
                    continue
                spelt = spelled.lower() + letter + after
                if len(spelled) == RACK_SIZE - 1:
                    if _leads_on(words, spelt):
                        return True
                    continue
                if is_word(spelt):
                    return True
                rest = left - Counter(tile)
                for then in _letters(ok_next):
                    laid = rest[then.upper()] > 0 or rest[BLANK] > 0
                    if laid and _leads_on(words, spelt + then):
                        return True
        return False

    expected: list[str] = []
    expected_ends: list[int] = []
    for length in range(room + 1):
        expected += [part[1] for part in lefts[length] if finds_a_word(part[1])]
        expected_ends.append(len(expected))
    chosen: list[tuple[int, str, int, int, int, int, int, int]] = []
    ends: list[int] = []
    ahead = tuple(ord(ch) - ord("a") for ch in after)
    gen._starts(lefts, {}, held.reach, room, ok, ahead, ok_next, chosen, ends)
    assert [part[1] for part in chosen] == expected
    assert ends == expected_ends
