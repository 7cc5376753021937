"""Scripts name cells in either case; a bad cell or piece is refused before anything
is journaled."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.sim.script import parse_all, with_board_cells
from tests.firmware_bridge.sim_runs import Play


def test_cells_take_the_boards_own_case() -> None:
    lines = parse_all("place h8,I8 6-3\nlift A1\nslide C3 c4 D5\npress ok\ntap zz9\n")
    fixed = with_board_cells(lines, ["H8", "I8", "a1", "c3", "c4", "d5"])
    assert isinstance(fixed, list)
    assert [line.args for line in fixed] == [
        ("H8,I8", "6-3"),
        ("a1",),
        ("c3", "c4", "d5"),
        ("ok",),
        ("zz9",),
    ]


def test_a_script_in_upper_case_plays_double_take(tmp_path: Path, play: Play) -> None:
    script = tmp_path / "upper.txt"
    script.write_text("LIFT C3\nPLACE D4\n")
    run = play("double-take", script=script)
    assert len(run.game.history) == 1
    assert [p.text for p in run.played] == ["c3-d4"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("lift c3\nplace d4\nlift z9\n", "there is no cell 'z9'"),
        ("lift c3\nplace d4\ntap J1\n", "line 3"),
    ],
)
def test_a_bad_line_is_refused_before_the_journal_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    """The command line's exit code and stderr are what is tested."""
    script = tmp_path / "bad.txt"
    script.write_text(text)
    journal = tmp_path / "j.sqlite"
    args = ["sim", "--game", "double-take", "--script", str(script), "--journal", str(journal)]
    assert main(args, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err
    assert not journal.exists()
