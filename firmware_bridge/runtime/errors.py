"""The errors of ``firmware_bridge.runtime``, in one place."""

from __future__ import annotations


class TagError(ValueError):
    """A tag id, a label or a tag table file is not valid; the message says which."""


class TagConflictError(TagError):
    """A tag is already enrolled under another label."""


class TakeBackRefused(Exception):
    """There is nothing to take back, or the game is over: the reason is the message."""
