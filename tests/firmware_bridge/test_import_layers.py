"""The referee layer's imports: no cycle inside firmware_bridge, and no simulation in the daemon."""

from __future__ import annotations

import ast
from pathlib import Path

import firmware_bridge

PACKAGE = Path(firmware_bridge.__file__).parent


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, name: str) -> set[str]:
    """The firmware_bridge modules ``path`` imports, wherever the import stands."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("firmware_bridge"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if not target.startswith("firmware_bridge"):
                continue
            out.add(target)
            for alias in node.names:
                out.add(f"{target}.{alias.name}")
    return out


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {m for m in _imports(path, name) if m in modules and m != name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the modules along it, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_no_module_of_firmware_bridge_imports_itself_round_a_cycle() -> None:
    cycle = _cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_daemon_never_imports_the_simulation() -> None:
    graph = _graph()
    reached = _reachable(graph, "firmware_bridge.apps.daemon")
    assert "firmware_bridge.runtime.session" in reached, "the walk follows the daemon's imports"
    simulated = sorted(m for m in reached if m.startswith("firmware_bridge.sim"))
    assert not simulated, f"the daemon imports the simulation: {simulated}"


LIMIT = 400
"""No module of the package is longer (the firmware, which the Pico runs, aside)."""


def test_no_module_of_the_package_is_over_400_lines() -> None:
    long = {
        str(path.relative_to(PACKAGE)): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if "firmware" not in path.relative_to(PACKAGE).parts[:1]
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    }
    assert not long, f"modules over {LIMIT} lines (split them by job): {long}"


def test_the_package_is_in_sub_packages() -> None:
    """Only the package's own __init__ stands at its top: every module is in the
    sub-package of its layer (apps, sim, spectate, runtime, journal, kits, referees,
    link, screen, storage) or is the Pico's firmware."""
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    assert not loose, f"modules outside a sub-package: {loose}"
