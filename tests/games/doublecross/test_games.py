"""Whole DoubleCross games between computer players, via the registry, recounted."""

from __future__ import annotations

import random

import pytest

from games.doublecross.game import DoubleCross, PlaceTile
from games.doublecross.player import DoubleCrossPlayer
from games.registry import find_game
from tests.games.doublecross.helpers import enable, recount


def play_out(players: int, seed: int) -> DoubleCross:
    game = find_game("doublecross")(players, random.Random(seed), lexicon=enable())  # type: ignore[call-arg]
    assert isinstance(game, DoubleCross)
    seats = [DoubleCrossPlayer(random.Random(seed * 10 + p)) for p in range(players)]
    for _ in range(5000):
        if game.outcome is not None:
            return game
        action = seats[game.to_move].choose(game)
        verdict = game.apply(action)
        assert verdict.accepted, (action, verdict.reason)
    raise AssertionError("the game did not end in 5000 actions")


# Seeds whose games pay some tile's owner in another player's turn and end with
# unstable tiles on the board, so that the recount covers both.
SEEDS = {2: 3, 3: 1, 4: 1}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_computer_players_finish_a_game_and_scores_match_a_recount(players: int) -> None:
    game = play_out(players, seed=SEEDS[players])
    assert game.outcome is not None
    assert game.scores() == recount(game.record, players)
    placed = sum(isinstance(a, PlaceTile) for a in game.history)
    assert placed > 30, "the players hardly played"
    # Points came to seats in other players' turns too, and every end penalty is there.
    kinds = {n.kind for notes in game.record for n in notes}
    assert {"completed", "stable"} <= kinds
    paid_to_others = [
        n
        for notes in game.record
        for n in notes
        if n.kind == "stable" and n.player not in {m.player for m in notes if m.kind == "completed"}
    ]
    assert paid_to_others, "no tile was ever paid for in another player's turn"
    assert "unstable-penalty" in kinds
    assert game.scores() == [sum(row) for row in zip(*_points_by_verdict(game), strict=True)]


def _points_by_verdict(game: DoubleCross) -> list[list[int]]:
    """Each action's points per seat, from replaying the game's history."""
    seed = SEEDS[game.players]
    replay = DoubleCross(game.players, random.Random(seed), lexicon=enable())
    out = []
    for action in game.history:
        out.append(replay.apply(action).points(game.players))
    assert replay.state_dict() == game.state_dict()
    return out


def test_the_winner_has_the_top_score() -> None:
    game = play_out(2, seed=11)
    assert game.outcome is not None
    top = max(game.scores())
    assert [p for p, s in enumerate(game.scores()) if s == top] == list(game.outcome.winners)
