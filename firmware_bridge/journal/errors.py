"""What can go wrong with a journal file, as errors whose messages say what to do."""

from __future__ import annotations

import os
from pathlib import Path

LOW_SPACE_BYTES = 1 << 20
"""Below this much free space, a write that fails is put down to a full disk."""

# SQLite's primary result codes that say something about the file's surroundings
# rather than its contents.
_PERM, _BUSY, _LOCKED, _NOMEM, _READONLY, _IOERR, _FULL, _CANTOPEN = 3, 5, 6, 7, 8, 10, 13, 14


class JournalError(RuntimeError):
    """The journal file cannot be opened, read or written; the message says what to do."""


class JournalDamaged(JournalError):
    """The file is damaged or is not a tabletop journal: moving it aside loses nothing."""


class JournalInUse(JournalError):
    """Another process writes this journal: one journal has one writer at a time."""


class JournalFull(JournalError):
    """The disk is full: the input was not written, and can be written again later."""


_EFFECTIVE = os.access in os.supports_effective_ids


def check_writable(path: Path) -> None:
    """Raise a JournalError naming ``path`` if this user may not write the journal."""
    if not os.access(path, os.W_OK, effective_ids=_EFFECTIVE):
        raise JournalError(
            f"the journal {path} cannot be written (it is read-only): make it "
            "and its folder writable by the user tabletop runs as, or check that "
            "the disk is not mounted read-only; nothing was changed"
        )


def _clean(text: str, limit: int = 160) -> str:
    """``text`` on one line of printable characters: damaged rows hold any bytes."""
    flat = "".join(c if c.isprintable() else "?" for c in " ".join(text.split()))
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _free_bytes(path: Path) -> int:
    """Free space on the journal's disk; as if plenty when its folder cannot be asked
    (a missing folder is not a full disk)."""
    import shutil  # here: only a failed write needs it

    try:
        return shutil.disk_usage(path.parent).free
    except OSError:
        return LOW_SPACE_BYTES


def _space_advice(path: Path, otherwise: str) -> str:
    if _free_bytes(path) < LOW_SPACE_BYTES:
        return "the disk is full: free some space on it and start again"
    return otherwise
