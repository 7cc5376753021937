"""Crosslet's rules (RULES.md §1), each pinned by a small position."""

from __future__ import annotations

import json
import random

import pytest

from games.core import Pass, Resign
from games.crosslet.board import (
    LETTER_MULTIPLIER,
    LETTER_VALUES,
    TILE_COUNTS,
    WORD_MULTIPLIER,
    parse_cell,
)
from games.crosslet.game import Crosslet, Exchange, ExchangeCount, PlaceTiles
from games.errors import BadSettings, GameError
from games.lexicon import Lexicon
from tests.games.crosslet.helpers import (
    SMALL_WORDS,
    WordSet,
    place,
    rigged_bag,
    rigged_game,
    single_line_placements,
)

# Seat 0 holds CATSAND, seat 1 holds CRATEZO, seat 0 then draws EXITONA.
OPENING = ("CATSAND", "CRATEZO", "EXITONA")


def opening_game() -> Crosslet:
    return rigged_game(*OPENING)


# -- board, tiles, racks -----------------------------------------------------------


def test_bonus_cells_follow_the_classic_layout() -> None:
    cells = [(c, r) for r in range(15) for c in range(15)]
    assert sum(WORD_MULTIPLIER[r][c] == 3 for c, r in cells) == 8
    assert sum(WORD_MULTIPLIER[r][c] == 2 for c, r in cells) == 17  # 16 blue and the centre
    assert sum(LETTER_MULTIPLIER[r][c] == 3 for c, r in cells) == 12
    assert sum(LETTER_MULTIPLIER[r][c] == 2 for c, r in cells) == 24
    col, row = parse_cell("H8")
    assert WORD_MULTIPLIER[row][col] == 2


def test_the_bag_holds_the_100_tiles_of_the_table() -> None:
    assert sum(TILE_COUNTS.values()) == 100
    assert TILE_COUNTS["E"] == 12 and TILE_COUNTS["?"] == 2
    assert LETTER_VALUES["Q"] == 10 and LETTER_VALUES["?"] == 0
    game = Crosslet(4, random.Random(5), lexicon=WordSet(["at"]))
    assert game.bag_count == 100 - 4 * 7


def test_racks_of_seven_are_drawn_in_seat_order_and_open_to_all() -> None:
    game = opening_game()
    assert game.rack(0) == list("CATSAND")
    assert game.rack(1) == list("CRATEZO")
    assert game.bag_count == 86
    assert game.state_dict()["racks"][1] == list("CRATEZO")


def test_shuffled_bag_and_first_player_come_from_the_rng() -> None:
    a = Crosslet(3, random.Random(42), lexicon=WordSet(["at"]))
    b = Crosslet(3, random.Random(42), lexicon=WordSet(["at"]))
    assert [a.rack(p) for p in range(3)] == [b.rack(p) for p in range(3)]
    assert a.to_move == b.to_move
    firsts = {Crosslet(2, random.Random(s), lexicon=WordSet(["at"])).to_move for s in range(20)}
    assert firsts == {0, 1}


@pytest.mark.parametrize("first", [1, 2, 3])
def test_the_first_option_counts_seats_from_1(first: int) -> None:
    game = Crosslet(3, random.Random(1), {"first": first}, lexicon=WordSet(["at"]))
    assert game.to_move == first - 1


@pytest.mark.parametrize("first", [0, 4, True, "1", 1.0])
def test_a_first_seat_that_is_not_a_seat_is_refused(first: object) -> None:
    with pytest.raises(BadSettings, match=r"first must be a whole number from 1 to 3, not "):
        Crosslet(3, random.Random(1), {"first": first}, lexicon=WordSet(["at"]))


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players: int) -> None:
    with pytest.raises(BadSettings):
        Crosslet(players, lexicon=WordSet(["at"]))


def test_a_rigged_bag_must_be_the_whole_set() -> None:
    with pytest.raises(BadSettings, match="100 Crosslet tiles"):
        Crosslet(2, options={"bag": "ABC"}, lexicon=WordSet(["at"]))


def test_cells_run_a1_to_o15_in_reading_order() -> None:
    cells = opening_game().cells()
    assert len(cells) == 225
    assert cells[:2] == ["A1", "B1"] and cells[15] == "A2" and cells[-1] == "O15"


# -- placing -------------------------------------------------------------------------


def test_first_move_scores_letter_bonus_before_word_bonus() -> None:
    game = rigged_game("CRATE")
    # C on D8 doubles to 6, the centre doubles the word: (6 + 1 + 1 + 1 + 1) * 2.
    verdict = game.apply(place("D8 C, E8 R, F8 A, G8 T, H8 E"))
    assert verdict.accepted
    assert verdict.points(2) == [20, 0]


def test_bonuses_count_only_on_the_turn_they_are_covered() -> None:
    game = rigged_game("CRATEQU", "SIIIIII")
    game.apply(place("D8 C, E8 R, F8 A, G8 T, H8 E"))
    # CRATES reuses D8 and H8, so only the new S counts at face value.
    verdict = game.apply(place("I8 S"))
    assert verdict.accepted
    assert [(e.reason, e.points) for e in verdict.events] == [("CRATES", 8)]


def test_a_turn_may_form_several_words_in_several_lines() -> None:
    game = opening_game()
    verdict = game.apply(place("G8 C, H8 A, I8 T, J8 S, J9 A, J10 N, J11 D"))
    assert verdict.accepted
    # CATS (centre doubles) 12, SAND (J10 triples the N) 7, all seven tiles 15.
    assert [(e.reason, e.points) for e in verdict.events] == [
        ("CATS", 12),
        ("SAND", 7),
        ("all 7 tiles", 15),
    ]
    assert game.scores() == [34, 0]


def test_blank_scores_zero_and_shows_its_letter() -> None:
    game = rigged_game("?AT")
    verdict = game.apply(place("G8 ?, H8 A, I8 T", blanks="G8 C"))
    assert verdict.accepted
    assert verdict.points(2) == [4, 0]  # (0 + 1 + 1) * 2
    piece = game.layout()["G8"]
    assert (piece.label, piece.state, piece.owner) == ("?", "blank:C", 0)
    assert game.layout()["H8"].label == "A"


def test_layout_names_the_placer_of_each_tile() -> None:
    game = opening_game()
    game.apply(place("H8 C, I8 A, J8 T"))
    assert game.apply(place("J9 A")).accepted  # seat 1 makes TA down
    assert {c: p.owner for c, p in game.layout().items()} == {
        "H8": 0,
        "I8": 0,
        "J8": 0,
        "J9": 1,
    }


def test_seven_tiles_earn_fifteen_points() -> None:
    game = opening_game()
    entries = game.score_placement(place("G8 C, H8 A, I8 T, J8 S, J9 A, J10 N, J11 D"))
    assert entries[-1] == ("all 7 tiles", 15)
    six = game.score_placement(place("G8 C, H8 A, I8 T, J8 S, J9 A, J10 N"))
    assert ("all 7 tiles", 15) not in six


def test_racks_are_refilled_after_a_placement() -> None:
    game = opening_game()
    game.apply(place("H8 C, I8 A, J8 T"))
    assert game.rack(0) == list("SANDEXI")
    assert game.bag_count == 83


# -- rejected placements: one for each reason ----------------------------------------


@pytest.mark.parametrize(
    ("spec", "blanks", "reason"),
    [
        ("G8 C, H8 A, I8 N", "", "CAN is not a word"),
        ("G7 C, G8 A, G9 T", "", "the first move must cover H8"),
        ("H8 A", "", "a word needs two letters or more: place at least two tiles"),
        ("H8 A, I8 T, K8 S, K9 A", "", "the tiles are not joined to each other"),
        ("H8 C, I8 A, J8 Z", "", "you have no Z"),
        ("H8 A, I8 A, J8 A", "", "you have only 2 A, not 3"),
        ("H8 ?, I8 T", "H8 A", "you have no blank"),
        ("H8 A, H8 T", "", "H8 is given twice"),
        ("P8 A, H8 T", "", "'P8' is not a cell of the board (A1 to O15)"),
        ("H8 A, I8 1", "", "'1' on I8 is not a letter; use A to Z or ? for a blank"),
        ("H8 A, I8 T", "I8 S", "I8 holds no blank, so it cannot stand for 'S'"),
        ("", "", "place at least one tile"),
    ],
)
def test_first_placement_rejected(spec: str, blanks: str, reason: str) -> None:
    game = opening_game()
    verdict = game.judge(place(spec, blanks))
    assert not verdict.accepted
    assert verdict.reason == reason
    assert game.rack(0) == list("CATSAND") and not game.layout()


def test_a_blank_needs_its_letter_named() -> None:
    game = rigged_game("?AT")
    assert game.judge(place("G8 ?, H8 A, I8 T")).reason == (
        "say which letter the blank on G8 stands for"
    )
    assert game.judge(place("G8 ?, H8 A, I8 T", "G8 1")).reason == (
        "the blank on G8 must stand for a letter A to Z, not '1'"
    )
    assert game.judge(place("G8 ?, H8 A, I8 T", "G8 C, G8 B")).reason == (
        "the blank on G8 is named twice: say one letter for it"
    )


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("H8 T", "H8 is occupied"),
        ("A1 T, B1 A", "the tiles are not joined to the board"),
        ("J9 Z", "TZ is not a word"),
        ("K8 T, H9 A", "CATT and CA are not words"),
        ("H9 A, I9 T, J9 E", "ATE, CA and TE are not words"),
    ],
)
def test_later_placement_rejected(spec: str, reason: str) -> None:
    game = opening_game()
    assert game.apply(place("H8 C, I8 A, J8 T")).accepted
    verdict = game.judge(place(spec))
    assert not verdict.accepted
    assert verdict.reason == reason


def test_every_word_formed_is_checked_not_only_the_main_line() -> None:
    game = opening_game()
    game.apply(place("H8 C, I8 A, J8 T"))
    # Seat 1 lays T after CAT and A under it: TA down is a word, CATT across is not.
    assert game.judge(place("K8 T, K9 A")).reason == "CATT is not a word"
    # AT across and AT down are words, but C above A makes CA down, which is not.
    assert game.judge(place("H9 A, I9 T")).reason == "CA is not a word"


# -- exchange, pass, end -------------------------------------------------------------


def test_exchange_draws_new_tiles_deterministically() -> None:
    a, b = opening_game(), opening_game()
    for game in (a, b):
        verdict = game.apply(Exchange(("C", "D")))
        assert verdict.accepted and verdict.points(2) == [0, 0]
    assert a.rack(0) == b.rack(0)
    assert a.rack(0)[:5] == list("ATSAN") and len(a.rack(0)) == 7
    assert a.bag_count == 86 and a.to_move == 1


def test_exchange_rejected_for_missing_tiles_or_empty_choice() -> None:
    game = opening_game()
    assert game.judge(Exchange(("Q",))).reason == "you have no Q"
    assert game.judge(Exchange(())).reason == "choose at least one tile to exchange"


def test_exchange_needs_seven_tiles_in_the_bag() -> None:
    game = opening_game()
    del game._bag[4:]  # the bag as it is late in a game
    assert game.judge(Exchange(("C",))).reason == "exchange needs 7 tiles in the bag; 4 left"
    assert game.judge(Pass()).accepted


def test_two_scoreless_turns_each_end_the_game_with_rack_penalties() -> None:
    game = opening_game()
    for _ in range(3):
        assert game.apply(Pass()).accepted
    assert game.outcome is None
    verdict = game.apply(Pass())
    assert game.outcome is not None
    assert "two scoreless turns" in game.outcome.reason
    # CATSAND is 3+1+1+1+1+1+2 = 10, CRATEZO is 3+1+1+1+1+10+1 = 18.
    assert game.scores() == [-10, -18]
    assert game.outcome.winners == (0,)
    assert verdict.points(2) == [-10, -18]
    assert game.judge(Pass()).reason == "the game is over"


def test_exchanges_count_as_scoreless_turns() -> None:
    game = rigged_game(*OPENING, players=3)
    for _ in range(5):
        game.apply(Exchange((game.rack(game.to_move)[0],)))
    assert game.outcome is None
    game.apply(Pass())
    assert game.outcome is not None


def test_a_scoring_turn_resets_the_scoreless_count() -> None:
    game = opening_game()
    game.apply(Pass())
    game.apply(Pass())
    game.apply(Pass())
    game.apply(place("G8 C, H8 A, I8 T"))  # seat 1's CAT from CRATEZO
    for _ in range(3):
        game.apply(Pass())
    assert game.outcome is None


def test_going_out_with_an_empty_bag_ends_and_takes_the_other_racks() -> None:
    game = opening_game()
    game._bag.clear()  # as if the bag had run dry earlier in the game
    verdict = game.apply(place("G8 C, H8 A, I8 T, J8 S, J9 A, J10 N, J11 D"))
    assert game.outcome is not None
    assert "rack is played out" in game.outcome.reason
    # 34 for the play, then CRATEZO (18) passes from seat 1 to seat 0.
    assert game.scores() == [34 + 18, -18]
    assert verdict.points(2) == [52, -18]
    assert game.outcome.winners == (0,)


def test_resign_gives_the_game_to_the_others() -> None:
    game = opening_game()
    assert game.apply(Resign(0)).accepted
    assert game.outcome is not None and game.outcome.winners == (1,)
    assert not opening_game().judge(Resign(5)).accepted


def test_a_draw_when_every_seat_ends_level() -> None:
    game = rigged_game("CATSAND", "CATSAND", words=["cats"])
    for _ in range(4):
        game.apply(Pass())
    assert game.outcome is not None and game.outcome.draw
    assert game.outcome.winners == (0, 1)


# -- the journal and the table ---------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        place("G8 ?, H8 A, I8 T", "G8 C"),
        Exchange(("A", "?")),
        Pass(),
        Resign(1),
    ],
)
def test_actions_round_trip_through_json(action: object) -> None:
    game = opening_game()
    assert isinstance(action, PlaceTiles | Exchange | Pass | Resign)
    data = json.loads(json.dumps(action.to_dict()))
    assert game.decode(data) == action


@pytest.mark.parametrize(
    "data",
    [
        {"type": "castle"},
        {"type": "place", "tiles": "H8 A"},
        {"type": "place", "tiles": [["H8"]]},
        {"type": "exchange", "letters": "AB"},
        {"type": "resign", "player": "one"},
        {"type": "resign"},
        {"type": "resign", "player": True},
    ],
)
def test_malformed_actions_are_refused_with_a_message(data: dict[str, object]) -> None:
    with pytest.raises(GameError) as err:
        opening_game().decode(data)
    assert str(err.value)


@pytest.mark.parametrize("player", ["one", None, 2])
def test_a_resignation_for_no_seat_is_refused(player: object) -> None:
    verdict = opening_game().judge(Resign(player))  # type: ignore[arg-type]
    assert not verdict.accepted
    assert verdict.reason == f"there is no seat {player!r} in this game"


def test_replaying_the_history_rebuilds_the_game() -> None:
    game = opening_game()
    game.apply(place("H8 C, I8 A, J8 T"))
    game.apply(Exchange(("Z",)))
    game.apply(place("K8 S"))
    copy = opening_game()
    for action in game.history:
        copy.apply(copy.decode(action.to_dict()))
    assert copy.state_dict() == game.state_dict()


def test_the_shortlist_offers_the_best_placements_an_exchange_and_a_pass() -> None:
    game = opening_game()
    actions = game.shortlist()
    assert isinstance(actions[-1], Pass)
    assert actions[-2] == Exchange(tuple("CATSAND"))
    placements = [a for a in actions if isinstance(a, PlaceTiles)]
    assert len(placements) == 5 and all(game.judge(a).accepted for a in placements)
    points = [sum(p for _, p in game.score_placement(a)) for a in placements]
    assert points == sorted(points, reverse=True)
    best = game.hint()
    assert best == placements[0]
    # The hint is the best single line (CATS through the centre, 12); the 34-point
    # CATS/SAND play lies in two lines, which people may find but the hint does not.
    assert best is not None and points[0] == 12
    assert len(game.shortlist(2)) == 2 + 2


def test_legal_actions_are_every_single_line_placement_every_exchange_and_a_pass() -> None:
    game = opening_game()
    game.apply(place("H8 C, I8 A, J8 T"))
    game._racks[1] = list("TASN")  # short, so that the brute force stays quick
    actions = game.legal_actions()
    assert actions[-1] == Pass()
    placements = [frozenset(a.tiles) for a in actions if isinstance(a, PlaceTiles)]
    assert len(placements) == len(set(placements))
    assert set(placements) == single_line_placements(game, "TASN")
    exchanges = [a for a in actions if isinstance(a, Exchange)]
    # Every non-empty part of T, A, S, N: 2 ** 4 - 1.
    assert len(exchanges) == len(set(exchanges)) == 15
    assert all(game.judge(a).accepted for a in exchanges)
    assert len(actions) == len(placements) + 15 + 1


def test_legal_placements_with_a_blank_name_its_letter() -> None:
    game = opening_game()
    game.apply(place("H8 C, I8 A, J8 T"))
    game._racks[1] = list("A?A")
    placements = [a for a in game.legal_actions() if isinstance(a, PlaceTiles)]
    assert all(game.judge(a).accepted for a in placements)
    assert place("K8 ?", "K8 S") in placements
    # Exchanges of the parts of A, A, ?: A; ?; A A; A ?; A A ?.
    assert sum(isinstance(a, Exchange) for a in game.legal_actions()) == 5


def test_legal_actions_with_an_unknown_rack_are_exchanges_by_count_and_a_pass() -> None:
    game = Crosslet(
        2, random.Random(1), {"racks": "table", "first": 1}, lexicon=WordSet(SMALL_WORDS)
    )
    assert game.legal_actions() == [ExchangeCount(n) for n in range(1, 8)] + [Pass()]


def test_no_exchange_is_legal_once_the_bag_runs_low() -> None:
    game = opening_game()
    game._bag = game._bag[:6]
    actions = game.legal_actions()
    assert not any(isinstance(a, Exchange) for a in actions) and actions[-1] == Pass()
    assert any(isinstance(a, PlaceTiles) for a in actions)


def test_the_project_lexicon_drives_the_game() -> None:
    game = Crosslet(
        2,
        random.Random(1),
        {"bag": rigged_bag(*OPENING), "first": 1},
        lexicon=Lexicon.build(SMALL_WORDS),
    )
    assert game.apply(place("H8 C, I8 A, J8 T")).accepted
    assert game.judge(place("K8 Z")).reason == "CATZ is not a word"
    assert game.hint() is not None
