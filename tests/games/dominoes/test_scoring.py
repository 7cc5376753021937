"""Double Double Dominoes: diamonds, the +3 track bonus, the three endings and the tie-break."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from games.core import Action, ScoreEvent
from games.dominoes.game import Dominoes, Draw, EndTurn, Place

OTHER_HAND = [(0, 1), (0, 2), (0, 3)]
BONEYARD = [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6)]
START = [(2, 5, "C4", "B4")]
"""A 2 on C4: D4 beside it holds the 3 diamond, C3–D3 holds none."""


def position(
    hand: Sequence[tuple[int, int]],
    scores: Sequence[int],
    *,
    board: Sequence[tuple[int, int, str, str]] = START,
    boneyard: Sequence[tuple[int, int]] = BONEYARD,
    phase: str = "play",
    others: Sequence[tuple[int, int]] = OTHER_HAND,
) -> Dominoes:
    players = len(scores)
    hands = [hand, *[others] * (players - 1)]
    return Dominoes.from_position(
        players, board=board, hands=hands, boneyard=boneyard, scores=scores, phase=phase
    )


def play(game: Dominoes, *actions: Action) -> list[ScoreEvent]:
    events: list[ScoreEvent] = []
    for action in actions:
        verdict = game.apply(action)
        assert verdict.accepted, f"{action}: {verdict.reason}"
        events.extend(verdict.events)
    return events


# -- diamonds ---------------------------------------------------------------------
def test_covering_a_diamond_scores_its_number() -> None:
    game = position([(2, 1)], [0, 0])
    events = play(game, Place(2, 1, "D4", "E4"))
    assert events == [ScoreEvent(0, 3, "2-1 covers the 3 on D4")]
    assert game.scores() == [3, 0]


def test_a_double_on_a_diamond_scores_double() -> None:
    game = position([(2, 2)], [0, 0])
    events = play(game, Place(2, 2, "D4", "E4"))
    assert events == [ScoreEvent(0, 6, "2-2 covers the 3 on D4, doubled for a double")]
    assert game.scores() == [6, 0]


def test_a_domino_on_plain_cells_scores_nothing() -> None:
    game = position([(2, 1)], [0, 0])
    assert play(game, Place(2, 1, "C3", "D3")) == []
    assert game.scores() == [0, 0]


def test_gains_foretell_what_a_placement_scores() -> None:
    game = position([(2, 4), (2, 2)], [0, 4])
    assert game.gains(Place(2, 4, "D4", "E4")) == [3, 3]
    assert game.gains(Place(2, 2, "D4", "E4")) == [6, 0]
    assert game.gains(Place(2, 4, "C3", "D3")) == [0, 3]


# -- the track bonus --------------------------------------------------------------
def test_a_player_who_is_not_moving_gains_three_when_a_domino_matches_their_space() -> None:
    game = position([(2, 4)], [0, 4])  # space 4 shows 4 pips
    events = play(game, Place(2, 4, "C3", "D3"))
    assert events == [ScoreEvent(1, 3, "2-4 shows the 4 of player 2's track space")]
    assert game.scores() == [0, 7]
    assert game.track_space(1) == 7


def test_the_mover_gains_three_when_a_domino_matches_their_own_space() -> None:
    game = position([(2, 3)], [3, 0])  # space 3 shows 3 pips
    play(game, Place(2, 3, "C3", "D3"))
    assert game.scores() == [6, 0]


def test_the_head_or_the_tail_may_match_the_track() -> None:
    game = position([(2, 1)], [0, 2])  # space 2 shows 2: the tail
    play(game, Place(2, 1, "C3", "D3"))
    assert game.scores() == [0, 5]


def test_the_bonus_is_paid_once_per_domino_even_when_both_ends_match() -> None:
    game = position([(2, 2)], [0, 2])
    play(game, Place(2, 2, "C3", "D3"))
    assert game.scores() == [0, 5]


def test_every_player_on_a_matching_space_gains_three() -> None:
    game = position([(2, 4)], [4, 4, 0, 11])  # spaces 4 and 11 both show 4
    play(game, Place(2, 4, "C3", "D3"))
    assert game.scores() == [7, 7, 0, 14]


def test_the_bonus_reads_positions_before_the_domino_scores() -> None:
    # Space 5 shows 5; the diamond would carry the mover to space 8, which shows 2.
    game = position([(2, 1)], [5, 0])
    play(game, Place(2, 1, "D4", "E4"))
    assert game.scores() == [8, 0]


def test_the_start_spot_shows_no_pips() -> None:
    game = position([(2, 0)], [0, 0])
    play(game, Place(2, 0, "C3", "D3"))
    assert game.scores() == [0, 0]
    assert game.track_space(0) == 0


def test_in_a_chain_the_score_moves_before_the_next_domino() -> None:
    # Space 1 shows 1; the doubled diamond moves the mover to space 7, which shows 0.
    game = position([(2, 2), (2, 0)], [1, 0])
    play(game, Place(2, 2, "D4", "E4"))
    assert game.scores() == [7, 0]
    events = play(game, Place(2, 0, "F4", "G4"))
    assert events == [
        ScoreEvent(0, 2, "2-0 covers the 2 on F4"),
        ScoreEvent(0, 3, "2-0 shows the 0 of player 1's track space"),
    ]
    assert game.scores() == [12, 0]


# -- ending 1: the victory total --------------------------------------------------
def test_reaching_the_victory_total_ends_the_game_at_once() -> None:
    game = position([(2, 1)], [98, 0])
    play(game, Place(2, 1, "D4", "E4"))
    assert game.phase == "over"
    assert game.outcome is not None
    assert game.outcome.winners == (0,)
    assert game.outcome.reason == "player 1 reached the victory total of 100"
    assert game.legal_actions() == []
    assert game.judge(Draw()).reason == "the game is over"


def test_reaching_the_victory_total_in_a_chain_ends_it_there() -> None:
    game = position([(2, 2), (2, 0)], [95, 0])
    play(game, Place(2, 2, "D4", "E4"))
    assert game.outcome is not None
    assert game.outcome.winners == (0,)
    assert not game.judge(Place(2, 0, "F4", "G4")).accepted


def test_a_player_who_is_not_moving_can_win_by_the_bonus() -> None:
    game = position([(2, 6)], [0, 97])  # space 97 shows 6
    play(game, Place(2, 6, "C3", "D3"))
    assert game.outcome is not None
    assert game.outcome.winners == (1,)
    assert game.scores() == [0, 100]
    assert game.outcome.reason == "player 2 reached the victory total of 100"


@pytest.mark.parametrize(("players", "total"), [(3, 75), (4, 50), (5, 75), (6, 50)])
def test_victory_total_for_each_player_count_ends_the_game(players: int, total: int) -> None:
    below = [total - 3] + [0] * (players - 1)
    game = position([(2, 1)], below)
    play(game, Place(2, 1, "D4", "E4"))
    assert game.outcome is not None
    assert game.outcome.reason == f"player 1 reached the victory total of {total}"


def test_one_point_short_of_the_victory_total_plays_on() -> None:
    game = position([(2, 0)], [96, 0])  # space 96 shows 1: no bonus
    play(game, Place(2, 0, "D4", "E4"))
    assert game.outcome is None
    assert game.scores() == [99, 0]


# -- ending 2: the last domino drawn ----------------------------------------------
def test_drawing_the_last_domino_ends_the_game_when_the_turn_ends() -> None:
    game = position([(2, 1), (6, 6), (5, 5)], [0, 4], boneyard=[(0, 4)], phase="draw")
    play(game, Draw())
    assert game.boneyard_count == 0
    assert game.outcome is None
    play(game, Place(2, 1, "C3", "D3"))
    assert game.outcome is not None
    assert game.outcome.reason == "player 1 drew the last domino"
    assert game.outcome.winners == (1,)


def test_refilling_with_the_last_domino_ends_the_game() -> None:
    game = position([(2, 1), (6, 6), (5, 5)], [3, 0], boneyard=[(0, 4)])
    play(game, Place(2, 1, "C3", "D3"))
    assert game.boneyard_count == 0
    assert game.outcome is not None
    assert game.outcome.reason == "player 1 drew the last domino"
    assert game.outcome.winners == (0,)


def test_the_last_domino_drawn_lets_a_chain_finish_first() -> None:
    game = position([(2, 2), (2, 0), (5, 5)], [0, 0], boneyard=[(0, 4)], phase="draw")
    play(game, Draw(), Place(2, 2, "D4", "E4"))
    assert game.outcome is None
    play(game, Place(2, 0, "F4", "G4"))
    assert game.outcome is not None


def test_a_turn_ended_by_a_discard_can_end_the_game() -> None:
    game = position(
        [(6, 6), (5, 5), (3, 3)],
        [0, 0],
        board=[(2, 1, "H8", "H9")],
        boneyard=[(4, 4)],
        phase="draw",
    )
    play(game, Draw())
    assert game.phase == "discard"
    play(game, game.legal_actions()[0])
    assert game.outcome is not None


# -- ending 3: no space left ------------------------------------------------------
def brick_board(empty: set[str], pips: dict[str, int]) -> list[tuple[int, int, str, str]]:
    """Rows of level dominoes over every cell but ``empty``, showing 0 except at ``pips``."""
    out = []
    for row in range(1, 16):
        run: list[str] = []
        for col in "ABCDEFGHIJKLMNO!":
            cell = f"{col}{row}"
            if col != "!" and cell not in empty:
                run.append(cell)
                continue
            assert len(run) % 2 == 0, f"row {row} leaves a cell over"
            for a, b in zip(run[::2], run[1::2], strict=True):
                out.append((pips.get(a, 0), pips.get(b, 0), a, b))
            run = []
    return out


def test_the_game_ends_when_no_space_is_left_for_any_domino() -> None:
    holes = {f"{'O' if row % 2 else 'A'}{row}" for row in range(3, 16)}
    board = brick_board({"A1", "B1", "C1", "C2"} | holes, {"B2": 1, "D1": 2})
    game = position([(1, 2)], [5, 0], board=board)
    assert game.placements() == [Place(1, 2, "B1", "C1")]
    play(game, Place(1, 2, "B1", "C1"))
    assert game.outcome is not None
    assert game.outcome.reason == "no space is left where a domino can be placed"
    assert game.outcome.winners == (0,)


# -- the tie-break ----------------------------------------------------------------
def test_a_tie_on_points_goes_to_the_most_pips_in_hand() -> None:
    # Space 10 shows 3: the 2-1 gives nobody a bonus.
    game = position([(2, 1), (6, 6), (5, 5)], [10, 10], boneyard=[(0, 0)], phase="draw")
    play(game, Draw(), Place(2, 1, "C3", "D3"))
    assert game.outcome is not None
    assert game.outcome.winners == (0,)
    assert game.outcome.reason == (
        "player 1 drew the last domino; tied on 10 points, most pips in hand (22) wins"
    )


def test_the_tie_break_favours_whoever_holds_more_pips() -> None:
    game = position(
        [(2, 1), (0, 0), (1, 0)], [10, 10], boneyard=[(0, 0)], phase="draw", others=[(6, 6)]
    )
    play(game, Draw(), Place(2, 1, "C3", "D3"))
    assert game.outcome is not None
    assert game.outcome.winners == (1,)


def test_a_tie_on_points_and_pips_is_shared() -> None:
    game = position(
        [(2, 1), (0, 6), (0, 0)], [10, 10], boneyard=[(0, 0)], phase="draw", others=[(3, 3)]
    )
    play(game, Draw(), Place(2, 1, "C3", "D3"))
    assert game.outcome is not None
    assert game.outcome.winners == (0, 1)
    assert not game.outcome.draw


def test_only_the_tied_leaders_compare_pips() -> None:
    game = position(
        [(2, 1), (0, 0), (0, 0)], [10, 10, 2], boneyard=[(0, 0)], phase="draw", others=[(6, 6)]
    )
    play(game, Draw(), Place(2, 1, "C3", "D3"))
    assert game.outcome is not None
    assert game.outcome.winners == (1,)


def test_end_turn_after_a_double_hands_the_turn_on() -> None:
    game = position([(2, 2), (2, 0)], [0, 0])
    play(game, Place(2, 2, "D4", "E4"), EndTurn())
    assert game.to_move == 1


def test_gains_agree_with_what_every_placement_scores_through_a_game() -> None:
    game = Dominoes(3, random.Random(5))
    rng = random.Random(5)
    compared = 0
    while game.outcome is None:
        actions = game.legal_actions()
        for action in actions:
            if isinstance(action, Place):
                after = game.copy()
                assert after.apply(action).points(3) == game.gains(action), action
                compared += 1
        game.apply(rng.choice(actions))
    assert compared > 100
