"""Records outside the rules are msgspec Structs, not dataclasses.

Python 3.11 compiles a dataclass's generated methods from source every time a
program starts (about 1.1 ms for a frozen class); msgspec makes a Struct in C.
Creating our dataclasses was most of what our code added to the time to the
first frame (docs/performance.md, cold start), so a dataclass creeping back into
the package would slow every start. The rules in games/ keep the standard
library's dataclasses: they need nothing installed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import msgspec
import pytest

from firmware_bridge.journal.entries import ActionEntry
from wiring.profile import Timing

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("firmware_bridge", "wiring", "hardware")


def _dataclasses_in(path: Path) -> list[str]:
    """The classes in ``path`` decorated with ``dataclass`` (under any import name)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.ClassDef):
            continue
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name == "dataclass":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    return found


def test_no_dataclass_outside_the_rules() -> None:
    files = [p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))]
    assert len(files) > 100
    found = [hit for path in files for hit in _dataclasses_in(path)]
    assert found == [], "make these msgspec Structs (class X(Struct, frozen=True)):\n" + "\n".join(
        found
    )


def test_the_scan_sees_a_dataclass() -> None:
    sample = ROOT / "games" / "core.py"
    assert _dataclasses_in(sample), "games/core.py's records are dataclasses; the scan missed them"


def test_a_frozen_record_refuses_a_change_and_compares_by_value() -> None:
    timing = Timing()
    with pytest.raises(AttributeError):
        timing.loop_us = 1.0  # type: ignore[misc]
    assert msgspec.structs.replace(timing) == timing
    assert hash(msgspec.structs.replace(timing)) == hash(timing)
    one = ActionEntry(seq=1, at="2026-11-28T00:00:00Z", action={"kind": "pass"})
    assert one != ActionEntry(seq=2, at=one.at, action=one.action)
    assert one == ActionEntry(seq=1, at=one.at, action={"kind": "pass"})
