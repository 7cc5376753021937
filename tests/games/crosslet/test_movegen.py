"""The move generator: the word graph, completeness against brute force, agreement with
the rules' scoring, and the computer player."""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from games.core import Pass
from games.crosslet.game import Crosslet, Exchange
from games.crosslet.movegen import Dawg, Move, MoveGenerator
from games.crosslet.player import CrossletPlayer
from games.errors import BadGeneratorData
from tests.games.crosslet.helpers import (
    SMALL_WORDS,
    WordSet,
    place,
    rigged_game,
    single_line_placements,
)


@pytest.fixture(scope="module")
def small() -> MoveGenerator:
    return MoveGenerator(SMALL_WORDS)


@pytest.fixture(scope="module")
def enable(enable_generator: MoveGenerator, enable_set: WordSet) -> tuple[MoveGenerator, WordSet]:
    return enable_generator, enable_set


def test_word_graph_holds_exactly_the_words() -> None:
    words = ["cat", "cats", "at", "bat", "bats", "tab", "a", "x-ray", "toolongforthebrd"]
    dawg = Dawg.build(words)
    assert {"CAT", "CATS", "AT", "BAT", "BATS", "TAB"} == {
        w for w in ("CAT", "CATS", "AT", "BAT", "BATS", "TAB", "CA", "BA", "TABS") if w in dawg
    }
    assert "A" not in dawg and "X-RAY" not in dawg and "TOOLONGFORTHEBRD" not in dawg
    # CATS and BATS end in the same shared node.
    assert len(dawg) < len(Dawg.flatten(*_trie(["CAT", "CATS", "AT", "BAT", "BATS", "TAB"])))
    assert dawg.child(0, "C") is not None and dawg.child(0, "X") is None
    assert dawg.child(0, "?") is None


def _trie(words: list[str]) -> tuple[list[dict[str, int]], list[bool]]:
    edges: list[dict[str, int]] = [{}]
    final = [False]
    for w in words:
        node = 0
        for ch in w:
            if ch not in edges[node]:
                edges[node][ch] = len(edges)
                edges.append({})
                final.append(False)
            node = edges[node][ch]
        final[node] = True
    return edges, final


def test_generator_round_trips_through_bytes(small: MoveGenerator) -> None:
    blob = small.to_bytes()
    loaded = MoveGenerator.from_bytes(blob)
    assert loaded.dawg.masks == small.dawg.masks
    assert loaded.dawg.targets == small.dawg.targets
    assert loaded.dawg.final == small.dawg.final
    assert loaded.dawg.first == small.dawg.first
    assert list(loaded.moves({}, list("CATS"))) == list(small.moves({}, list("CATS")))


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda b: b"not a graph", "not a saved Crosslet word graph"),
        (lambda b: b[:-4], "cut short"),
        (lambda b: b + b"\0", "too long"),
        (lambda b: b[:-1] + bytes([b[-1] ^ 1]), "checksum"),
        (lambda b: b"CXDAWG1\n" + b[8:], "not a saved Crosslet word graph"),
    ],
)
def test_damaged_generator_bytes_are_refused(
    small: MoveGenerator, damage: Callable[[bytes], bytes], reason: str
) -> None:
    with pytest.raises(BadGeneratorData, match=reason):
        MoveGenerator.from_bytes(damage(small.to_bytes()))


def test_every_single_line_placement_is_found_once(small: MoveGenerator) -> None:
    game = rigged_game("CATSAND", "TAXIONE")
    game.apply(place("H8 C, I8 A, J8 T, J9 A"))
    rack = game.rack(game.to_move)[:4]
    game._racks[game.to_move] = rack  # a short rack keeps the brute force small
    moves = list(small.moves(game.board_letters(), rack))
    keys = [frozenset(m.tiles) for m in moves]
    assert len(keys) == len(set(keys))
    assert set(keys) == single_line_placements(game, "".join(rack))


def test_first_move_covers_the_centre(small: MoveGenerator) -> None:
    game = rigged_game("CATS")
    game._racks[0] = list("CATS")
    moves = list(small.moves({}, game.rack(0)))
    assert moves and all("H8" in dict(m.tiles) for m in moves)
    keys = [frozenset(m.tiles) for m in moves]
    assert len(keys) == len(set(keys))
    assert set(keys) == single_line_placements(game, "CATS")


def test_blank_moves_name_their_letter_and_score_zero_for_it(small: MoveGenerator) -> None:
    moves = list(small.moves({}, ["?", "A", "T"]))
    blanked = [m for m in moves if m.blanks]
    assert blanked
    game = rigged_game("?AT")
    for m in moves:
        assert game.judge(m.action()).accepted
        assert sum(p for _, p in game.score_placement(m.action())) == m.score
    assert any(m.word == "CAT" and dict(m.blanks) == {"G8": "C"} for m in blanked)


def _check_all_moves(gen: MoveGenerator, game: Crosslet) -> int:
    seat = game.to_move
    count = 0
    for m in gen.moves(game.board_letters(), game.rack(seat)):
        action = m.action()
        verdict = game.judge(action)
        assert verdict.accepted, (m, verdict.reason)
        assert sum(p for _, p in game.score_placement(action)) == m.score, m
        count += 1
    return count


def test_generated_moves_are_legal_and_scored_like_the_rules(
    enable: tuple[MoveGenerator, WordSet],
) -> None:
    gen, words = enable
    game = Crosslet(2, random.Random(7), lexicon=words)
    player = CrossletPlayer(gen, random.Random(7))
    checked = 0
    for turn in range(12):
        if game.outcome is not None:
            break
        if turn % 4 == 3:
            checked += _check_all_moves(gen, game)
        game.apply(player.choose(game))
    assert checked > 100


def test_best_is_the_highest_score(enable: tuple[MoveGenerator, WordSet]) -> None:
    gen, words = enable
    game = Crosslet(2, random.Random(3), lexicon=words)
    for _ in range(6):
        game.apply(CrossletPlayer(gen, random.Random(3)).choose(game))
    seat = game.to_move
    best = gen.best(game.board_letters(), game.rack(seat))
    assert best is not None
    top = max(m.score for m in gen.moves(game.board_letters(), game.rack(seat)))
    assert best.score == top
    assert sum(p for _, p in game.score_placement(best.action())) == top
    three = gen.top(game.board_letters(), game.rack(seat), 3)
    assert len(three) == 3 and three[0].score == top >= three[1].score >= three[2].score


def test_player_exchanges_when_nothing_fits(small: MoveGenerator) -> None:
    game = rigged_game("VVWWKJQ", words=["cat"])
    action = CrossletPlayer(small).choose(game)
    assert action == Exchange(tuple("VVWWKJQ"))
    game._bag.clear()
    assert CrossletPlayer(small).choose(game) == Pass()


def test_a_computer_game_with_enable_finishes(enable: tuple[MoveGenerator, WordSet]) -> None:
    gen, words = enable
    game = Crosslet(3, random.Random(11), lexicon=words)
    players = [CrossletPlayer(gen, random.Random(s)) for s in range(3)]
    totals = [0, 0, 0]
    turns = 0
    while game.outcome is None:
        verdict = game.apply(players[game.to_move].choose(game))
        assert verdict.accepted, verdict.reason
        totals = [a + b for a, b in zip(totals, verdict.points(3), strict=True)]
        turns += 1
        assert turns < 200
    assert totals == game.scores()
    assert game.bag_count == 0 or "scoreless" in game.outcome.reason


RECORDED = Path(__file__).with_name("movegen_recorded.json")
"""Positions from computer games with ENABLE (some racks given one or two blanks), with
the number of moves the generator found and a digest of them in the order found, as
the dictionary-of-dicts generator found them before it ran from flat arrays."""


def test_generator_finds_the_recorded_moves_in_the_recorded_order(
    enable: tuple[MoveGenerator, WordSet],
) -> None:
    gen, _ = enable
    positions = json.loads(RECORDED.read_text())
    assert len(positions) >= 100
    assert sum("?" in p["rack"] for p in positions) >= 10
    for position in positions:
        board = {item[:-1]: item[-1] for item in position["board"].split()}
        digest = hashlib.sha256()
        count = 0
        for m in gen.moves(board, list(position["rack"])):
            digest.update(repr((m.tiles, m.blanks, m.score, m.word)).encode() + b"\n")
            count += 1
        assert (count, digest.hexdigest()) == (position["moves"], position["sha256"]), position


BENCH_POSITIONS = Path(__file__).with_name("movegen_bench_positions.json")
"""The 240 mid-game positions that ``bench/bench_movegen.py`` times, with the number of
moves found, a digest of them in the order found, and every placement of the best
score in the order found, as the generator found them before its search was made
faster (25 November 2026)."""


def _placement(m: Move) -> str:
    tiles = " ".join(f"{cell}{tile}" for cell, tile in m.tiles)
    blanks = " ".join(f"{cell}{letter}" for cell, letter in m.blanks)
    return f"{tiles} / {blanks}" if blanks else tiles


def test_generator_finds_the_same_moves_and_best_moves_on_the_bench_positions(
    enable: tuple[MoveGenerator, WordSet],
) -> None:
    gen, _ = enable
    positions = json.loads(BENCH_POSITIONS.read_text())
    assert len(positions) == 240
    assert sum("?" in p["rack"] for p in positions) >= 20
    for position in positions:
        board = {item[:-1]: item[-1] for item in position["board"].split()}
        rack = list(position["rack"])
        digest = hashlib.sha256()
        count = 0
        for m in gen.moves(board, rack):
            digest.update(repr((m.tiles, m.blanks, m.score, m.word)).encode() + b"\n")
            count += 1
        assert (count, digest.hexdigest()) == (position["moves"], position["sha256"]), position
        best = gen.best_moves(board, rack)
        assert [_placement(m) for m in best] == position["best"], position
        assert {m.score for m in best} == ({position["best_score"]} if best else set())
        top = gen.best(board, rack)
        assert (top.score if top else None) == position["best_score"]


@pytest.mark.parametrize(
    ("board", "rack", "message"),
    [
        ({"H8": "?"}, "CAT", "'?' on H8 is not a tile"),
        ({"H8": "AT"}, "CAT", "'AT' on H8 is not a tile"),
        ({"H8": "."}, "CAT", "'.' on H8 is not a tile"),
        ({}, "CA1", "'1' is not a tile; racks hold A to Z and ? for a blank"),
    ],
)
def test_a_board_or_rack_that_is_not_tiles_is_refused_by_name(
    small: MoveGenerator, board: dict[str, str], rack: str, message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        small.best(board, list(rack))
