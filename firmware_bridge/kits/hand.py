"""The simulated hand: the physical steps that carry a computer's action out on the board.

A hand reads its game's referee (what the table waits for, where a cursor stands)
and answers in script lines; the daemon never imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from games.core import Action

from ..referees.referee import Referee

R = TypeVar("R", bound=Referee[Any])

Step = tuple[str, ...]
"""One script line as its words: ``("place", "c5", "red")``."""


class Hand(Generic[R]):
    judged_as_laid = True
    """Whether the game judges each piece as the board sees it land (a step, a domino,
    a ball), so that a person looks at the OLED for the verdict before going on; False
    where a turn's pieces are laid one after another and ok asks for the verdict."""

    def __init__(self, referee: R) -> None:
        self.referee = referee

    def piece_labels(self, cells: list[str], piece: str) -> list[str]:
        """What each cell's tag says when a script lays ``piece`` on ``cells``.

        One piece on one cell by default; a domino's hand splits ``6-3`` over two.
        """
        return [piece] * len(cells)

    def not_the_movers(
        self, verb: str, cells: list[str], labels: list[str], board: Mapping[str, str]
    ) -> str | None:
        """Why a script's ``place``, ``lift`` or ``slide`` (``verb``) on ``cells`` moves a
        piece the player to move does not hold, or None (also when it cannot be told).

        ``labels`` are what ``place`` lays on each cell, ``board`` what stands on each
        cell now. Asked only while the game is on and the table waits for no fix.
        """
        return None

    def steps(self, action: Action) -> list[Step]:
        """The physical steps (script lines) that carry ``action`` out on the board."""
        return []

    def script_steps(self, verb: str, args: tuple[str, ...]) -> list[Step] | None:
        """The steps of a script line only this game knows (DoubleCross's ``bomb``);
        None when the game has no such line."""
        return None

    def check_script_line(self, verb: str, args: tuple[str, ...]) -> None:
        """Raise ValueError if a line only this game knows is wrong in itself."""
