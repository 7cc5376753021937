"""The computer's seats at a real table: what the computer plays next, and whether the
table carried exactly that out.

The computer's move is shown as an instruction; the people at the table make it on
the board, and the referee recognises it as it would a person's. A move that is not
the computer's is refused like an illegal one, so the board is fixed back.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from typing import Any

from games.core import Action, Game, Player, Resign

log = logging.getLogger("tabletop")

ROLLED = ("red", "blue", "values")
"""Fields of an action that the station's dice fill in (a roll's faces): the computer
chooses to roll, the dice say what comes up."""


def same_move(expected: Action, made: Action) -> bool:
    """Whether the table made the computer's move (whatever the dice rolled)."""
    if type(expected) is not type(made):
        return False
    ours, theirs = expected.to_dict(), made.to_dict()
    for name in ROLLED:
        ours.pop(name, None)
        theirs.pop(name, None)
    return bool(_canonical(ours) == _canonical(theirs))


def _canonical(value: Any) -> Any:
    """``value`` with every list in one order: the tiles of a word, the pieces a capture
    takes, the letters exchanged are the same move in whatever order they are named."""
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return sorted((_canonical(v) for v in value), key=repr)
    return value


def parse_seats(text: str, players: int) -> frozenset[int]:
    """Seats counted from 1, comma-separated (``"1,3"``), as seat indices from 0.

    Raises ValueError naming what is wrong and what is accepted.
    """
    seats: list[int] = []
    for raw in text.split(","):
        part = raw.strip()
        if not part.isdigit() or not 1 <= int(part) <= players:
            raise ValueError(
                f"--humans {text!r}: {part!r} is not a seat; give seats from 1 to {players} "
                "separated by commas, e.g. --humans 1 or --humans 1,3"
            )
        if int(part) - 1 in seats:
            raise ValueError(f"--humans {text!r}: seat {part} is named twice")
        seats.append(int(part) - 1)
    return frozenset(seats)


class Computer:
    """The computer's choice for the seat to move, the same for the same position."""

    def __init__(
        self,
        make_player: Callable[[Game, random.Random], Player],
        seed: int,
        seats: Iterable[int] = (),
    ) -> None:
        self.make_player = make_player
        self.seed = seed
        self.seats = frozenset(seats)
        """The seats the computer plays; the others are people's."""
        self._cached: tuple[int, int, Action] | None = None
        self._failed: tuple[int, int] | None = None

    def advise(self, game: Game) -> Action:
        """What the computer would play now for the seat to move (a hint, or its move).

        Its random source is seeded by the game's seed and the number of actions
        played, so the same position always gets the same advice, also after a restart.
        """
        key = (id(game), len(game.history))
        if self._cached is not None and self._cached[:2] == key:
            return self._cached[2]
        rng = random.Random(f"{self.seed}:{len(game.history)}")
        action = self.make_player(game, rng).choose(game)
        self._cached = (*key, action)
        return action

    def expected(self, game: Game) -> Action | None:
        """The move the computer makes now, or None when a person is to move and no
        computer seat acts out of turn (the last passer ending a DoubleCross game)."""
        if game.outcome is not None:
            return None
        waiting = [seat for seat in game.out_of_turn_seats() if seat in self.seats]
        if waiting:
            rng = random.Random(f"{self.seed}:{len(game.history)}")
            player = self.make_player(game, rng)
            for seat in waiting:
                action = player.out_of_turn(game, seat)
                if action is not None:
                    return action
        if game.to_move not in self.seats:
            return None
        key = (id(game), len(game.history))
        if self._failed == key:
            return None
        try:
            return self.advise(game)
        except ValueError as exc:
            # The computer cannot choose here (a rack it never saw): people play the turn.
            log.warning("the computer has no move for %s: %s", game.seat_name(game.to_move), exc)
            self._failed = key
            return None

    def refuses(self, game: Game, action: Action, mover: int) -> Action | None:
        """The computer's move, when ``action`` is made for it but is not that move."""
        if isinstance(action, Resign) or mover != game.to_move:
            return None
        expected = self.expected(game)
        if expected is None or same_move(expected, action):
            return None
        return expected

    def to_dict(self) -> dict[str, Any]:
        return {"computer": sorted(self.seats)}
