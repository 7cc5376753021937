"""Reconciliation: what must change on the board so it matches the layout.

The difference between the layout (what the rules say stands where) and the
observation (what the sensors say) becomes a list of fixes: removals first, then
placements, each naming its cell.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum

from msgspec import Struct

from games.core import Cell, Piece
from hardware.board import OCCUPIED

Matcher = Callable[[Piece, str], bool]
"""Whether a sensed value (OCCUPIED or a tag id) shows the given piece."""


def occupancy_matcher(piece: Piece, sensed: str) -> bool:
    """On an occupancy board any sensed piece stands for any piece."""
    return bool(sensed)


class FixAction(StrEnum):
    LIFT = "lift"
    PLACE = "place"


class Fix(Struct, frozen=True):
    """One thing for the players to do to the board."""

    action: FixAction
    cell: Cell
    piece: Piece | None = None
    note: str = ""

    def text(self) -> str:
        if self.action is FixAction.LIFT:
            what = f"the {self.note} piece" if self.note else "the piece"
            return f"Lift {what} on {self.cell}"
        label = describe(self.piece) if self.piece else "a piece"
        return f"Put {label} on {self.cell}"

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"action": self.action, "cell": self.cell, "text": self.text()}
        if self.piece is not None:
            d["piece"] = self.piece.to_dict()
        return d


def describe(piece: Piece) -> str:
    """A short name for a piece as players say it: "red", "E", "6-3"."""
    if piece.kind == "domino":
        return piece.label.split(":")[0]
    if piece.kind == "tile" and piece.label == "?":
        return "a blank"
    return piece.label or piece.kind


def reconcile(
    layout: Mapping[Cell, Piece],
    observation: Mapping[Cell, str],
    order: Sequence[Cell],
    matches: Matcher = occupancy_matcher,
    labels: Callable[[str], str | None] | None = None,
) -> list[Fix]:
    """Fixes that turn ``observation`` into ``layout``: removals first, in board order.

    ``labels`` turns a tag id into the piece label it was enrolled as, so that a
    wrong piece is named when it is lifted.
    """
    rank = {cell: i for i, cell in enumerate(order)}
    lifts: list[Fix] = []
    places: list[Fix] = []
    for cell in sorted(set(layout) | set(observation), key=lambda c: (rank.get(c, 1 << 30), c)):
        piece = layout.get(cell)
        sensed = observation.get(cell)
        if sensed and (piece is None or not matches(piece, sensed)):
            note = ""
            if sensed != OCCUPIED and labels is not None:
                note = labels(sensed) or "unknown"
            lifts.append(Fix(FixAction.LIFT, cell, None, note))
        if piece is not None and (not sensed or not matches(piece, sensed)):
            places.append(Fix(FixAction.PLACE, cell, piece))
    return lifts + places
