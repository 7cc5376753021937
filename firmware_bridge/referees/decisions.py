"""What a referee decides, and the record of an action the session played.

A referee never acts on the table itself: it returns decisions and the session
carries them out (judge once, journal, apply, show).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec import Struct

from games.core import Action, Game, Verdict


class Commit(Struct, frozen=True):
    """Play this action: the session judges it, journals it and applies it."""

    action: Action


class Reject(Struct, frozen=True):
    """Tell the table that what it tried is not allowed, and why."""

    reason: str


class Confirm(Struct, frozen=True):
    """The table's answer was taken, though no action is played (a count agreed)."""


class TakeBack(Struct, frozen=True):
    """Undo the last accepted action: the session journals the take-back and replays the
    game without it."""

    automatic: tuple[bool, ...] = ()
    """For each action of the game's history, in order, whether the table played it
    itself (a pass for a player who cannot move): it is withdrawn with the one before."""


class RollDice(Struct, frozen=True):
    """Roll ``count`` of the station's dice and play what ``make`` makes of the faces:
    the session rolls them from the table's dice (the OS's randomness on the Pi, the
    seeded dice in simulation), so the journal holds the faces and a referee never
    touches a source of randomness."""

    count: int
    make: Callable[[tuple[int, ...]], Action]


Decision = Commit | Reject | Confirm | TakeBack | RollDice


class Played(Struct, frozen=True):
    """One accepted action as the table saw it: who, what, the words shown, the points."""

    number: int
    """Its place in the game's history, counted from 1."""
    mover: int
    player: str
    action: Action
    text: str
    verdict: Verdict
    points: tuple[int, ...]
    story: str = ""
    """The action as the game's story tells it (the view's ``story``; "": ``text``)."""

    def to_dict(self, seat_name: Callable[[int], str]) -> dict[str, Any]:
        """The ``move`` entry of the ``--json`` stream."""
        return {
            "player": self.player,
            "action": self.action.to_dict(),
            "text": self.text,
            "points": {seat_name(p): n for p, n in enumerate(self.points)},
        }


def mover_of(game: Game, action: Action) -> int:
    """The seat ``action`` is credited to, judged before it is played."""
    # An action that names its player (a rack seen, a resignation, the last
    # passer's end of a DoubleCross game) is that player's, whoever is to move.
    player: int = getattr(action, "player", game.to_move)
    return player


def played_record(
    game: Game,
    describe: Callable[[Action], str],
    mover: int,
    action: Action,
    verdict: Verdict,
    story: Callable[[Action], str] | None = None,
) -> Played:
    """The record of ``action``, the last of ``game``'s history, credited to ``mover``."""
    return Played(
        number=len(game.history),
        mover=mover,
        player=game.seat_name(mover),
        action=action,
        text=describe(action),
        verdict=verdict,
        points=tuple(verdict.points(game.players)),
        story=story(action) if story is not None else "",
    )
