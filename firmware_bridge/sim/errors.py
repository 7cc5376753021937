"""The errors of ``firmware_bridge.sim``, in one place."""

from __future__ import annotations


class SimError(RuntimeError):
    """The simulation cannot be set up as asked."""
