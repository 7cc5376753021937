"""Where a Double Double Dominoes turn stands at the table, and the words for tags and cells."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from msgspec import Struct, field

from games.core import Action
from games.dominoes.board import cell_index
from games.dominoes.game import Discard, Domino, Dominoes, Place

from .count import TieCount

_HALF = re.compile(r"^([0-6])\s*-\s*([0-6])\s*(?::|half)\s*([0-6])$", re.IGNORECASE)


@lru_cache(maxsize=1024)
def parse_half(label: str) -> tuple[Domino, int] | None:
    """A half's label as (the domino, smaller pip first; the pip on that half), or None."""
    m = _HALF.match(label.strip())
    if m is None:
        return None
    a, b, pip = (int(g) for g in m.groups())
    if pip not in (a, b):
        return None
    return Domino(a, b).key(), pip


@lru_cache(maxsize=1024)
def normalise_half(label: str) -> str | None:
    """The one spelling of a half's label (``"3-6:6"``), or None if it is not a half."""
    half = parse_half(label)
    if half is None:
        return None
    return f"{half[0]}:{half[1]}"


def short(seat: int) -> str:
    return f"P{seat + 1}"


def span(cells: list[str]) -> str:
    return "–".join(sorted(cells, key=cell_index))


def dominoes_text(items: list[Domino]) -> str:
    return " ".join(str(d) for d in sorted(items))


def tied(game: Dominoes) -> tuple[int, ...]:
    """The seats sharing the best score."""
    scores = game.scores()
    best = max(scores)
    return tuple(p for p in range(game.players) if scores[p] == best)


def discards(game: Dominoes) -> list[Discard]:
    """What may go to the pit now, in the order the cursor walks them."""
    return [a for a in game.legal_actions() if isinstance(a, Discard)]


def new_turn(game: Dominoes, facts: object) -> DominoesTurn:
    """A Dominoes turn as a table takes the game up."""
    return DominoesTurn()


class DominoesTurn(Struct):
    rejection: str = ""
    """Why the board was refused (empty: not refused)."""
    waiting: str = ""
    """What the board is waiting for: the other half of a domino."""
    cursor: int = 0
    """The domino under the cursor when one must go to the pit."""
    dealt: tuple[int, list[Domino]] | None = None
    """Who took which dominoes from the boneyard with the last action."""
    note: str = ""
    """A hint after a button that means nothing now."""
    map_shown: bool = False
    """``roll`` (when it draws nothing) shows the whole board's map: the diamonds."""
    count: TieCount | None = None
    """The count of the tied hands after a points tie (None: no tie)."""
    mover: int = 0
    """Who made the action being committed."""
    before: list[Domino] = field(default_factory=list)
    """The mover's hand before it."""
    chooser_board: dict[str, str] = field(default_factory=dict)
    """The board the "Which domino?" menu was opened for."""

    def counting(self) -> bool:
        """Whether the tied hands are being counted (the result waits for it)."""
        return self.count is not None and not self.count.done

    def taken(self, game: Dominoes, action: Action) -> list[Domino]:
        """The dominoes the mover took from the boneyard with ``action``.

        The domino laid or pitted leaves the hand first, so a refill that is its
        twin is still seen as taken.
        """
        kept = Counter(self.before)
        if isinstance(action, Place):
            kept[Domino(action.domino_a, action.domino_b).key()] -= 1
        elif isinstance(action, Discard):
            kept[Domino(action.a, action.b).key()] -= 1
        return list((Counter(game.hand(self.mover)) - +kept).elements())
