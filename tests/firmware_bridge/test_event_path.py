"""The path of one event in docs/architecture.md is the path the code takes.

The doc lists, numbered, the calls from the serial bytes to the journal and the frame
for one ball laid on the Doubles Wild RFID board. Here that event is played in the
simulator with every call of our packages traced (on the loop's thread and on the
thread that draws the frame while the disk syncs), and the list is checked against
the trace: each call is made, each exists under its name, and the loop's thread makes
them in the documented order.
"""

from __future__ import annotations

import importlib
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from firmware_bridge.runtime import overlap
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import parse_all, with_board_cells

DOC = Path(__file__).parents[2] / "docs" / "architecture.md"
SECTION = "## The path of one event"
ITEM = re.compile(r"^(\d+)\. `([\w.]+)`")
OURS = ("firmware_bridge.", "hardware.", "wiring.", "games.")
LIMIT = 20


def documented() -> list[str]:
    """The calls the doc lists, in its order."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    calls = []
    for line in text[start : end if end > 0 else None].splitlines():
        found = ITEM.match(line)
        if found:
            assert int(found.group(1)) == len(calls) + 1, f"the list is numbered in order: {line}"
            calls.append(found.group(2))
    return calls


def resolve(dotted: str) -> Any:
    """The function a dotted name names: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name)
        return found
    raise ModuleNotFoundError(dotted)


def test_the_documented_path_is_at_most_20_calls_that_exist() -> None:
    calls = documented()
    assert 10 <= len(calls) <= LIMIT, f"{len(calls)} calls listed"
    for dotted in calls:
        try:
            assert callable(resolve(dotted)), dotted
        except (AttributeError, ModuleNotFoundError) as error:
            pytest.fail(f"docs/architecture.md names {dotted}, which does not exist ({error})")


@pytest.fixture
def ball_laid() -> Iterator[list[tuple[bool, str]]]:
    """(on the loop's thread, module.qualname) of every call of ours, in order, while
    blue's ball is laid on r7c5 after a roll that allows it (dw_rfid_wrong_colour.txt)."""
    sim = Simulation(SimOptions("doubles-wild", seed=11, profile="doubles-wild-rfid-pico"))
    calls: list[tuple[bool, str]] = []
    lock = threading.Lock()
    main = threading.get_ident()

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call":
            module = frame.f_globals.get("__name__", "")
            if module.startswith(OURS):
                with lock:
                    calls.append(
                        (threading.get_ident() == main, f"{module}.{frame.f_code.co_qualname}")
                    )

    try:
        sim.start()
        setup = parse_all("dice 3 4 2 3\npress roll\n", "setup")
        sim.run_script(list(with_board_cells(setup, sim.profile.cells)))
        event = list(with_board_cells(parse_all("place r7c5 blue\n", "event"), sim.profile.cells))
        # The frame's drawing thread is made anew, so that it is traced from its start.
        overlap._worker.cache_clear()
        threading.setprofile(profile)
        sys.setprofile(profile)
        try:
            sim.run_script(event)
        finally:
            sys.setprofile(None)
            threading.setprofile(None)  # type: ignore[arg-type]
        assert sim.session.game.history[-1].to_dict() == {"type": "place", "cell": "r7c5"}
        yield calls
    finally:
        sim.close()


def test_one_ball_laid_takes_the_documented_path(ball_laid: list[tuple[bool, str]]) -> None:
    calls = documented()
    made = {name for _, name in ball_laid}
    missing = [c for c in calls if c not in made]
    assert not missing, f"documented but not made for this event: {missing}"
    # The loop's thread makes its calls in the documented order.
    mine = [c for c in calls if any(on_loop and name == c for on_loop, name in ball_laid)]
    at = 0
    for call in mine:
        try:
            at = next(i for i in range(at, len(ball_laid)) if ball_laid[i] == (True, call)) + 1
        except StopIteration:
            pytest.fail(f"{call} is not made after the calls listed before it")
    assert len(mine) >= len(calls) - 3, "only the frame's drawing runs on the other thread"
