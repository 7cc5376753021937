"""One option of a game, as its rules declare it (each game's ``ABOUT``): its name, the
values it takes, its default and one line of help. The game checks its settings
against them, and the table (``firmware_bridge/kits/options.py``) checks what a
person gives before a game is made, with the same words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["number", "choice", "tiles", "letters", "word", "racks", "cells", "path"]

_KIND_VALUES: dict[str, str] = {
    "tiles": "the tiles in drawing order, as letters (? for a blank)",
    "letters": "letters A to Z in drawing order, as a string or a list",
    "word": "a word of letters A to Z",
    "racks": "a list of strings of letters, one rack a seat, seat 1 first",
    "cells": 'a table of cell = kind (in --option, JSON: {"H3": "bonus"})',
    "path": "the path of a file",
}


@dataclass(frozen=True)
class OptionSpec:
    """One option of one game.

    ``kind``: ``"number"`` a whole number from ``lo`` to ``hi`` (``seat`` makes the
    top the last seat, counted from ``lo``); ``"choice"`` one of ``choices``;
    ``"tiles"`` a string of letters (``?`` a blank) or a list; ``"letters"`` the same
    without blanks; ``"word"`` a string; ``"racks"`` a list of strings; ``"cells"`` a
    table of cell names to strings; ``"path"`` a file, set by ``flag`` rather than
    ``--option``. The game's own check (its kit's ``check_options``) looks at the
    letters, counts and cells together.
    """

    name: str
    kind: Kind
    default: str
    help: str
    choices: tuple[str, ...] = ()
    lo: int | None = None
    hi: int | None = None
    seat: bool = False
    flag: str = ""
    """The command-line flag that sets it instead of ``--option`` ("" if none)."""

    def values(self, players: int | None = None) -> str:
        """What values it takes, in words."""
        if self.kind == "choice":
            return " or ".join(repr(c) for c in self.choices)
        if self.kind in _KIND_VALUES:
            return _KIND_VALUES[self.kind]
        hi: int | str | None = self.hi
        if self.seat:
            hi = self._last_seat(players) if players is not None else "the last seat"
        if hi is None:
            return f"a whole number of at least {self.lo}"
        return f"a whole number from {self.lo} to {hi}"

    def problem(self, value: object, players: int | None) -> str | None:
        """Why ``value`` is not a value of this option, or None when it is."""
        if self.kind == "choice":
            return None if value in self.choices else f"must be {self.values()}"
        if self.kind in ("tiles", "letters"):
            ok = isinstance(value, str) or (
                isinstance(value, list) and all(isinstance(t, str) for t in value)
            )
            return None if ok else f"must be {self.values()}"
        if self.kind == "racks":
            ok = isinstance(value, list) and all(isinstance(t, str) for t in value)
            return None if ok else f"must be {self.values()}"
        if self.kind == "cells":
            ok = isinstance(value, dict) and all(isinstance(t, str) for t in value.values())
            return None if ok else f"must be {self.values()}"
        if self.kind in ("word", "path"):
            return None if isinstance(value, str) and value else f"must be {self.values()}"
        hi = (self._last_seat(players) if players is not None else None) if self.seat else self.hi
        if isinstance(value, bool) or not isinstance(value, int):
            return f"must be {self.values(players)}"
        if (self.lo is not None and value < self.lo) or (hi is not None and value > hi):
            return f"must be {self.values(players)}"
        return None

    def _last_seat(self, players: int) -> int:
        return players - 1 + (self.lo or 0)

    def line(self, players: int | None = None) -> str:
        """``rows=N  a whole number from 8 to 10 (default 9): ranks on the board``."""
        how = f"{self.flag} FILE" if self.flag else f"{self.name}="
        return f"{how}  {self.values(players)} (default {self.default}): {self.help}"

    def refused(self, value: object, players: int | None) -> str | None:
        """``rows must be a whole number from 8 to 10, not 11``: why the rules refuse
        ``value`` for this option, or None when they take it."""
        why = self.problem(value, players)
        return None if why is None else f"{self.name} {why}, not {value!r}"


FIRST_SEAT = OptionSpec(
    "first", "number", "drawn at random", "the seat that starts, from 1", lo=1, seat=True
)
"""The seat that starts, for a game that lets it be chosen."""

WORD_LIST = OptionSpec(
    "words",
    "path",
    "the ENABLE list",
    "your own word list, one word a line",
    flag="--words",
)
"""A word game's own word list, set by ``--words``."""
