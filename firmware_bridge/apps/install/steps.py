"""The steps a plan of the installer is made of: a file to write or remove, a command to run."""

from __future__ import annotations

import shlex
from pathlib import PurePosixPath

from msgspec import Struct, field


class WriteFile(Struct, frozen=True):
    """Write ``text`` to ``path`` (a path on the target system) with ``mode``."""

    path: PurePosixPath
    text: str
    mode: int | None
    """None keeps the file's mode (the Pi's boot folder is FAT: it has none)."""
    why: str

    def describe(self) -> str:
        mode = "" if self.mode is None else f" (mode {self.mode:04o})"
        return f"write {self.path}{mode}: {self.why}"


class Remove(Struct, frozen=True):
    """Remove the file or folder ``path``."""

    path: PurePosixPath
    why: str

    def describe(self) -> str:
        return f"remove {self.path}: {self.why}"


class Run(Struct, frozen=True):
    """Run a command."""

    argv: tuple[str, ...]
    why: str

    def describe(self) -> str:
        return f"run {shlex.join(self.argv)}: {self.why}"


Step = WriteFile | Remove | Run


class Plan(Struct, frozen=True):
    steps: list[Step]
    notes: list[str] = field(default_factory=list)
    """What the user should know that no step does (a group this system lacks, a reboot)."""
