"""The move generator: the word graph, completeness against brute force, agreement with
the rules' scoring, and the computer player."""

from __future__ import annotations

import itertools
import random

import pytest

from games.core import Pass
from games.crosslet import Crosslet, Exchange, PlaceTiles
from games.crosslet_board import SIZE, cell_name
from games.movegen import BadGeneratorData, CrossletPlayer, Dawg, MoveGenerator
from tests.games.crosslet_helpers import (
    SMALL_WORDS,
    WordSet,
    enable_words,
    place,
    rigged_game,
)


@pytest.fixture(scope="module")
def small() -> MoveGenerator:
    return MoveGenerator(SMALL_WORDS)


@pytest.fixture(scope="module")
def enable() -> tuple[MoveGenerator, WordSet]:
    words = enable_words()
    if words is None:
        pytest.skip("enable1.txt.gz is not available")
    return MoveGenerator(words), WordSet(words)


def test_word_graph_holds_exactly_the_words() -> None:
    words = ["cat", "cats", "at", "bat", "bats", "tab", "a", "x-ray", "toolongforthebrd"]
    dawg = Dawg.build(words)
    assert {"CAT", "CATS", "AT", "BAT", "BATS", "TAB"} == {
        w for w in ("CAT", "CATS", "AT", "BAT", "BATS", "TAB", "CA", "BA", "TABS") if w in dawg
    }
    assert "A" not in dawg and "X-RAY" not in dawg and "TOOLONGFORTHEBRD" not in dawg
    # CATS and BATS end in the same shared node.
    assert len(dawg) < len(Dawg._compact(*_trie(["CAT", "CATS", "AT", "BAT", "BATS", "TAB"])))


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
    loaded = MoveGenerator.from_bytes(small.to_bytes())
    assert loaded.dawg.edges == small.dawg.edges and loaded.dawg.final == small.dawg.final
    with pytest.raises(BadGeneratorData):
        MoveGenerator.from_bytes(b"not a graph")
    with pytest.raises(BadGeneratorData):
        MoveGenerator.from_bytes(small.to_bytes()[:-4])


def _single_line_placements(game: Crosslet, rack: str) -> set[frozenset[tuple[str, str]]]:
    """Brute force: every run of rack tiles laid along a line that the rules accept."""
    board = game.board_letters()
    found: set[frozenset[tuple[str, str]]] = set()
    sequences = {seq for n in range(1, len(rack) + 1) for seq in itertools.permutations(rack, n)}
    for down, line, start in itertools.product((False, True), range(SIZE), range(SIZE)):
        for seq in sequences:
            tiles: list[tuple[str, str]] = []
            pos = start
            for letter in seq:
                while pos < SIZE and _cell(down, line, pos) in board:
                    pos += 1
                if pos == SIZE:
                    break
                tiles.append((_cell(down, line, pos), letter))
                pos += 1
            if len(tiles) == len(seq) and game.check(PlaceTiles(tuple(tiles))).accepted:
                found.add(frozenset(tiles))
    return found


def _cell(down: bool, line: int, pos: int) -> str:
    return cell_name(line, pos) if down else cell_name(pos, line)


def test_every_single_line_placement_is_found_once(small: MoveGenerator) -> None:
    game = rigged_game("CATSAND", "TAXIONE")
    game.play(place("H8 C, I8 A, J8 T, J9 A"))
    rack = game.rack(game.to_move)[:4]
    game._racks[game.to_move] = rack  # a short rack keeps the brute force small
    moves = list(small.moves(game.board_letters(), rack))
    keys = [frozenset(m.tiles) for m in moves]
    assert len(keys) == len(set(keys))
    assert set(keys) == _single_line_placements(game, "".join(rack))


def test_first_move_covers_the_centre(small: MoveGenerator) -> None:
    game = rigged_game("CATS")
    game._racks[0] = list("CATS")
    moves = list(small.moves({}, game.rack(0)))
    assert moves and all("H8" in dict(m.tiles) for m in moves)
    keys = [frozenset(m.tiles) for m in moves]
    assert len(keys) == len(set(keys))
    assert set(keys) == _single_line_placements(game, "CATS")


def test_blank_moves_name_their_letter_and_score_zero_for_it(small: MoveGenerator) -> None:
    moves = list(small.moves({}, ["?", "A", "T"]))
    blanked = [m for m in moves if m.blanks]
    assert blanked
    game = rigged_game("?AT")
    for m in moves:
        assert game.check(m.action()).accepted
        assert sum(p for _, p in game.score_placement(m.action())) == m.score
    assert any(m.word == "CAT" and dict(m.blanks) == {"G8": "C"} for m in blanked)


def _check_all_moves(gen: MoveGenerator, game: Crosslet) -> int:
    seat = game.to_move
    count = 0
    for m in gen.moves(game.board_letters(), game.rack(seat)):
        action = m.action()
        verdict = game.check(action)
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
        game.play(player.choose(game))
    assert checked > 100


def test_best_is_the_highest_score(enable: tuple[MoveGenerator, WordSet]) -> None:
    gen, words = enable
    game = Crosslet(2, random.Random(3), lexicon=words)
    for _ in range(6):
        game.play(CrossletPlayer(gen, random.Random(3)).choose(game))
    seat = game.to_move
    best = gen.best(game, seat)
    assert best is not None
    top = max(m.score for m in gen.moves(game.board_letters(), game.rack(seat)))
    assert sum(p for _, p in game.score_placement(best)) == top


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
        verdict = game.play(players[game.to_move].choose(game))
        assert verdict.accepted, verdict.reason
        totals = [a + b for a, b in zip(totals, verdict.points(3), strict=True)]
        turns += 1
        assert turns < 200
    assert totals == game.scores()
    assert game.bag_count == 0 or "scoreless" in game.outcome.reason
