"""The errors of ``firmware_bridge.spectate``, in one place."""

from __future__ import annotations


class MessageRefused(ValueError):
    """A message the hub will not take; the text says why."""
