"""Imports inside functions: what each saves the module that makes it, measured.

An import belongs at the top of its module, except where importing it there would
cost the module's start something it does not need yet: a library only one command
uses, the simulator the daemon never loads, the board's devices the first frame
comes before. This finds every import inside a function of ``firmware_bridge``
(the Pico's firmware aside) and times, in a fresh interpreter, importing what it
names once its own module is imported (its module's top-level imports loaded):
what moving it to the top would add to every start of that module. The median of
several interpreters, per import; the figure with a target counts the imports that
save less than ``FLOOR_MS`` (they belong at the top). ``tests/firmware_bridge/
test_lazy_imports.py`` checks, without a clock, that each one names a module its
own module has not loaded already.

    python bench/bench_lazy.py [--quick]     # the figures, then every import and its cost
"""

from __future__ import annotations

import argparse
import ast
import statistics
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "firmware_bridge"
SKIP = ("firmware", "pico_standin")
"""The Pico's firmware and its stand-in: MicroPython's code, loaded on the Pico."""
FLOOR_MS = 0.5
"""An import inside a function must save its module at least this much at start."""

_TIME = r"""
import importlib, sys, time
importlib.import_module(sys.argv[1])
start = time.perf_counter()
for name in sys.argv[2:]:
    try:
        importlib.import_module(name)
    except ImportError:
        pass  # a name imported from a module, not a module of its own
print((time.perf_counter() - start) * 1000)
"""


@dataclass(frozen=True)
class LazyImport:
    path: Path
    line: int
    importer: str
    """The module that makes the import."""
    modules: tuple[str, ...]
    """The module it imports, then each name it takes from it (some are modules too)."""
    text: str


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def lazy_imports() -> Iterator[LazyImport]:
    """Every import statement inside a function of the package, in file order."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if any(part in SKIP for part in path.relative_to(PACKAGE).parts):
            continue
        importer = module_name(path)
        package = importer if path.name == "__init__.py" else importer.rpartition(".")[0]
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        found = []
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import):
                    modules = tuple(alias.name for alias in inner.names)
                elif isinstance(inner, ast.ImportFrom):
                    base = package.split(".")
                    if inner.level:
                        base = base[: len(base) - inner.level + 1]
                        target = ".".join(base + ([inner.module] if inner.module else []))
                    else:
                        target = inner.module or ""
                    modules = (target, *(f"{target}.{a.name}" for a in inner.names))
                else:
                    continue
                found.append((inner.lineno, modules))
        for line, modules in sorted(set(found)):
            yield LazyImport(path, line, importer, modules, lines[line - 1].strip())


def cost_ms(item: LazyImport, runs: int) -> float:
    """The median time, in fresh interpreters, to import what ``item`` names once its
    own module is imported."""
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", _TIME, item.importer, *item.modules],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        times.append(float(out.stdout.split()[-1]))
    return statistics.median(times)


def measured(quick: bool) -> list[tuple[LazyImport, float]]:
    runs = 1 if quick else 5
    return [(item, cost_ms(item, runs)) for item in lazy_imports()]


def run(quick: bool) -> list[dict[str, Any]]:
    costs = [ms for _, ms in measured(quick)]
    return [
        {
            "figure": f"lazy imports saving < {FLOOR_MS:g} ms",
            "unit": "count",
            "target": 0.0,
            "better": "lower",
            "samples": [float(sum(ms < FLOOR_MS for ms in costs))],
        },
        {
            "figure": "what a lazy import saves (each)",
            "unit": "ms",
            "target": None,
            "better": "higher",
            "samples": costs,
        },
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one interpreter per import")
    args = parser.parse_args(argv)
    rows = sorted(measured(args.quick), key=lambda row: row[1])
    under = sum(ms < FLOOR_MS for _, ms in rows)
    print(f"{len(rows)} imports inside functions; {under} save less than {FLOOR_MS:g} ms")
    for item, ms in rows:
        where = f"{item.path.relative_to(ROOT)}:{item.line}"
        print(f"{ms:8.2f} ms  {where:<48} {item.text}")
    return 1 if under else 0


if __name__ == "__main__":
    sys.exit(main())
