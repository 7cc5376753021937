"""DoubleCross turns: new letters, passes, both ends and their penalties, undo, options."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.core import Pass, Resign
from games.doublecross.game import (
    DoubleCross,
    EndGame,
    EndTurn,
    MalformedAction,
    NewLetters,
    PlaceTile,
    PlayBomb,
    Undo,
)
from games.errors import BadSettings
from tests.games.doublecross.helpers import game, play, recount, small_lexicon


def test_new_letters_return_the_rack_to_the_bags_end_and_draw_six_from_its_front() -> None:
    g = game(bag="ABCDEFGH")
    verdict = g.apply(NewLetters())
    assert verdict.accepted
    assert g.rack(0) == list("ABCDEF")
    assert g.state.bag == list("GHRTS")
    assert g.to_move == 1


def test_new_letters_need_letters_in_the_bag() -> None:
    assert "the bag is empty" in game().judge(NewLetters()).reason


def test_a_turn_refills_the_rack_from_the_front_of_the_bag() -> None:
    g = game(bag="EEOO")
    play(g, "H9 R")
    g.apply(EndTurn())
    assert g.rack(0) == ["T", "S", "E", "E", "O", "O"]


def test_a_full_round_of_passes_lets_the_last_passer_end_the_game() -> None:
    g = game()
    assert "after a full round of passes" in g.judge(EndGame(0)).reason
    g.apply(EndTurn())  # seat 1 passes
    g.apply(Pass())  # seat 2 passes: the last of a round
    assert g.may_end == 1
    verdict = g.apply(EndGame(1))
    assert verdict.accepted
    assert g.outcome is not None and g.outcome.reason == "the last passer ended the game"
    # Racks left: 3 tiles (-12) and 2 tiles (-8).
    assert g.scores() == [-12, -8]
    assert g.outcome.winners == (1,)


def test_playing_on_after_the_round_of_passes_takes_the_chance_to_end_away() -> None:
    g = game()
    g.apply(EndTurn())
    g.apply(EndTurn())
    play(g, "H9 R")
    assert g.may_end is None
    assert "after a full round of passes" in g.judge(EndGame(0)).reason
    assert "after a full round of passes" in g.judge(EndGame(1)).reason


def test_only_the_last_passer_may_end_the_game() -> None:
    g = game()
    g.apply(EndTurn())
    g.apply(EndTurn())
    assert (g.may_end, g.to_move) == (1, 0)
    # The seat to move is not the last passer: it may play on, not end the game.
    reason = g.judge(EndGame(0)).reason
    assert reason == (
        "only player 2 may end the game (player 2 made the last of 2 passes in a row), "
        "not player 1: play on, or let player 2 end it"
    )
    assert g.outcome is None and g.may_end == 1 and len(g.history) == 2


@pytest.mark.parametrize("seat", [2, -1, True])
def test_ending_the_game_for_a_seat_that_does_not_exist_is_refused(seat: Any) -> None:
    g = game()
    g.apply(EndTurn())
    g.apply(EndTurn())
    reason = g.judge(EndGame(seat)).reason
    assert reason == (
        f"there is no seat {seat!r} in this game: seats are numbered from 0 (player 1) "
        "to 1 (player 2)"
    )
    assert g.outcome is None
    # Also where nobody may end the game, the seat is named first.
    assert "there is no seat" in game().judge(EndGame(seat)).reason


def test_in_three_seats_the_last_passer_is_the_third_and_the_others_are_refused() -> None:
    g = game(players=3, racks=("RTS", "EM", "AB"))
    for _ in range(3):
        g.apply(EndTurn())
    assert (g.may_end, g.to_move) == (2, 0)
    for seat in (0, 1):
        assert "only player 3 may end the game" in g.judge(EndGame(seat)).reason
    assert g.apply(EndGame(2)).accepted
    assert g.outcome is not None


def test_the_legal_end_of_the_game_is_the_last_passers() -> None:
    g = game()
    assert not any(isinstance(a, EndGame) for a in g.legal_actions())
    g.apply(EndTurn())
    g.apply(EndTurn())
    ends = [a for a in g.legal_actions() if isinstance(a, EndGame)]
    assert ends == [EndGame(1)]
    assert g.judge(ends[0]).accepted


def test_an_end_game_entry_journaled_without_a_seat_is_the_last_passers() -> None:
    old = {"type": "end-game"}
    g = game()
    # Where nobody may end the game it names nobody, and is refused as before.
    assert g.decode(old) == EndGame(None)
    assert "after a full round of passes" in g.judge(g.decode(old)).reason
    g.apply(EndTurn())
    g.apply(EndTurn())
    action = g.decode(old)
    assert action == EndGame(1)
    ended = game()
    ended.apply(EndTurn())
    ended.apply(EndTurn())
    assert ended.apply(EndGame(1)).accepted
    assert g.apply(action).accepted
    assert g.state_dict() == ended.state_dict()
    assert g.history == ended.history


def test_an_end_game_entry_with_a_seat_that_is_no_number_is_malformed() -> None:
    for seat in ("1", 1.0, False):
        with pytest.raises(MalformedAction, match="end-game needs the seat number"):
            game().decode({"type": "end-game", "player": seat})


def test_a_turn_with_a_tile_is_no_pass() -> None:
    g = game()
    play(g, "H9 R")
    g.apply(EndTurn())
    g.apply(EndTurn())
    assert g.may_end is None
    assert "end the turn instead" in game_after_tile().judge(Pass()).reason


def game_after_tile() -> DoubleCross:
    g = game()
    play(g, "H9 R")
    return g


def test_the_game_ends_when_the_bag_is_empty_and_the_player_to_move_has_no_tiles() -> None:
    g = game(racks=("R", "EM"))
    play(g, "H9 R")  # AR: unstable
    g.apply(EndTurn())
    g.apply(EndTurn())
    assert g.outcome is not None
    assert g.outcome.reason == "the bag is empty and player 1 has no tiles"
    # Seat 1: one unstable tile on the board (-1); seat 2: two tiles on the rack (-8).
    assert g.scores() == [-1, -8]
    assert g.outcome.winners == (0,)
    assert g.scores() == recount(g.record, 2)
    assert not g.judge(EndTurn()).accepted


def test_undo_takes_the_last_tile_back_while_the_turn_did_nothing_else() -> None:
    g = game(extra=("rs",))
    play(g, "H9 R")
    verdict = g.apply(Undo())
    assert verdict.accepted and verdict.removed == ("H9",)
    assert "H9" not in g.layout()
    assert sorted(g.rack(0)) == ["R", "S", "T"]
    assert "no tile of this turn" in g.judge(Undo()).reason


def test_no_undo_once_the_turn_completed_a_word() -> None:
    g = game()
    play(g, "H9 R", "H10 T")
    assert "completed nothing" in g.judge(Undo()).reason


def test_no_undo_after_a_special_space() -> None:
    g = game(specials={"H9": "bonus"})
    play(g, "H9 R")
    assert not g.judge(Undo()).accepted


def test_a_tile_not_on_the_rack_or_on_an_occupied_cell_is_rejected_with_the_reason() -> None:
    g = game()
    assert g.judge(PlaceTile("H9", "Z")).reason == "player 1 has no Z (the rack holds R T S)"
    assert g.judge(PlaceTile("H8", "R")).reason == "H8 is occupied"
    assert "not a cell" in g.judge(PlaceTile("P9", "R")).reason
    assert "not a letter" in g.judge(PlaceTile("H9", "1")).reason
    assert "no ns bomb" in g.judge(PlayBomb("ns", "H9")).reason
    assert "not a directional bomb" in g.judge(PlayBomb("up", "H9")).reason


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"min_word": 5}, "min_word must be a whole number from 3 to 4"),
        ({"first": 3}, "first must be a seat from 1 to 2"),
        ({"start_word": "QZX"}, "QZX is not a complete word"),
        ({"start_word": "STARTS"}, "3 to 5 letters"),
        ({"racks": ["ABC"]}, "a list of 2 strings"),
        ({"racks": ["ABCDEFG", ""]}, "has 7 tiles; a rack holds 6"),
        ({"bag": "ZZ"}, "use 2 Z tiles, but the set has only 1"),
        ({"bag": "A?"}, "'?' is not a DoubleCross tile"),
        ({"specials": {"P1": "bonus"}}, "'P1' is not a cell"),
        ({"specials": {"A2": "bomb-3"}}, "is not a special space"),
        ({"specials": {"H8": "bonus"}, "start_word": "CAT"}, "H8 holds the start word"),
        ({"colour": "red"}, "DoubleCross has no option 'colour'"),
    ],
)
def test_bad_options_say_what_is_wrong(options: dict[str, Any], message: str) -> None:
    with pytest.raises(BadSettings, match=message.replace("?", r"\?")):
        DoubleCross(2, random.Random(1), options, lexicon=small_lexicon())


def test_the_start_word_lies_across_row_8_with_its_middle_on_h8() -> None:
    lexicon = small_lexicon(("roads",))
    for word, first in (("CAT", "G8"), ("ROAD", "G8"), ("ROADS", "F8")):
        g = DoubleCross(2, random.Random(1), {"start_word": word}, lexicon=lexicon)
        layout = g.layout()
        assert sorted(layout, key=lambda c: "ABCDEFGHIJKLMNO".index(c[0]))[0] == first
        assert "".join(p.label for _, p in sorted(layout.items())) == word
        assert all(p.owner is None and p.state == "stable" for p in layout.values())


def test_a_drawn_start_word_comes_out_of_the_98_tiles() -> None:
    g = DoubleCross(3, random.Random(5), lexicon=small_lexicon())
    on_board = len(g.layout())
    assert 3 <= on_board <= 5
    assert on_board + sum(len(g.rack(p)) for p in range(3)) + g.bag_count == 98
    assert sum(k.startswith("bomb-") for k in g.specials().values()) == 4
    assert list(g.specials().values()).count("block") == 8


def test_the_json_picture_gives_each_cell_its_letter_owner_and_stability() -> None:
    g = game()
    play(g, "H9 R")
    state = json.loads(json.dumps(g.state_dict()))
    assert state["layout"]["H8"] == {"kind": "tile", "label": "A", "owner": None, "stable": True}
    assert state["layout"]["H9"] == {"kind": "tile", "label": "R", "owner": 0, "stable": False}
    assert state["scores"] == [0, 0]
    assert state["happened"][0]["kind"] == "placed"


@pytest.mark.parametrize(
    "action",
    [
        PlaceTile("H9", "R"),
        PlayBomb("ns", "H9"),
        EndTurn(),
        NewLetters(),
        EndGame(1),
        Undo(),
        Pass(),
        Resign(1),
    ],
)
def test_every_action_reads_back_from_its_journal_form(action: Any) -> None:
    assert game().decode(json.loads(json.dumps(action.to_dict()))) == action


def test_a_malformed_journal_entry_says_what_was_expected() -> None:
    with pytest.raises(MalformedAction, match="expected place, bomb"):
        game().decode({"type": "jump"})
    with pytest.raises(MalformedAction, match="place needs a cell and a letter"):
        game().decode({"type": "place", "cell": 3})


def bombed_turn(bag: str = "") -> DoubleCross:
    """Seat 2 lays B under the start word's A; seat 1 lays E on seat 2's coloured bomb
    below it, which destroys B, and E with it: seat 1's turn placed a tile all the same."""
    g = game(racks=("EEEEEE", "BLLLRR"), specials={"H10": "bomb-2"}, first=2, bag=bag,
             extra=("abed",))  # fmt: skip
    play(g, "H9 B")
    g.apply(EndTurn())
    verdict = play(g, "H10 E")[0]
    assert set(verdict.removed) == {"H9", "H10"}
    assert g.scores() == [4, -4]
    return g


def test_a_turn_whose_tile_was_destroyed_is_no_pass() -> None:
    g = bombed_turn()
    assert "end the turn instead" in g.judge(Pass()).reason
    g.apply(EndTurn())  # seat 1 placed a tile: no pass
    g.apply(EndTurn())  # seat 2 passes: the first of a round, not the last
    assert g.may_end is None
    assert "after a full round of passes" in g.judge(EndGame(1)).reason
    assert g.scores() == recount(g.record, 2)


def test_no_new_letters_once_the_turns_tile_was_destroyed() -> None:
    g = bombed_turn(bag="OOOOOOOO")
    reason = g.judge(NewLetters()).reason
    assert "new letters only before placing a tile this turn" in reason
    assert g.rack(0) == list("EEEEE")


def test_a_tile_taken_back_leaves_the_turn_a_pass() -> None:
    g = game()
    play(g, "H9 R")
    assert g.apply(Undo()).accepted
    g.apply(EndTurn())  # seat 1 took its tile back: a pass
    g.apply(EndTurn())  # seat 2 passes: the last of the round
    assert g.may_end == 1
