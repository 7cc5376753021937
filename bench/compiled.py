"""The move generator compiled as ``TABLETOP_COMPILE=1 pip install .`` compiles it.

``build(folder)`` copies the ``games`` package and the build files into ``folder``
and runs ``setup.py`` there with ``TABLETOP_COMPILE=1``, so the extension is the one
an install makes, and nothing is written into the repository. ``environment(tree)``
is what a child process needs to import that tree's ``games`` (compiled) before the
repository's (pure Python); the rest (``firmware_bridge``, ``bench``) still comes
from the repository.

It needs mypy (a test dependency), a C compiler and the Python headers.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD_FILES = ("setup.py", "pyproject.toml", "README.md")


class CannotCompile(RuntimeError):
    """The compiled move generator could not be built here."""


def build(folder: Path) -> Path:
    """Build the compiled ``games`` package in ``folder``; return the tree to import it
    from. Raises CannotCompile, with what is missing, if the build fails."""
    if importlib.util.find_spec("mypyc") is None:
        raise CannotCompile(f"mypyc is not installed for {sys.executable}: pip install mypy")
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        raise CannotCompile(f"no C compiler ({compiler}): on Debian, apt install gcc")
    tree = folder / "tree"
    shutil.copytree(ROOT / "games", tree / "games", ignore=shutil.ignore_patterns("__pycache__"))
    for name in BUILD_FILES:
        shutil.copy2(ROOT / name, tree / name)
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
        cwd=tree,
        env={**os.environ, "TABLETOP_COMPILE": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise CannotCompile(f"setup.py build_ext failed:\n{done.stdout}{done.stderr}")
    if not extension(tree):
        raise CannotCompile(f"setup.py build_ext made no move generator extension in {tree}")
    return tree


def extension(tree: Path) -> Path | None:
    """The compiled ``games.crosslet.movegen`` in ``tree``, if there is one."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    found = tree / "games" / "crosslet" / f"movegen{suffix}"
    return found if found.exists() else None


def environment(tree: Path) -> dict[str, str]:
    """The environment of a child that imports ``games`` from ``tree`` (run it with
    ``cwd=tree``, so that no other ``games`` comes first)."""
    paths = [str(tree), str(ROOT), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
