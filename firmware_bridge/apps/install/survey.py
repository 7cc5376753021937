"""What the target system has already (the facts), and the runner of its commands."""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Protocol

from msgspec import Struct, field

from ..errors import InstallError
from .places import BOOT_CONFIG, CACHE_DIR, CONFIG, STATE_DIR, UNIT, UNIT_NAME, USER, WANTS, on_root


class Facts(Struct, frozen=True):
    """What the target system has now, as far as installing is concerned."""

    groups: dict[str, frozenset[str]]
    """Every group of /etc/group, with its member users."""
    user_exists: bool
    config_text: str | None
    unit_text: str | None
    enabled: bool
    active: bool
    state_dir: bool
    cache_dir: bool
    caches: frozenset[str]
    """The file names in the cache folder."""
    boot_config: str | None
    serial_targets: dict[str, str] = field(default_factory=dict)
    """Where each serial port symlink under /dev points, as far as it could be followed."""


class Runner(Protocol):
    """Runs the installer's commands."""

    def run(self, argv: Sequence[str]) -> None:
        """Run a command that changes the system; raise InstallError if it fails."""

    def query(self, argv: Sequence[str]) -> bool:
        """Run a command that only asks; whether it succeeded."""


class SystemRunner:
    """Runs commands for real, with subprocess."""

    def run(self, argv: Sequence[str]) -> None:
        try:
            done = subprocess.run(list(argv), capture_output=True, text=True, check=False)
        except OSError as exc:
            raise InstallError(
                f"cannot run {argv[0]}: {exc.strerror}; tabletop install is for Raspberry Pi "
                "OS (Debian with systemd)"
            ) from exc
        if done.returncode != 0:
            raise InstallError(
                f"{shlex.join(argv)} failed (exit {done.returncode}): "
                f"{(done.stderr or done.stdout).strip()}"
            )

    def query(self, argv: Sequence[str]) -> bool:
        try:
            return subprocess.run(list(argv), capture_output=True, check=False).returncode == 0
        except OSError:
            return False


def _read(root: Path, path: PurePosixPath) -> str | None:
    try:
        return on_root(root, path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InstallError(f"cannot read {path}: {exc.strerror}") from exc


def read_groups(text: str) -> dict[str, frozenset[str]]:
    """The groups of an /etc/group file, each with its member users."""
    groups: dict[str, frozenset[str]] = {}
    for line in text.splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[0]:
            groups[parts[0]] = frozenset(m for m in parts[3].split(",") if m)
    return groups


def survey(root: Path, runner: Runner, serial_ports: Sequence[str] = ()) -> Facts:
    """Look at the system under ``root``: users, groups, files, and the service's state."""
    passwd = _read(root, PurePosixPath("/etc/passwd")) or ""
    users = {line.split(":", 1)[0] for line in passwd.splitlines() if line}
    cache = on_root(root, CACHE_DIR)
    targets = {}
    for port in serial_ports:
        try:
            targets[port] = str(on_root(root, PurePosixPath(port)).resolve(strict=True).name)
        except (OSError, ValueError):
            continue
    return Facts(
        groups=read_groups(_read(root, PurePosixPath("/etc/group")) or ""),
        user_exists=USER in users,
        config_text=_read(root, CONFIG),
        unit_text=_read(root, UNIT),
        enabled=on_root(root, WANTS).is_symlink() or on_root(root, WANTS).exists(),
        active=runner.query(["systemctl", "is-active", "--quiet", UNIT_NAME]),
        state_dir=on_root(root, STATE_DIR).is_dir(),
        cache_dir=cache.is_dir(),
        caches=frozenset(p.name for p in cache.iterdir()) if cache.is_dir() else frozenset(),
        boot_config=_read(root, BOOT_CONFIG),
        serial_targets=targets,
    )
