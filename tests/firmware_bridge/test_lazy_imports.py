"""An import inside a function names a module its own module has not loaded.

Imports go at the top of a module, except where one would cost the module's start
something it does not need yet (``bench/bench_lazy.py`` measures each, and
``docs/performance.md`` says which and why). Without a clock, this checks the part
a clock is not needed for: every import inside a function of the package brings in
a module that importing its own module has not loaded already, so it saves
something; one that saves nothing belongs at the top.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict

from bench.bench_lazy import ROOT, lazy_imports

_LOADED = r"""
import importlib, importlib.util, json, sys
importlib.import_module(sys.argv[1])
loaded = set(sys.modules)  # before find_spec, which imports the parents of what it finds
absent = []
for name in sys.argv[2:]:
    if name in loaded:
        continue
    try:
        if importlib.util.find_spec(name) is not None:
            absent.append(name)  # a module, not loaded yet
    except (ImportError, ValueError):
        pass  # a function, class or constant taken from a module
print(json.dumps(absent))
"""


def test_every_import_inside_a_function_brings_in_something_new() -> None:
    wanted: dict[str, set[str]] = defaultdict(set)
    items = list(lazy_imports())
    assert len(items) > 50, "the walk finds the package's imports inside functions"
    for item in items:
        wanted[item.importer].update(item.modules)
    absent: dict[str, set[str]] = {}
    for importer, modules in wanted.items():
        out = subprocess.run(
            [sys.executable, "-c", _LOADED, importer, *sorted(modules)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        absent[importer] = set(json.loads(out.stdout))
    for item in items:
        # The module it imports, or (``from package import module``) a module it names.
        fresh = [m for m in item.modules if m in absent[item.importer]]
        assert fresh, (
            f"{item.path.relative_to(ROOT)}:{item.line}: {item.text!r} imports what "
            f"{item.importer} has loaded already: put it at the top of the module"
        )
