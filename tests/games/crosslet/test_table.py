"""Crosslet with the table's own bag (option ``racks = "table"``): counts, the pool, the count."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.core import Pass, Resign
from games.crosslet.board import TILE_COUNTS
from games.crosslet.game import (
    Crosslet,
    Exchange,
    ExchangeCount,
    RevealRack,
    SetRack,
    TableBag,
)
from games.errors import BadSettings
from tests.games.crosslet.helpers import SMALL_WORDS, WordSet, place, rigged_game

CAT = "H8 C, I8 A, J8 T"


def table_game(players: int = 2) -> Crosslet:
    return Crosslet(
        players, random.Random(1), {"racks": "table", "first": 1}, lexicon=WordSet(SMALL_WORDS)
    )


def set_rack(game: Crosslet, seat: int, letters: str) -> None:
    verdict = game.apply(SetRack(seat, tuple(letters)))
    assert verdict.accepted, verdict.reason


# -- set-up and counts -------------------------------------------------------------------
def test_table_racks_start_as_seven_unseen_tiles_each() -> None:
    game = table_game(3)
    assert game.racks_mode == "table"
    assert [game.rack_size(p) for p in range(3)] == [7, 7, 7]
    assert game.bag_count == 100 - 21
    assert game.rack(0) == [] and not game.rack_known(0)
    assert game.unseen_tiles() == Counter(TILE_COUNTS)
    state = game.state_dict()
    assert state["racks_mode"] == "table" and state["rack_sizes"] == [7, 7, 7]


def test_dealt_racks_stay_the_default() -> None:
    game = rigged_game("CATSAND", "CRATEZO")
    assert game.racks_mode == "dealt" and game.rack_known(1) and game.rack_size(1) == 7


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"racks": "mine"}, "'dealt' or 'table'"),
        ({"racks": "table", "bag": "AB"}, "leave one of the two options out"),
    ],
)
def test_bad_rack_options_are_refused(options: dict[str, str], words: str) -> None:
    with pytest.raises(BadSettings, match=words):
        Crosslet(2, random.Random(1), options, lexicon=WordSet(SMALL_WORDS))


# -- placements against the pool ---------------------------------------------------------
def test_a_placement_is_checked_against_the_pool_and_draws_move_only_counts() -> None:
    game = table_game()
    verdict = game.apply(place(CAT))
    assert verdict.accepted and game.scores() == [10, 0]
    assert game.rack_size(0) == 7 and game.bag_count == 100 - 3 - 14
    assert game.unseen_tiles()["C"] == TILE_COUNTS["C"] - 1
    assert game.to_move == 1


def test_a_letter_no_longer_unseen_is_refused_with_where_the_tiles_are() -> None:
    game = table_game()
    assert game.apply(place("H8 Q, H9 I")).accepted
    verdict = game.judge(place("G9 Q"))
    assert verdict.reason == "no Q can be on the rack: 1 in the set, 1 on the board"


def test_blanks_held_on_another_seen_rack_cannot_be_laid() -> None:
    game = table_game()
    set_rack(game, 1, "??ABCDE")
    verdict = game.judge(place("H8 ?, I8 T", "H8 A"))
    assert verdict.reason == (
        "no blank can be on the rack: 2 in the set, 0 on the board, 2 on racks seen"
    )


def test_more_tiles_than_the_rack_holds_are_refused() -> None:
    game = table_game()
    eight = ", ".join(f"{c}8 A" for c in "DEFGHIJK")
    assert game.judge(place(eight)).reason == "the rack holds 7 tiles, not 8"


def test_a_seen_rack_is_judged_like_a_dealt_one() -> None:
    game = table_game()
    set_rack(game, 0, "CATSAND")
    assert game.rack_known(0) and game.rack(0) == list("CATSAND")
    assert game.judge(place("H8 Z, I8 A")).reason == "you have no Z"
    assert game.hint() is not None


def test_after_a_play_only_the_kept_tiles_are_known() -> None:
    game = table_game()
    set_rack(game, 0, "CATSAND")
    game.apply(place(CAT))
    assert game.rack(0) == ["A", "D", "N", "S"] and not game.rack_known(0)
    assert game.hint(0) is None
    refused = game.judge(SetRack(0, tuple("SNDXYZE")))
    assert refused.reason == "player 1's rack was seen holding A D N S; A cannot have left it"
    set_rack(game, 0, "SANDAXE")
    assert game.rack_known(0)


# -- set-rack ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (SetRack(0, tuple("CAT")), "player 1's rack holds 7 tiles, not 3"),
        (SetRack(0, tuple("QQABCDE")), "only 1 Q can be on the rack, not 2: 1 in the set, 0 on"),
        (SetRack(4, tuple("ABCDEFG")), "there is no seat 4 in this game"),
        (SetRack(0, tuple("AB1DEFG")), "'1' is not a tile"),
    ],
)
def test_a_rack_that_cannot_be_is_refused(action: SetRack, reason: str) -> None:
    assert game_reason(table_game(), action).startswith(reason)


def game_reason(game: Crosslet, action: SetRack) -> str:
    verdict = game.judge(action)
    assert not verdict.accepted
    return verdict.reason


def test_set_rack_needs_table_racks() -> None:
    game = rigged_game("CATSAND", "CRATEZO")
    assert "the companion deals" in game.judge(SetRack(0, tuple("CATSAND"))).reason


# -- exchanges ---------------------------------------------------------------------------
def test_exchanges_by_letters_or_count_keep_the_counts_and_are_scoreless() -> None:
    game = table_game()
    assert game.apply(Exchange(("Q", "Z"))).accepted
    assert game.rack_size(0) == 7 and game.bag_count == 86
    assert game.judge(ExchangeCount(8)).reason == "exchange 1 to 7 tiles, not 8"
    assert game.apply(ExchangeCount(3)).accepted
    assert game.unseen_tiles() == Counter(TILE_COUNTS)
    game.apply(Pass())
    game.apply(Pass())
    assert game.counting


def test_an_exchange_by_count_forgets_what_was_seen_of_the_rack() -> None:
    game = table_game()
    set_rack(game, 0, "CATSAND")
    game.apply(ExchangeCount(2))
    assert game.rack(0) == [] and game.rack_size(0) == 7


def test_exchange_by_count_needs_table_racks() -> None:
    game = rigged_game("CATSAND", "CRATEZO")
    assert "name the tiles to exchange" in game.judge(ExchangeCount(2)).reason


# -- the end and the count ---------------------------------------------------------------
def test_scoreless_end_waits_for_the_racks_then_takes_them_off() -> None:
    game = table_game()
    for _ in range(4):
        game.apply(Pass())
    assert game.outcome is None and game.counting
    assert game.waiting_for == [1, 0] and game.to_move == 1
    assert game.judge(Pass()).reason == (
        "the game is over: the count waits for the racks of player 2, player 1"
    )
    assert game.apply(RevealRack(1, tuple("CRATEZO"))).accepted
    assert game.outcome is None and game.to_move == 0
    verdict = game.apply(RevealRack(0, tuple("CATSAND")))
    assert game.outcome is not None and "two scoreless turns" in game.outcome.reason
    # CATSAND is 10, CRATEZO 18.
    assert game.scores() == [-10, -18] and verdict.points(2) == [-10, -18]
    assert game.outcome.winners == (0,)


def test_going_out_waits_for_the_other_rack_which_goes_to_the_player_out() -> None:
    game = table_game()
    set_rack(game, 0, "CATSAND")
    game._pool = Counter("CATSANDCRATEZO")  # as if the bag had run dry earlier
    assert game.bag_count == 0
    verdict = game.apply(place("G8 C, H8 A, I8 T, J8 S, J9 A, J10 N, J11 D"))
    assert verdict.accepted and verdict.points(2) == [34, 0]
    assert game.outcome is None and game.waiting_for == [1] and game.went_out == 0
    refused = game.judge(RevealRack(1, tuple("CRATEZQ")))
    assert refused.reason == "no Q can be on the rack: 1 in the set, 1 on the board"
    assert game.judge(RevealRack(0, ())).reason == "the count does not wait for player 1's rack"
    verdict = game.apply(RevealRack(1, tuple("CRATEZO")))
    assert game.outcome is not None and "rack is played out" in game.outcome.reason
    assert game.scores() == [34 + 18, -18] and verdict.points(2) == [18, -18]


def test_racks_known_at_the_end_are_counted_at_once() -> None:
    game = table_game()
    set_rack(game, 0, "CATSAND")
    set_rack(game, 1, "CRATEZO")
    for _ in range(4):
        game.apply(Pass())
    assert not game.counting and game.outcome is not None
    assert game.scores() == [-10, -18]


def test_reveal_is_only_for_the_count() -> None:
    game = table_game()
    assert game.judge(RevealRack(0, tuple("CATSAND"))).reason == (
        "racks are revealed only when the game has ended"
    )


def test_resign_during_the_count_ends_the_game() -> None:
    game = table_game()
    for _ in range(4):
        game.apply(Pass())
    assert game.apply(Resign(1)).accepted
    assert game.outcome is not None and game.outcome.winners == (0,) and not game.counting


# -- switching and the journal -------------------------------------------------------------
def test_table_bag_switches_a_dealt_game_before_the_first_move_only() -> None:
    game = rigged_game("CATSAND", "CRATEZO")
    assert game.apply(TableBag()).accepted
    assert game.racks_mode == "table" and game.rack(0) == [] and game.bag_count == 86
    assert game.judge(TableBag()).reason == "this game is already played from the table's bag"
    other = rigged_game("CATSAND", "CRATEZO")
    other.apply(Pass())
    assert other.judge(TableBag()).reason == "the bag can change only before the first move"


def test_table_actions_replay_from_their_journal_form() -> None:
    game = table_game()
    actions = [
        SetRack(0, tuple("CATSAND")),
        place(CAT),
        ExchangeCount(2),
        Pass(),
        Pass(),
        Pass(),
        RevealRack(0, tuple("ADNSEEE")),
    ]
    for action in actions:
        assert game.apply(action).accepted, action
    replay = table_game()
    for action in game.history:
        decoded = replay.decode(action.to_dict())
        assert decoded == action
        assert replay.apply(decoded).accepted
    assert replay.state_dict() == game.state_dict() and replay.counting
    assert replay.decode({"type": "table-bag"}) == TableBag()


# -- the computer player ---------------------------------------------------------------------
def test_the_computer_first_draws_its_rack_from_the_unseen_tiles_then_plays_it() -> None:
    from games.crosslet.player import CrossletPlayer

    game = table_game()
    player = CrossletPlayer(game.generator, random.Random(4))
    seen = player.choose(game)
    assert isinstance(seen, SetRack) and seen.player == 0 and len(seen.letters) == 7
    assert game.apply(seen).accepted
    assert not isinstance(player.choose(game), SetRack)


def test_the_computer_cannot_reveal_a_rack_never_seen() -> None:
    from games.crosslet.player import CrossletPlayer

    game = table_game()
    for _ in range(4):
        game.apply(Pass())
    with pytest.raises(ValueError, match="never seen"):
        CrossletPlayer(game.generator).choose(game)
