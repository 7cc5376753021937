"""Where the service lives on the target system, and the installer's one error."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

USER = "tabletop"
UNIT_NAME = "tabletop.service"
CONFIG = PurePosixPath("/etc/tabletop/tabletop.toml")
UNIT = PurePosixPath("/etc/systemd/system") / UNIT_NAME
WANTS = PurePosixPath("/etc/systemd/system/multi-user.target.wants") / UNIT_NAME
STATE_DIR = PurePosixPath("/var/lib/tabletop")
CACHE_DIR = PurePosixPath("/var/cache/tabletop")
BOOT_CONFIG = PurePosixPath("/boot/firmware/config.txt")
I2C_FAST = "dtparam=i2c_arm_baudrate=400000"
WARNING = "warning: "
"""How a dry run's plan begins a problem that would stop the install itself."""
HIDDEN_FROM_SERVICE = ("/home", "/root", "/run/user", "/tmp", "/var/tmp")
"""Folders the unit hides from the service (ProtectHome=, PrivateTmp=)."""


def on_root(root: Path, path: PurePosixPath) -> Path:
    """``path`` of the target system, as found under ``root``."""
    return root / path.relative_to("/")
