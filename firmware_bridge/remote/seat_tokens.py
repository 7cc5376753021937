"""The browser seat's link: the secret token in its path.

128 random bits (``secrets.token_urlsafe``), compared in constant time, kept in a file
of mode 0600 written whole, which the host can revoke (:func:`revoke_link`,
``tabletop seat --revoke``) or replace (:func:`new_link`).
"""

from __future__ import annotations

import hmac
import re
import secrets
import threading
from pathlib import Path

from ..storage.files import write_whole

TOKEN_BYTES = 16
"""128 random bits: ``secrets.token_urlsafe`` writes them as 22 characters."""
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{22}$")
"""What a token looks like; anything else in a link is refused before it is compared."""


# -- the link's token -----------------------------------------------------------------
class Tokens:
    """The seat's one valid token, kept in ``path`` (mode 0600, written whole).

    Read again whenever the file changes, so a token revoked by another process
    (the host's menu, ``tabletop seat --revoke``) stops working at once.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._seen: tuple[int, int] | None = None
        self._token = ""
        self._lock = threading.Lock()

    def current(self) -> str:
        """The valid token ('' when the link is revoked)."""
        with self._lock:
            try:
                st = self.path.stat()
            except FileNotFoundError:
                self._seen, self._token = None, ""
                return ""
            stamp = (st.st_mtime_ns, st.st_size)
            if stamp != self._seen:
                text = self.path.read_text(encoding="ascii", errors="replace").strip()
                self._token = text if TOKEN_RE.match(text) else ""
                self._seen = stamp
            return self._token

    def valid(self, given: str) -> bool:
        """Whether ``given`` is the seat's token, compared in constant time."""
        now = self.current()
        if not now or not TOKEN_RE.match(given):
            return False
        return hmac.compare_digest(now.encode(), given.encode())

    def issue(self) -> str:
        """A new token in place of any other (the old link stops working)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        _write_private(self.path, token + "\n")
        return token

    def ensure(self) -> str:
        """The token kept in the file, or a new one if there is none."""
        return self.current() or self.issue()


def _write_private(path: Path, text: str) -> None:
    write_whole(path, text.encode("ascii"), mode=0o600, make_folder=True)


def revoke_link(path: Path) -> None:
    """Revoke the seat's link: the token file is emptied, so no link works until a new
    one is issued (:func:`new_link`). The host's menu calls this; so does
    ``tabletop seat --revoke``."""
    _write_private(path, "")


def new_link(path: Path) -> str:
    """Issue the seat a new token (the old link stops working); the new token."""
    return Tokens(path).issue()
