"""A DoubleCross game as one seat's board knows it: dealt from what it sees (the start
word, the special spaces, who starts, its own rack), stand-ins for the other rack and
the bag, arranged before each move so that the rules reach what the table saw; a
whole game played so agrees with the real one at every move."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.core import Outcome
from games.doublecross.actions import EndTurn, NewLetters, PlaceTile
from games.doublecross.game import DoubleCross
from games.doublecross.player import DoubleCrossPlayer
from games.doublecross.seen import arrange, seat_options, settle
from games.errors import GameError
from tests.games.doublecross.helpers import enable


def _view(game: DoubleCross, seat: int) -> dict[str, Any]:
    view = dict(game.state_dict())
    over = game.outcome is not None
    view["racks"] = [
        game.rack(s) if over or s == seat else len(game.rack(s)) for s in range(game.players)
    ]
    return view


def _guest_for(real: DoubleCross, seat: int) -> DoubleCross:
    layout = real.state_dict()["layout"]
    start = {cell: tile["label"] for cell, tile in layout.items() if tile["owner"] is None}
    options = seat_options(
        real.players, real.to_move, start, real.specials(), {seat: real.rack(seat)}
    )
    return DoubleCross(real.players, random.Random(99), options, lexicon=enable())


@pytest.mark.parametrize("seed", [1, 3])
def test_a_whole_game_seen_from_one_seat_agrees_with_the_real_one(seed: int) -> None:
    real = DoubleCross(2, random.Random(seed), lexicon=enable())
    guest = _guest_for(real, 1)
    assert _view(guest, 1) == _view(real, 1)
    assert guest.rack(0) != real.rack(0) or guest.state.bag != real.state.bag
    players = [DoubleCrossPlayer(random.Random(seed * 10 + p)) for p in range(2)]
    kinds: set[str] = set()
    for _ in range(3000):
        if real.outcome is not None:
            break
        mover = real.to_move
        before = real.rack(mover)
        action = players[mover].choose(real)
        real.apply(action)
        kinds.add(action.type)
        want, over = _view(real, 1), real.outcome is not None

        def check(after: DoubleCross, want: dict[str, Any] = want, over: bool = over) -> bool:
            seen = _view(after, 1)
            if over:
                drop = ("racks", "outcome")
                return {k: v for k, v in seen.items() if k not in drop} == {
                    k: v for k, v in want.items() if k not in drop
                }
            return seen == want

        drawn: list[str] = []
        if mover == 1 and not over:
            kept = [] if isinstance(action, NewLetters) else list(before)
            if isinstance(action, PlaceTile):
                kept.remove(action.letter.upper())
            after = real.rack(1)
            drawn = after[len(kept) :] if after[: len(kept)] == kept else after
        assert arrange(guest, frozenset({1}), action, check, drawn), (seed, len(real.history))
        guest.apply(action)
        if over:
            assert real.outcome is not None
            settle(guest, [real.rack(s) for s in range(2)], real.outcome)
        assert _view(guest, 1) == _view(real, 1), len(real.history)
    assert real.outcome is not None and guest.outcome == real.outcome
    assert {"place", EndTurn.type} <= kinds


def test_a_tile_the_board_has_seen_cannot_be_the_others() -> None:
    real = DoubleCross(2, random.Random(1), lexicon=enable())
    guest = _guest_for(real, 1)
    if guest.to_move != 0:
        pytest.skip("seat 1 starts")
    # Every Q of the set (one) on seat 1's rack: seat 0 cannot lay one.
    options = seat_options(2, 0, {"G8": "C", "H8": "A", "I8": "T"}, {}, {1: list("QABCDE")})
    guest = DoubleCross(2, random.Random(0), options, lexicon=enable())
    assert not arrange(guest, frozenset({1}), PlaceTile("H9", "Q"), lambda after: True)
    with pytest.raises(GameError, match="more tiles"):
        seat_options(2, 0, {"H8": "Q"}, {}, {1: list("QQ")})
    with pytest.raises(GameError, match="one rack per player"):
        settle(guest, [[]], Outcome((0,), "x"))
