"""Carrying a plan out under a root folder, or showing it for a dry run."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TextIO

from ...storage.files import write_whole
from ..errors import InstallError
from .places import WARNING, on_root
from .steps import Plan, Run, WriteFile
from .survey import Runner


def apply(plan: Plan, root: Path, runner: Runner, out: TextIO) -> None:
    """Carry out every step in order, saying what is done."""
    for step in plan.steps:
        print(f"tabletop: {step.describe()}", file=out, flush=True)
        if isinstance(step, Run):
            runner.run(step.argv)
        elif isinstance(step, WriteFile):
            _write(on_root(root, step.path), step.text, step.mode)
        else:
            target = on_root(root, step.path)
            try:
                if target.is_dir() and not target.is_symlink():
                    shutil.rmtree(target)
                else:
                    target.unlink(missing_ok=True)
            except OSError as exc:
                raise InstallError(f"cannot remove {step.path}: {exc.strerror}") from exc


def _write(path: Path, text: str, mode: int | None) -> None:
    """Write the whole file or nothing: a temporary file renamed over it."""
    try:
        write_whole(path, text, mode=mode, make_folder=True)
    except OSError as exc:
        raise InstallError(f"cannot write {path}: {exc.strerror}") from exc


def show(plan: Plan, out: TextIO, *, done: bool) -> None:
    """Print the plan (for --dry-run) or what is left to know after it ran."""
    if not done:
        if not plan.steps:
            print("tabletop: nothing to do: it is installed as asked", file=out)
        for step in plan.steps:
            print(f"would {step.describe()}", file=out)
    elif not plan.steps:
        print("tabletop: nothing to do: it is installed as asked", file=out)
    for note in plan.notes:
        print(note if note.startswith(WARNING) else f"note: {note}", file=out)
