"""The SQLite journal: every accepted input of a game, committed before it is shown.

A game is its name, player count, seed, options and the list of inputs it
accepted. Replaying them rebuilds the game exactly; dice are inputs too, so a
resumed game never re-rolls.

Every way the file can fail (damaged, not a journal, read-only, written by a
newer tabletop, a full disk) comes out as a :class:`JournalError` whose message
names the file and says what to do; nothing is written to a file that fails its
checks.

The journal in parts: its layout and migrations (``schema``), its errors
(``errors``), opening and checking the file (``file``), reading games and inputs
back (``reading``), writing them (``writing``), and setting a damaged file aside
(``aside``).
"""

from __future__ import annotations

from ..referees.game_record import GameRecord
from .aside import open_or_set_aside, set_aside, start_anew
from .entries import ActionEntry, Entry, SeatsEntry, TakeBackEntry
from .errors import (
    LOW_SPACE_BYTES,
    JournalDamaged,
    JournalError,
    JournalFull,
    JournalInUse,
    check_writable,
)
from .reading import GameSummary
from .schema import CACHE_KIB, COLUMNS, GAME_COLUMNS, KINDS, SCHEMA, SCHEMA_VERSION, current_options
from .writing import CHECKPOINT_EVERY, Journal

__all__ = [
    "CACHE_KIB",
    "CHECKPOINT_EVERY",
    "COLUMNS",
    "GAME_COLUMNS",
    "KINDS",
    "LOW_SPACE_BYTES",
    "SCHEMA",
    "SCHEMA_VERSION",
    "ActionEntry",
    "Entry",
    "GameRecord",
    "GameSummary",
    "Journal",
    "JournalDamaged",
    "JournalError",
    "JournalFull",
    "JournalInUse",
    "SeatsEntry",
    "TakeBackEntry",
    "check_writable",
    "current_options",
    "open_or_set_aside",
    "set_aside",
    "start_anew",
]
