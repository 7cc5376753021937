"""A whole script played first on a table of its own, so that a script that cannot
run stops before the real game journals anything.

The dry run is the real simulation with the same game, seed, options and board, kept
in memory (a journal being resumed is copied first), with no frames and no output.
Any line it cannot carry out (a cell the board lacks, a piece the game has not, a
piece the player to move does not hold, nothing on a cell to lift) is refused with
its line number.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Sequence
from pathlib import Path

from msgspec.structs import replace

from ..journal import Journal, JournalError, check_writable
from .runner import SimOptions, Simulation
from .script import Line, with_board_cells


def check_script(opts: SimOptions, lines: Sequence[Line]) -> None:
    """Play ``lines`` on a copy of the table ``opts`` describes; raise ``ScriptError``
    naming the first line that cannot run. The journal of ``opts`` is not written."""
    with tempfile.TemporaryDirectory(prefix="tabletop-dry-") as folder:
        journal = _copy_journal(opts.journal, Path(folder)) if opts.journal else None
        dry = Simulation(replace(opts, journal=journal, frames=None))
        try:
            dry.start()
            dry.run_script(list(with_board_cells(lines, dry.profile.cells)))
        finally:
            dry.close()


def _copy_journal(journal: Path, folder: Path) -> Path | None:
    """A copy of an existing journal (and the saved board beside it) in ``folder``;
    None when there is no journal yet (the dry run keeps its game in memory).

    The user's journal is checked first as the real run will open it (damaged, not a
    journal, newer, not writable), so that every message names the file the user gave,
    never the copy."""
    if not journal.exists():
        return None
    with Journal(journal, read_only=True) as source:
        check_writable(journal)
        copy = folder / journal.name
        try:
            target = sqlite3.connect(copy)
            try:
                source.db.backup(target)
            finally:
                target.close()
            board = journal.with_suffix(".board.json")
            if board.exists():
                shutil.copyfile(board, copy.with_suffix(".board.json"))
        except (sqlite3.Error, OSError) as exc:
            raise JournalError(
                f"cannot copy the journal {journal} to try the script on first "
                f"({folder.parent}: {exc}): free some space there, or set TMPDIR to a "
                "folder with room; the journal was not changed"
            ) from exc
    return copy
