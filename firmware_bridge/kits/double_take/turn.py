"""Where a Double Take turn stands at the table: what its referee knows and its view shows."""

from __future__ import annotations

from msgspec import Struct, field

from ...referees.recognition import Kind, Recognition


def cells_text(cells: tuple[str, ...] | list[str]) -> str:
    """``a1``, ``a1 and b2``, ``a1, b2 and c3``."""
    items = sorted(cells)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class DoubleTakeTurn(Struct):
    vacated: set[str] = field(default_factory=set)
    """Every cell seen empty during this turn."""
    recognition: Recognition | None = None
    """What the settled board shows against the legal moves."""
    rejection: str = ""
    """Why the board was refused (empty: not refused)."""
    passed: str = ""
    """Who could not move and passed, said on the next screen."""

    def captured_to_lift(self) -> list[str]:
        """The sandwiched pieces still standing once a capture-only move is made."""
        rec = self.recognition
        if rec is None or rec.kind is not Kind.PROGRESS:
            return []
        placed = [fp for fp in rec.progress if fp.places == rec.added]
        return sorted(placed[0].lifts - rec.removed) if placed else []


def new_turn(game: object, facts: object) -> DoubleTakeTurn:
    """A Double Take turn as a table takes the game up."""
    return DoubleTakeTurn()
