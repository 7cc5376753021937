"""The simulated hands, one a game: how a computer's action is carried out on the board."""

from __future__ import annotations

import importlib
from typing import Any

from ...referee import Referee
from .base import Hand, Step

__all__ = ["Hand", "Step", "hand_for"]

_HANDS = {
    "double-take": ("double_take", "DoubleTakeHand"),
    "dominoes": ("dominoes", "DominoesHand"),
    "doubles-wild": ("doubles_wild", "DoublesWildHand"),
    "crosslet": ("crosslet", "CrossletHand"),
    "doublecross": ("doublecross", "DoubleCrossHand"),
}


def hand_for(referee: Referee[Any]) -> Hand[Any]:
    """The hand that plays ``referee``'s game."""
    name = referee.game.name
    if name not in _HANDS:
        raise ValueError(f"no simulated hand plays {referee.game.title} yet")
    module, cls = _HANDS[name]
    hand: Hand[Any] = getattr(importlib.import_module(f".{module}", __package__), cls)(referee)
    return hand
