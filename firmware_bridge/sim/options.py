"""What a simulation is asked for: the game, its seats and seed, the board's profile,
the journal, and how it starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msgspec import Struct

from ..runtime.takeback import Unseen


class SimOptions(Struct):
    game: str | None
    """The game (None: the start menu chooses it)."""
    players: int = 2
    seed: int = 1
    profile: str | None = None
    journal: Path | None = None
    frames: Path | None = None
    options: dict[str, Any] | None = None
    resume: int | None = None
    """The id of the journal's game to play on (default: its newest unfinished one)."""
    unseen: Unseen | None = None
    """What the seed of the journal's game did not deal, arranged as it is resumed (a
    guest's game of hidden pieces: the host's views kept beside the journal)."""
    lobby: bool = False
    """Start at the start menu (``--lobby``); ``game`` is then only its first choice."""
    humans: frozenset[int] | None = None
    """The seats people play (from 0), the script moving for them; the computer plays
    the others, its moves shown on the OLED and carried out by the simulated hand.
    None: no seat is the computer's at the table (the script, or else the simulated
    players, move for every seat)."""
    set_up_by_hand: bool = False
    """A new game's board starts as a real table's does: what the players lay as the
    OLED walks them through the set-up (DoubleCross's start word) is laid by the
    simulated hand then. False: it lies on the board from the start (a script builds
    on it)."""
    levels: dict[int, int] | None = None
    """The level of each computer seat given one (``--level SEAT=N``, from 0), the
    others at the default level (``games.levels``)."""
    firmware: str = "python"
    """What runs a serial board's firmware: ``"python"`` (in this process) or
    ``"micropython"`` (the MicroPython unix port, with a Pico-sized heap)."""
