"""The DoubleCross computer player: long words, few tiles of others, paying specials, bombs."""

from __future__ import annotations

import random

from games.core import Action
from games.doublecross.game import DoubleCross, EndGame, EndTurn, PlaceTile, PlayBomb
from games.doublecross.player import DoubleCrossPlayer
from tests.games.doublecross.helpers import game, play


def one_turn(g: DoubleCross) -> list[Action]:
    """The actions the computer player takes until its turn ends."""
    seat = g.to_move
    player = DoubleCrossPlayer(random.Random(1))
    actions: list[Action] = []
    while g.to_move == seat and g.outcome is None and len(actions) < 20:
        action = player.choose(g)
        assert g.apply(action).accepted, action
        actions.append(action)
    return actions


def test_it_plays_the_longer_word_when_the_rack_allows() -> None:
    g = game()  # rack R T S under the start word's A: ART, or ARTS
    actions = one_turn(g)
    assert [a for a in actions if isinstance(a, PlaceTile)] == [
        PlaceTile("H9", "R"),
        PlaceTile("H10", "T"),
        PlaceTile("H11", "S"),
    ]
    assert g.scores()[0] == 9 + 8


def test_it_prefers_a_word_of_its_own_to_one_that_pays_an_opponent() -> None:
    g = game(racks=("TEAQ", "R"), first=2, extra=("tea",))
    play(g, "H9 R")  # seat 2's unstable R: ART with a T would pay seat 2 for it
    g.apply(EndTurn())
    first = DoubleCrossPlayer(random.Random(1)).choose(g)
    # EAT or TEA through the start word's T, all its own tiles, before ART.
    assert isinstance(first, PlaceTile) and first.cell in ("I6", "I7", "I9", "I10")


def test_it_takes_a_bonus_space_that_pays() -> None:
    g = game(racks=("R", "EM"), specials={"H9": "bonus"})
    assert DoubleCrossPlayer().choose(g) == PlaceTile("H9", "R")


def test_it_aims_a_bomb_at_an_opponents_unstable_tiles() -> None:
    g = game(racks=("EQ", "R"), specials={"I9": "ns"}, extra=("te",))
    play(g, "I9 E")  # TE, picking up the ns bomb
    g.apply(EndTurn())
    play(g, "H9 R")  # seat 2's unstable R in column H
    g.apply(EndTurn())
    action = DoubleCrossPlayer().choose(g)
    assert isinstance(action, PlayBomb) and action.kind == "ns"
    assert action.cell[0] == "H"  # column H: seat 2's R, not column I with its own E
    assert g.apply(action).removed == ("H9",)


def test_with_nothing_that_pays_it_ends_the_turn() -> None:
    g = game(racks=("Q", "EM"))
    assert DoubleCrossPlayer().choose(g) == EndTurn()


def test_near_the_end_it_lays_a_partial_word_rather_than_keep_the_tile() -> None:
    # A tile left on the rack costs 4 at the end, an unstable one on the board 1.
    ending = game(racks=("R", "EM"))  # the bag is empty
    assert DoubleCrossPlayer().choose(ending) == PlaceTile("H9", "R")  # AR, a partial word
    early = game(racks=("R", "EM"), bag="E" * 10 + "A" * 8 + "I" * 9 + "O" * 8 + "NNNNN")
    assert DoubleCrossPlayer().choose(early) == EndTurn()


def test_after_a_round_of_passes_it_plays_on_instead_of_ending_the_game_for_another() -> None:
    g = game(racks=("ZJ", "QX"))  # nothing to lay, and an empty bag: nothing pays
    g.apply(EndTurn())
    g.apply(EndTurn())
    assert (g.may_end, g.to_move) == (1, 0)
    action = DoubleCrossPlayer(random.Random(1)).choose(g)
    # Only seat 2, the last passer, may end the game: the computer playing seat 1 passes.
    assert action == EndTurn()
    assert g.apply(action).accepted
    assert g.outcome is None and g.may_end == 0


def test_the_last_passer_played_by_the_computer_ends_the_game_out_of_turn() -> None:
    g = game(racks=("ZJ", "QX"))  # nothing to lay, and an empty bag
    player = DoubleCrossPlayer(random.Random(1))
    assert g.out_of_turn_seats() == ()
    assert player.out_of_turn(g, 1) is None
    g.apply(EndTurn())
    g.apply(EndTurn())
    assert g.out_of_turn_seats() == (1,)
    assert player.out_of_turn(g, 0) is None  # seat 1 is to move, not the last passer
    action = player.out_of_turn(g, 1)
    assert action == EndGame(1)
    assert g.apply(action).accepted
    assert g.outcome is not None
    assert g.out_of_turn_seats() == ()
