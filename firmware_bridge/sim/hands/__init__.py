"""The simulated hands, one a game: how a computer's action is carried out on the board.

Each game's kit names its hand (``Kit.hand``); it is imported when first asked for.
"""

from __future__ import annotations

from pkgutil import resolve_name
from typing import Any

from ...kits import KITS
from ...referees.referee import Referee
from .base import Hand, Step

__all__ = ["Hand", "Step", "hand_for"]


def hand_for(referee: Referee[Any]) -> Hand[Any]:
    """The hand that plays ``referee``'s game."""
    kit = KITS.get(referee.game.name)
    if kit is None:
        raise ValueError(f"no simulated hand plays {referee.game.title} yet")
    hand: Hand[Any] = resolve_name(kit.hand)(referee)
    return hand
