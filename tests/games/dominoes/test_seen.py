"""A Dominoes game as one seat's board knows it: its own hand, stand-ins for the other
hand and the boneyard, arranged before each move so that the rules reach what the
table saw; a whole game played so agrees with the real one at every move."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.core import Outcome
from games.dominoes.board import Domino
from games.dominoes.game import Discard, Dominoes, DominoesPlayer, Draw, Place
from games.dominoes.seen import arrange, domino_of, seat_deal, settle
from games.errors import GameError


def _view(game: Dominoes, seat: int) -> dict[str, Any]:
    """What ``seat`` sees: the state but for the layout, its hand listed, the other's
    counted (both listed once the game is over)."""
    view = {k: v for k, v in game.state_dict().items() if k != "layout"}
    over = game.outcome is not None
    view["hands"] = [
        [str(d) for d in game.hand(s)] if over or s == seat else len(game.hand(s))
        for s in range(game.players)
    ]
    return view


def _guest_for(real: Dominoes, seat: int) -> Dominoes:
    guest = Dominoes(real.players, random.Random(999))
    seat_deal(guest, {seat: real.hand(seat)}, real.to_move)
    return guest


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_a_whole_game_seen_from_one_seat_agrees_with_the_real_one(seed: int) -> None:
    real = Dominoes(2, random.Random(seed))
    guest = _guest_for(real, 1)
    assert guest.hand(0) != real.hand(0) or guest.boneyard_count == real.boneyard_count
    assert _view(guest, 1) == _view(real, 1)
    player = DominoesPlayer(random.Random(seed))
    kinds: set[str] = set()
    while real.outcome is None:
        action = player.choose(real)
        real.apply(action)
        want = _view(real, 1)
        over = real.outcome is not None

        def check(after: Dominoes, want: dict[str, Any] = want, over: bool = over) -> bool:
            seen = _view(after, 1)
            if over:
                drop = ("hands", "outcome")
                return {k: v for k, v in seen.items() if k not in drop} == {
                    k: v for k, v in want.items() if k not in drop
                }
            return seen == want

        drawn: list[Domino] = []
        if guest.to_move == 1 and not over:
            kept = guest.hand(1)
            if isinstance(action, Place | Discard):
                played = action.domino if isinstance(action, Place) else Domino(action.a, action.b)
                kept.remove(played.key())
            drawn = real.hand(1)[len(kept) :]
        assert arrange(guest, frozenset({1}), action, check, drawn), (seed, len(real.history))
        guest.apply(action)
        kinds.add(str(guest.phase))
        if over:
            hands = [real.hand(s) for s in range(2)]
            assert real.outcome is not None
            settle(guest, hands, real.outcome)
        assert _view(guest, 1) == _view(real, 1), len(real.history)
    assert guest.outcome == real.outcome
    assert "discard" in kinds or "play" in kinds


def test_the_other_hand_is_only_ever_stand_ins() -> None:
    real = Dominoes(2, random.Random(3))
    guest = _guest_for(real, 1)
    # The guest's board was given seat 1's hand only: seat 0's is the sets' first
    # dominoes not in it, whatever the real deal was.
    for seed in (4, 5):
        other = Dominoes(2, random.Random(seed))
        if other.hand(1) == real.hand(1):
            continue
        assert _guest_for(other, 1).hand(0) != _guest_for(other, 1).hand(1)
    assert guest.hand(1) == real.hand(1)
    assert sorted(guest.hand(0)) == guest.hand(0)  # in the sets' order: a stand-in


def test_a_domino_the_board_has_seen_cannot_be_the_others() -> None:
    guest = Dominoes(2, random.Random(1))
    # Seat 1 holds both copies of 2-5 (there are two double-six sets): seat 0 cannot
    # lay or discard one, whatever order the stand-ins are in.
    seat_deal(guest, {1: [Domino(2, 5), Domino(2, 5), Domino(0, 0)]}, 0)
    assert not arrange(guest, frozenset({1}), Discard(2, 5), lambda after: True)
    assert not arrange(guest, frozenset({1}), Place(5, 2, "H8", "H9"), lambda after: True)
    before = (guest.hand(0), guest.boneyard_count)
    assert arrange(guest, frozenset({1}), Draw(), lambda after: after.phase == "play")
    assert (len(guest.hand(0)), guest.boneyard_count) == (len(before[0]), before[1])


def test_bad_deals_are_refused() -> None:
    game = Dominoes(2, random.Random(1))
    with pytest.raises(GameError, match="holding 3"):
        seat_deal(game, {1: [Domino(0, 1)]}, 0)
    with pytest.raises(GameError, match="not a domino left"):
        seat_deal(game, {1: [Domino(0, 1)] * 3}, 0)
    with pytest.raises(GameError, match="such as"):
        domino_of("seven")
    game.apply(Draw())
    with pytest.raises(GameError, match="before anything"):
        seat_deal(game, {1: game.hand(1)}, 0)
    with pytest.raises(GameError, match="one hand per player"):
        settle(game, [[]], Outcome((0,), "x"))
