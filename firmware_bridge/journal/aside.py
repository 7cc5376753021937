"""Setting a damaged journal aside, and the service's journal opened or started anew."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from .errors import JournalDamaged, JournalError
from .writing import Journal


def set_aside(path: Path, when: datetime | None = None) -> Path:
    """Move a damaged journal (with its -wal and -shm files) aside under a timestamped name.

    ``j.sqlite`` becomes ``j.sqlite.damaged-20261125T1412``; nothing is deleted.
    """
    stamp = (when or datetime.now(UTC)).strftime("%Y%m%dT%H%M")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    for suffix in ("-wal", "-shm", "-journal"):
        extra = Path(f"{path}{suffix}")
        if extra.exists():
            os.replace(extra, Path(f"{aside}{suffix}"))
    os.replace(path, aside)
    return aside


def open_or_set_aside(path: Path, when: datetime | None = None) -> tuple[Journal, str | None]:
    """The service's journal, and a notice for its display if it had to start a new one.

    A damaged file, or one that is not a journal, is moved aside (never deleted or
    overwritten) and a new journal started, so the board plays on; the notice says
    where the old file went. Every other problem (read-only, a full disk, a newer
    journal) is raised: starting afresh would not mend it. The service's own folder
    is made if it is missing.
    """
    try:
        return Journal(path, make_folder=True), None
    except JournalDamaged as exc:
        try:
            aside = set_aside(path, when)
        except OSError as move:
            raise JournalError(
                f"{exc}; moving it aside failed too ({move.strerror}): check that its "
                "folder is writable by the user tabletop runs as"
            ) from move
        notice = f"The journal was damaged: it was kept as {aside.name}; a new one was started."
        return Journal(path, make_folder=True), notice


def start_anew(journal: Journal, why: str, when: datetime | None = None) -> tuple[Journal, str]:
    """Close ``journal``, move it aside and start a new one at its path; the notice.

    For a journal that opens but whose unfinished game cannot be resumed (a game or a
    setting this tabletop does not know, a move that does not replay): as for other
    damage, the file is kept whole under a timestamped name and the board plays on.
    ``why`` is what was wrong, for the log.
    """
    path = journal.path
    journal.close()
    try:
        aside = set_aside(path, when)
    except OSError as move:
        raise JournalError(
            f"the journal {path} cannot be resumed ({why}); moving it aside failed too "
            f"({move.strerror}): check that its folder is writable by the user tabletop "
            "runs as"
        ) from move
    notice = (
        f"The journal's unfinished game cannot be resumed: it was kept as {aside.name}; "
        "a new one was started."
    )
    return Journal(path, make_folder=True), notice
