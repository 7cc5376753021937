"""Crosslet plays a placement that ``judge`` accepted without working it out again,
and only that placement in that position."""

from __future__ import annotations

import pytest

from games.core import Pass, Piece
from games.crosslet.game import Crosslet, PlaceTiles
from games.errors import IllegalMove
from tests.games.crosslet.helpers import place, rigged_game

# Seat 0 holds CATSAND, seat 1 holds CRATEZO, seat 0 then draws EXITONA.
OPENING = ("CATSAND", "CRATEZO", "EXITONA")


def fresh_play(action: PlaceTiles) -> tuple[list[tuple[int, int, str]], dict[str, str]]:
    """The score events and board of ``action`` played on a new opening game."""
    game = rigged_game(*OPENING)
    verdict = game.apply(action)
    assert verdict.accepted
    return [(e.player, e.points, e.reason) for e in verdict.events], game.board_letters()


def played(game: Crosslet, action: PlaceTiles) -> tuple[list[tuple[int, int, str]], dict[str, str]]:
    verdict = game.apply(action)
    return [(e.player, e.points, e.reason) for e in verdict.events], game.board_letters()


def test_the_placement_applied_is_the_one_given_not_the_one_examined_last() -> None:
    cat, sand = place("H8 C, I8 A, J8 T"), place("H8 S, H9 A, H10 N, H11 D")
    game = rigged_game(*OPENING)
    assert game.judge(cat).accepted
    assert game.judge(sand).accepted
    assert played(game, cat) == fresh_play(cat)


def test_a_judged_placement_is_worked_out_again_once_the_position_moved_on() -> None:
    game = rigged_game(*OPENING)
    game.apply(place("H8 C, I8 A, J8 T"))
    ta = place("J9 A")
    assert game.judge(ta).accepted  # seat 1 would make TA down
    game.apply(Pass())
    assert game.apply(place("I9 S")).accepted  # seat 0 makes AS down, beside J9
    # Now the A makes SA across as well: judged in the position it is played in.
    with pytest.raises(IllegalMove, match="SA is not a word"):
        game.apply(ta)


def test_a_blank_applied_after_examination_stands_for_its_letter() -> None:
    game = rigged_game("CATS?ND", "CRATEZO", "EXITONA")
    action = place("H8 C, I8 ?, J8 T", blanks="I8 A")
    assert game.judge(action).accepted
    events, board = played(game, action)
    assert board == {"H8": "C", "I8": "a", "J8": "T"}
    assert events == [(0, 8, "CAT")]  # C 3 + blank 0 + T 1, doubled on the centre
    assert game.layout()["I8"] == Piece("tile", "?", 0, "blank:A")


def test_the_layout_follows_every_placement_and_is_a_copy() -> None:
    game = rigged_game(*OPENING)
    game.apply(place("H8 C, I8 A, J8 T"))
    game.apply(place("J9 A"))  # seat 1 makes TA down
    layout = game.layout()
    assert list(layout) == ["H8", "I8", "J8", "J9"]
    assert layout["J9"] == Piece("tile", "A", 1)
    layout.clear()
    assert len(game.layout()) == 4


def test_the_last_placement_keeps_its_words_until_the_next_action() -> None:
    game = rigged_game(*OPENING)
    cat = place("H8 C, I8 A, J8 T")
    assert game.last_words(cat) is None
    game.apply(cat)
    words = game.last_words(cat)
    assert words is not None
    assert [(w.word, w.cells, w.points) for w in words] == [("CAT", ("H8", "I8", "J8"), 10)]
    assert game.last_words(place("H8 C, I8 A")) is None  # not the placement played
    game.apply(Pass())
    assert game.last_words(cat) is None
