"""A Dominoes script line that names a whole domino on one cell is refused by name."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main


@pytest.mark.parametrize(
    ("line", "refused"),
    [
        ("place H8 6-3", True),  # a whole domino on one cell
        ("place H8 6-3:6", False),  # one half
        ("place H8 stone", False),  # a stray piece, refused by the table, not the script
    ],
)
def test_a_whole_domino_on_one_cell_is_a_script_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, refused: bool
) -> None:
    script = tmp_path / "s.txt"
    script.write_text(line + "\n")
    code = main(["sim", "--game", "dominoes", "--script", str(script)], out=io.StringIO())
    err = capsys.readouterr().err
    if refused:
        assert code == 2
        assert "line 1" in err and "'place H8,H9 6-3'" in err and "'place H8 6-3:6'" in err
    else:
        assert "names one cell" not in err  # (the half may be one the mover lacks)
