"""The journal's records of a game's inputs, one type a kind: an action played, a
take-back of earlier actions, the seats the computer plays. A stored row is read into
its type in one place (:func:`entry_of`), which refuses a malformed one by saying what
is wrong with it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from msgspec import Struct


class Entry(Struct, frozen=True):
    """One input of a game, in the order the journal took them."""

    kind: ClassVar[str]
    seq: int
    """Its number in the journal, counted over every game."""
    at: str
    """When it was journaled (UTC, ISO 8601)."""

    @property
    def payload(self) -> dict[str, Any]:
        """What is stored for it, as JSON takes it."""
        raise NotImplementedError


class ActionEntry(Entry, frozen=True):
    """An action the table played, as the game encodes it (``Action.to_dict``)."""

    kind: ClassVar[str] = "action"
    action: dict[str, Any]

    @property
    def payload(self) -> dict[str, Any]:
        return self.action


class TakeBackEntry(Entry, frozen=True):
    """A take-back: the action entries it withdraws, by number (they stay in the journal)."""

    kind: ClassVar[str] = "takeback"
    undo: tuple[int, ...]

    @property
    def payload(self) -> dict[str, Any]:
        return {"undo": list(self.undo)}


class SeatsEntry(Entry, frozen=True):
    """The seats the computer plays from here on, counted from 0, and the level of each
    that does not play at the default one (``games.levels``)."""

    kind: ClassVar[str] = "seats"
    computer: frozenset[int]
    levels: tuple[tuple[int, int], ...] = ()
    """(seat, level) for each computer seat not at the default level, by seat."""

    @property
    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"computer": sorted(self.computer)}
        if self.levels:
            out["levels"] = {str(seat): level for seat, level in self.levels}
        return out


def _levels(value: object, what: str) -> tuple[tuple[int, int], ...]:
    """``{"1": 3}`` (seat from 0 as text: level) as ((1, 3),)."""
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and k.isdigit() and isinstance(v, int) and not isinstance(v, bool)
        for k, v in value.items()
    ):
        raise ValueError(f"{what} is {value!r}, not a table of seat numbers to levels")
    return tuple(sorted((int(k), v) for k, v in value.items()))


def _numbers(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in value
    ):
        raise ValueError(f"{what} is {value!r}, not a list of whole numbers")
    return tuple(value)


def entry_of(seq: int, kind: str, payload: Mapping[str, Any], at: str) -> Entry:
    """The typed entry of a stored row (its payload already read as a JSON object)."""
    where = f"input {seq}'s"
    if kind == ActionEntry.kind:
        return ActionEntry(seq, at, dict(payload))
    if kind == TakeBackEntry.kind:
        return TakeBackEntry(seq, at, _numbers(payload.get("undo"), f"{where} take-back"))
    if kind == SeatsEntry.kind:
        seats = _numbers(payload.get("computer", []), f"{where} computer seats")
        levels = _levels(payload.get("levels", {}), f"{where} computer levels")
        return SeatsEntry(seq, at, frozenset(seats), levels)
    kinds = ", ".join(k.kind for k in (ActionEntry, TakeBackEntry, SeatsEntry))
    raise ValueError(f"{where} kind is {kind!r}, not one of {kinds}")
