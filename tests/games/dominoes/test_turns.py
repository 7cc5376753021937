"""Double Double Dominoes: the turn — draw, play or discard, chains of doubles, refilling."""

from __future__ import annotations

import random

import pytest

from games.core import Action, Pass, Piece
from games.dominoes.board import NAMES, NEIGHBOURS, cell_index
from games.dominoes.game import Discard, Domino, Dominoes, Draw, EndTurn, Place
from games.errors import BadSettings, GameError

OTHER_HAND = [(0, 1), (0, 2), (0, 3)]
BONEYARD = [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6)]


def accept(game: Dominoes, *actions: Action) -> None:
    for action in actions:
        verdict = game.judge(action)
        assert verdict.accepted, f"{action}: {verdict.reason}"
        game.apply(action)


def refuse(game: Dominoes, action: Action, reason: str) -> None:
    verdict = game.judge(action)
    assert not verdict.accepted
    assert verdict.reason == reason


# -- drawing ----------------------------------------------------------------------
def test_turn_starts_with_a_draw_from_the_boneyard() -> None:
    game = Dominoes.from_position(
        2, hands=[[(6, 6), (5, 5), (4, 4)], OTHER_HAND], boneyard=BONEYARD
    )
    assert game.phase == "draw"
    assert game.legal_actions() == [Draw()]
    accept(game, Draw())
    assert game.hand(0) == [Domino(6, 6), Domino(5, 5), Domino(4, 4), Domino(1, 1)]
    assert game.boneyard_count == len(BONEYARD) - 1
    assert game.phase == "play"


def test_laying_before_drawing_is_refused() -> None:
    game = Dominoes.from_position(2, hands=[[(6, 3)], OTHER_HAND], boneyard=BONEYARD)
    refuse(game, Place(6, 3, "H8", "H9"), "draw a domino from the boneyard first")


def test_drawing_twice_is_refused() -> None:
    game = Dominoes.from_position(2, hands=[[(6, 3)], OTHER_HAND], boneyard=BONEYARD)
    accept(game, Draw())
    refuse(game, Draw(), "you have already drawn this turn")


# -- a plain turn -----------------------------------------------------------------
def test_laying_a_non_double_ends_the_turn_and_passes_it_on() -> None:
    game = Dominoes.from_position(
        2, hands=[[(6, 3), (2, 4), (0, 5)], OTHER_HAND], boneyard=BONEYARD
    )
    accept(game, Draw(), Place(6, 3, "H8", "H9"))
    assert game.to_move == 1
    assert game.phase == "draw"
    assert len(game.hand(0)) == 3


def test_layout_shows_each_half_with_its_domino_and_placer() -> None:
    game = Dominoes.from_position(
        2, hands=[[(6, 3), (2, 4), (0, 5)], OTHER_HAND], boneyard=BONEYARD
    )
    accept(game, Draw(), Place(6, 3, "H8", "H9"))
    assert game.layout() == {
        "H8": Piece(kind="domino", label="6-3:6", owner=0),
        "H9": Piece(kind="domino", label="6-3:3", owner=0),
    }


def test_the_end_turn_action_is_refused_before_laying() -> None:
    game = Dominoes.from_position(2, hands=[[(6, 3)], OTHER_HAND], phase="play")
    refuse(game, EndTurn(), "lay a domino first: the turn ends when you have played")


def test_actions_of_other_games_are_refused() -> None:
    game = Dominoes.from_position(2, hands=[[(6, 3)], OTHER_HAND], phase="play")
    refuse(game, Pass(), "Double Double Dominoes has no 'pass' action")


# -- cannot play: discard ---------------------------------------------------------
NEEDS_SIX = [(6, 6, "H7", "H8")]


def test_a_hand_that_cannot_be_laid_must_discard_to_the_pit() -> None:
    game = Dominoes.from_position(
        2,
        board=NEEDS_SIX,
        hands=[[(0, 1), (0, 2), (0, 3)], OTHER_HAND],
        boneyard=[(2, 2), *BONEYARD],
    )
    accept(game, Draw())
    assert game.phase == "discard"
    assert game.legal_actions() == [Discard(0, 1), Discard(0, 2), Discard(0, 3), Discard(2, 2)]
    refuse(game, Place(0, 1, "G8", "F8"), "no domino in your hand fits: discard one into the pit")
    accept(game, Discard(2, 2))
    assert game.pit == [Domino(2, 2)]
    assert game.hand(0) == [Domino(0, 1), Domino(0, 2), Domino(0, 3)]
    assert game.to_move == 1


def test_discarding_a_domino_not_held_is_refused() -> None:
    game = Dominoes.from_position(
        2, board=NEEDS_SIX, hands=[[(0, 1), (0, 2)], OTHER_HAND], phase="play"
    )
    refuse(game, Discard(5, 5), "you do not hold 5-5")


def test_more_than_three_in_hand_at_the_end_of_a_turn_are_discarded_down_to_three() -> None:
    hand = [(6, 1), (2, 2), (3, 3), (4, 4), (5, 5), (0, 0)]
    game = Dominoes.from_position(2, board=NEEDS_SIX, hands=[hand, OTHER_HAND], phase="play")
    accept(game, Place(6, 1, "G8", "F8"))
    assert (game.phase, game.to_move) == ("discard", 0)
    accept(game, Discard(2, 2))
    assert (game.phase, game.to_move) == ("discard", 0)
    refuse(game, EndTurn(), "discard a domino into the pit first")
    refuse(game, Place(4, 4, "F8", "E8"), "you hold more than 3: discard into the pit down to 3")
    accept(game, Discard(3, 3))
    assert game.hand(0) == [Domino(4, 4), Domino(5, 5), Domino(0, 0)]
    assert game.pit == [Domino(2, 2), Domino(3, 3)]
    assert (game.phase, game.to_move) == ("draw", 1)


# -- refilling --------------------------------------------------------------------
def test_hand_is_refilled_to_three_at_the_end_of_the_turn() -> None:
    game = Dominoes.from_position(
        2,
        board=NEEDS_SIX,
        hands=[[(6, 6), (6, 1)], OTHER_HAND],
        boneyard=BONEYARD,
        phase="play",
    )
    accept(game, Place(6, 6, "G8", "F8"))
    assert game.phase == "chain"
    accept(game, Place(6, 1, "E8", "D8"))
    assert game.hand(0) == [Domino(1, 1), Domino(1, 2), Domino(1, 3)]
    assert game.boneyard_count == len(BONEYARD) - 3


# -- chains of doubles ------------------------------------------------------------
START = [(4, 5, "C4", "B4")]
CHAIN_HAND = [(4, 4), (4, 4), (4, 4), (4, 1)]


def chain_game() -> Dominoes:
    """Five players (three sets): seat 0 holds three 4-4s and a 4-1 beside a 4."""
    hands = [CHAIN_HAND, *[OTHER_HAND] * 4]
    return Dominoes.from_position(5, board=START, hands=hands, boneyard=BONEYARD, phase="play")


def test_a_chain_of_three_doubles_then_a_fourth_domino() -> None:
    game = chain_game()
    accept(game, Place(4, 4, "D4", "E4"))
    assert (game.phase, game.to_move, game.chain_double) == ("chain", 0, "4-4 on D4–E4")
    assert game.scores()[0] == 6  # the 3 diamond on D4, doubled
    accept(game, Place(4, 4, "E5", "E6"))
    assert game.chain_double == "4-4 on E5–E6"
    assert game.scores()[0] == 8
    accept(game, Place(4, 4, "F6", "G6"))
    assert game.chain_double == "4-4 on F6–G6"
    assert game.scores()[0] == 10
    accept(game, Place(4, 1, "F7", "F8"))
    assert game.to_move == 1
    assert game.phase == "draw"


def test_a_chain_uses_only_the_hand_held_when_the_turn_began() -> None:
    game = chain_game()
    accept(game, Place(4, 4, "D4", "E4"), Place(4, 4, "E5", "E6"))
    assert game.boneyard_count == len(BONEYARD)
    assert game.hand(0) == [Domino(4, 4), Domino(1, 4)]
    accept(game, EndTurn())
    assert game.hand(0) == [Domino(4, 4), Domino(1, 4), Domino(1, 1)]
    assert game.to_move == 1


def test_after_a_double_the_next_domino_must_lie_beside_it() -> None:
    game = chain_game()
    accept(game, Place(4, 4, "D4", "E4"))
    refuse(
        game,
        Place(4, 1, "C3", "C2"),
        "after a double the next domino must lie beside it (4-4 on D4–E4)",
    )
    accept(game, Place(4, 1, "F4", "G4"))
    assert game.to_move == 1


def test_chain_phase_offers_only_placements_beside_the_double_and_ending_the_turn() -> None:
    game = chain_game()
    accept(game, Place(4, 4, "D4", "E4"))
    actions = game.legal_actions()
    assert actions[-1] == EndTurn()
    beside = {NAMES[n] for c in ("D4", "E4") for n in NEIGHBOURS[cell_index(c)]}
    places = [a for a in actions[:-1] if isinstance(a, Place)]
    assert len(places) == len(actions) - 1 > 5
    for place in places:
        assert game.judge(place).accepted
        assert {place.cell_a, place.cell_b} & beside
    assert Place(1, 4, "C2", "C3") not in places


def test_no_discarding_in_the_middle_of_a_chain() -> None:
    game = chain_game()
    accept(game, Place(4, 4, "D4", "E4"))
    refuse(game, Discard(4, 1), "lay a domino beside the double or end the turn; no discarding now")


def test_a_double_with_nothing_to_follow_ends_the_turn_by_itself() -> None:
    game = Dominoes.from_position(
        2, board=NEEDS_SIX, hands=[[(6, 6), (0, 1)], OTHER_HAND], boneyard=BONEYARD, phase="play"
    )
    accept(game, Place(6, 6, "G8", "F8"))
    assert game.to_move == 1
    assert game.phase == "draw"


# -- actions as plain data --------------------------------------------------------
@pytest.mark.parametrize("action", [Draw(), EndTurn(), Discard(2, 5), Place(6, 3, "H8", "H9")])
def test_actions_survive_a_round_trip_through_plain_dicts(
    action: Draw | EndTurn | Discard | Place,
) -> None:
    game = Dominoes(2)
    assert game.decode(action.to_dict()) == action


def test_action_types_are_distinct() -> None:
    assert [a.type for a in (Draw(), Place(0, 0, "H8", "H9"), Discard(0, 0), EndTurn())] == [
        "draw",
        "place",
        "discard",
        "end-turn",
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "fly"}, "unknown action type 'fly'"),
        (
            {"type": "place", "domino_a": 1, "domino_b": 2, "cell_a": "H8"},
            "needs the field 'cell_b'",
        ),
        ({"type": "discard", "a": 9, "b": 1}, "a must be a whole number of pips from 0 to 6"),
        ({"type": "place", "domino_a": 1, "domino_b": 2, "cell_a": 8, "cell_b": "H9"}, "cell name"),
    ],
)
def test_malformed_actions_are_refused_with_the_reason(
    data: dict[str, object], message: str
) -> None:
    with pytest.raises(GameError, match=message):
        Dominoes(2).decode(data)


# -- setting up positions ---------------------------------------------------------
def test_from_position_refuses_overlapping_dominoes() -> None:
    with pytest.raises(BadSettings, match="H8 is covered twice"):
        Dominoes.from_position(2, board=[(1, 2, "H8", "H9"), (3, 4, "H8", "G8")])


def test_from_position_refuses_cells_apart() -> None:
    with pytest.raises(BadSettings, match="H8 and H10 are not next to each other"):
        Dominoes.from_position(2, board=[(1, 2, "H8", "H10")])


def test_from_position_refuses_a_domino_that_does_not_exist() -> None:
    with pytest.raises(GameError, match="a pip must be a whole number of pips from 0 to 6, not 7"):
        Dominoes.from_position(2, hands=[[(7, 1)], OTHER_HAND])


def test_from_position_refuses_a_wrong_number_of_hands() -> None:
    with pytest.raises(BadSettings, match="one hand per player"):
        Dominoes.from_position(3, hands=[OTHER_HAND])


def test_replaying_the_actions_rebuilds_the_game() -> None:
    game = Dominoes(3, random.Random(5))
    rng = random.Random(1)
    while game.outcome is None and len(game.history) < 30:
        accept(game, rng.choice(game.legal_actions()))
    again = Dominoes(3, random.Random(5))
    for action in game.history:
        accept(again, again.decode(action.to_dict()))
    assert again.state_dict() == game.state_dict()
    assert [again.hand(p) for p in range(3)] == [game.hand(p) for p in range(3)]
