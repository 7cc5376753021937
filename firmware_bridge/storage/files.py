"""Writing a file whole or not at all.

Every file the table keeps beside its journal (the start menu's memory, the live
state, the tag register, the simulated board's pieces, a cached lexicon, an
installed unit) is written under a temporary name of its own in the same folder
and renamed over the old one. A power cut or a full disk then leaves either the
old file or the new one, never half of one, and two programs writing the same file
at once never share a temporary name.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_whole(
    path: Path,
    data: str | bytes,
    *,
    mode: int | None = None,
    group: int | None = None,
    durable: bool = True,
    make_folder: bool = False,
) -> None:
    """Put ``data`` at ``path`` in one rename.

    ``mode`` sets the file's permissions whatever the umask, ``group`` its group;
    ``durable`` flushes it to the disk before the rename (leave it off for a file
    that is only a cache or is rewritten every second); ``make_folder`` creates the
    folder first. A link standing at ``path`` is replaced, never followed. Raises
    ``OSError`` with nothing left behind but the file as it was.
    """
    if make_folder:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            if group is not None:
                os.fchown(out.fileno(), -1, group)
            if mode is not None:
                os.fchmod(out.fileno(), mode)
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
