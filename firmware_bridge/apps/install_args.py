"""The arguments of ``tabletop install`` and ``tabletop uninstall``.

Apart from :mod:`firmware_bridge.apps.install` so that building the command line, which
every command does, does not import the installer.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("install", help="install the service on this Pi (run with sudo)")
    p.add_argument("--profile", help="the board's profile (needed when there is no run config)")
    p.add_argument(
        "--i2c-fast",
        action=argparse.BooleanOptionalAction,
        help="set the I2C bus to 400 kHz in the Pi's boot config, for the OLED "
        "(asked when left out)",
    )
    _common(p)
    p = sub.add_parser("uninstall", help="remove the service; the saved games stay")
    _common(p)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dry-run", action="store_true", help="print what it would do, do nothing")
    p.add_argument(
        "--root",
        type=Path,
        default=Path("/"),
        metavar="DIR",
        help="plan for the system under DIR instead of / (with --dry-run: see what it "
        "would do to a copy of a Pi's files)",
    )
