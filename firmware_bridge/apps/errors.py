"""The errors of ``firmware_bridge.apps``, in one place."""

from __future__ import annotations

from wiring.errors import WiringError


class BoardSilent(RuntimeError):
    """The board never reported: unplugged, or the profile names the wrong port."""


class InstallError(RuntimeError):
    """The service cannot be installed or removed as asked; the message says what to do."""


class SetupFileError(WiringError):
    """A set-up file that cannot be read as TOML."""
