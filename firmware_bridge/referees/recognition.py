"""Move recognition on occupancy boards: which legal action does the board show?

An occupancy board cannot tell pieces apart, so an action is known by its
footprint: the cells it empties and the cells it fills. Comparing the settled
board with the layout gives the cells emptied and filled so far; an action whose
footprint equals them is complete, one whose footprint contains them is in
progress, and a board that fits no footprint shows an illegal move.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from enum import Enum

from msgspec import Struct, field

from games.core import Action, Cell


class Footprint(Struct, frozen=True):
    action: Action
    lifts: frozenset[Cell]
    places: frozenset[Cell]


class Kind(Enum):
    MATCH = "match"
    """The board shows the layout: nothing has happened."""
    COMPLETE = "complete"
    """The board shows exactly the result of one or more legal actions."""
    PROGRESS = "progress"
    """The board is on the way to one or more legal actions."""
    ILLEGAL = "illegal"
    """No legal action explains the board."""


class Recognition(Struct, frozen=True):
    kind: Kind
    removed: frozenset[Cell]
    added: frozenset[Cell]
    complete: tuple[Footprint, ...] = ()
    progress: tuple[Footprint, ...] = field(default=())

    @property
    def ambiguous(self) -> bool:
        """More than one action fits, or one fits and another is still possible."""
        return len(self.complete) > 1 or (len(self.complete) == 1 and bool(self.progress))


def recognise(
    layout: Set[Cell],
    board: Set[Cell],
    footprints: Iterable[Footprint],
    vacated: Set[Cell] = frozenset(),
) -> Recognition:
    """Classify the settled ``board`` (occupied cells) against ``layout``.

    ``vacated`` holds every cell seen empty during this turn; when several complete
    actions fit, those that only lift vacated cells are preferred.
    """
    removed = frozenset(layout - board)
    added = frozenset(board - layout)
    if not removed and not added:
        return Recognition(Kind.MATCH, removed, added)
    complete: list[Footprint] = []
    progress: list[Footprint] = []
    for fp in footprints:
        if fp.lifts == removed and fp.places == added:
            complete.append(fp)
        elif removed <= fp.lifts and added <= fp.places:
            progress.append(fp)
    if len(complete) > 1:
        preferred = [fp for fp in complete if fp.lifts <= vacated]
        if preferred:
            complete = preferred
    if complete:
        return Recognition(Kind.COMPLETE, removed, added, tuple(complete), tuple(progress))
    if progress:
        return Recognition(Kind.PROGRESS, removed, added, (), tuple(progress))
    return Recognition(Kind.ILLEGAL, removed, added)
