"""The compiled move generator (``TABLETOP_COMPILE=1``) finds what the Python one finds.

The extension is built as an install builds it (``bench/compiled.py`` runs
``setup.py``), then the same seeded games are played and the same searches made by
a child importing it and by one importing the Python module: every move must come
out the same and in the same order, since the computer player breaks ties by order.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench import compiled

ROOT = Path(__file__).resolve().parents[3]

# Plays seeded two-player games to the end with the computer player; before each turn
# it lists every placement for the rack, for the rack with a blank in place of its
# first tile, and the top three, and prints it all as JSON.
_PLAY = """
import json, random, sys
from games.crosslet import movegen
from games.crosslet.game import Crosslet
from games.crosslet.player import CrossletPlayer
from firmware_bridge.kits.lexicon_store import load_generator, load_lexicon

lexicon = load_lexicon()
generator = load_generator(lexicon)
record = {"module": movegen.__file__, "actions": [], "searches": []}
for seed in range(int(sys.argv[1])):
    game = Crosslet(2, random.Random(seed), lexicon=lexicon, generator=generator)
    player = CrossletPlayer(generator, random.Random(seed))
    while game.outcome is None:
        board, rack = game.board_letters(), game.rack(game.to_move)
        for tiles in (rack, ["?", *rack[1:]]):
            found = [repr(m) for m in generator.moves(board, tiles)]
            top = repr(generator.top(board, tiles, 3))
            record["searches"].append([sorted(board.items()), tiles, found, top])
        action = player.choose(game)
        record["actions"].append(repr(action))
        game.apply(action)
    record["actions"].append(repr(game.outcome))
print(json.dumps(record))
"""
GAMES = 3


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        return compiled.build(tmp_path_factory.mktemp("compiled"))
    except compiled.CannotCompile as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must build the compiled move generator: {exc}")
        pytest.skip(str(exc))


def play(cwd: Path, env: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _PLAY, str(GAMES)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(done.stdout)
    return record


@pytest.mark.slow
def test_the_build_makes_an_extension_that_imports_before_the_python_module(tree: Path) -> None:
    extension = compiled.extension(tree)
    assert extension is not None
    # the source is installed beside it
    assert (tree / "games" / "crosslet" / "movegen.py").exists()
    done = subprocess.run(
        [sys.executable, "-c", "import games.crosslet.movegen as m; print(m.__file__)"],
        cwd=tree,
        env=compiled.environment(tree),
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(done.stdout.strip()) == extension


@pytest.mark.slow
def test_compiled_and_python_find_the_same_moves_in_the_same_order(tree: Path) -> None:
    fast = play(tree, compiled.environment(tree))
    pure = play(ROOT, dict(os.environ))
    assert fast["module"] == str(compiled.extension(tree))
    assert pure["module"].endswith("movegen.py")
    assert fast["actions"] == pure["actions"]  # the same games, to the same end
    assert len(fast["searches"]) == len(pure["searches"]) > 40 * GAMES
    total = 0
    for got, want in zip(fast["searches"], pure["searches"], strict=True):
        assert got[:2] == want[:2]
        assert got[2] == want[2], f"different placements for rack {want[1]} on {want[0]}"
        assert got[3] == want[3]
        total += len(want[2])
    assert total > 100_000  # blanks included: not a handful of moves


def _requires(
    folder: Path, value: str | None, hide_mypyc: bool
) -> subprocess.CompletedProcess[str]:
    """What the build asks for before it builds (PEP 517), from a copy of the build files."""
    for name in compiled.BUILD_FILES:
        shutil.copy2(ROOT / name, folder / name)
    env = {k: v for k, v in os.environ.items() if k != "TABLETOP_COMPILE"}
    if value is not None:
        env["TABLETOP_COMPILE"] = value
    hide = "sys.modules['mypyc'] = sys.modules['mypyc.build'] = None; " if hide_mypyc else ""
    code = f"import sys; {hide}from setuptools import build_meta as b; "
    code += "print(b.get_requires_for_build_wheel())"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("value", "mypy_asked"), [(None, False), ("0", False), ("1", True), ("yes", True)]
)
def test_the_build_asks_for_mypy_only_when_compiling(
    tmp_path: Path, value: str | None, mypy_asked: bool
) -> None:
    done = _requires(tmp_path, value, hide_mypyc=True)
    assert done.returncode == 0, done.stderr
    assert ("mypy>=" in done.stdout) is mypy_asked


def test_a_wrong_compile_setting_says_what_to_set(tmp_path: Path) -> None:
    done = _requires(tmp_path, "maybe", hide_mypyc=False)
    assert done.returncode != 0
    assert "TABLETOP_COMPILE='maybe': set it to 1 to compile, or leave it unset" in done.stderr
