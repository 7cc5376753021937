"""``tabletop sim --game doublecross --setup FILE``: a whole DoubleCross set-up from a
TOML file, played by a script; a tile not on the mover's rack stops the script."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.apps.cli import main
from tests.firmware_bridge.sim_runs import Play

SCENARIOS = Path(__file__).parents[2] / "scenarios"
SETUP = """\
first = 1
start_word = "CAT"
racks = ["AXERST", "OEDINS"]
bag = "EEEAAOOIINNRRTTLLSSUDG"

[specials]
H9 = "ns"
"""
"""The set-up the dc_points scenario names in its comments."""


pytestmark = pytest.mark.usefixtures("kit_lexicon")


def setup_file(tmp_path: Path) -> Path:
    setup = tmp_path / "doublecross.toml"
    setup.write_text(SETUP)
    return setup


def run(tmp_path: Path, script: Path, *extra: str) -> tuple[int, list[dict[str, Any]]]:
    """``tabletop sim --json --setup FILE``: its exit code and the states it printed."""
    setup = setup_file(tmp_path)
    out = io.StringIO()
    args = ["sim", "--game", "doublecross", "--json", "--setup", str(setup), *extra]
    code = main([*args, "--script", str(script)], out=out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_setup_file_sets_up_the_scripted_game(tmp_path: Path, play: Play) -> None:
    run = play("doublecross", setup=setup_file(tmp_path), script=SCENARIOS / "dc_points.txt")
    first = run.states[0]
    assert first.turn == "player 1"
    assert first.extra["racks"] == {"player 1": list("AXERST"), "player 2": list("OEDINS")}
    assert first.extra["specials"] == {"H9": "ns"}
    assert {c: t["label"] for c, t in first.layout.items()} == {"G8": "C", "H8": "A", "I8": "T"}
    assert run.scores == {"player 1": 5, "player 2": 6}


def test_a_tile_not_on_the_movers_rack_is_refused_before_anything_is_journaled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line's exit code, stderr and final line are what is tested."""
    script = tmp_path / "wrong.txt"
    script.write_text("pace 0.6\npress ok\nplace H9 O\n")
    journal = tmp_path / "j.sqlite"
    code, _ = run(tmp_path, script, "--journal", str(journal))
    assert code == 2
    err = capsys.readouterr().err
    assert "line 3: player 1 has no O (the rack holds A E R S T X)" in err
    assert not journal.exists()
    script.write_text("pace 0.6\npress ok\nwrong place H9 O\n")
    code, states = run(tmp_path, script)
    assert code == 0 and states[-1]["moves"] == 0
