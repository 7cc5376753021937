"""A script line that moves a piece the player to move does not hold is a mistake in
the script: refused with its line, before anything is journaled, unless the line
begins with ``wrong``."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.sim.script import ScriptError, parse_all
from tests.firmware_bridge.sim_runs import Play


def sim(tmp_path: Path, game: str, text: str, *extra: str) -> tuple[int, str]:
    """``tabletop sim --json``: its exit code and what it printed (for the tests of the
    command line's refusals)."""
    script = tmp_path / "script.txt"
    script.write_text(text)
    out = io.StringIO()
    code = main(["sim", "--game", game, "--script", str(script), "--json", *extra], out=out)
    return code, out.getvalue()


def refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, text: str, *extra: str
) -> str:
    journal = tmp_path / "j.sqlite"
    code, _ = sim(tmp_path, game, text, "--journal", str(journal), *extra)
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert not journal.exists(), "a script that cannot run journals nothing"
    return err


@pytest.mark.parametrize(
    ("game", "text", "line", "why"),
    [
        (
            "double-take",
            "lift c3\nplace d4\nlift d4\nplace e5\n",
            3,
            "d4 holds red's piece, and it is green's move",
        ),
        ("double-take", "slide b7 b6\n", 1, "b7 holds green's piece, and it is red's move"),
        (
            "doubles-wild",
            "dice 3 4 2 3\npress roll\nplace r7c5 red\n",
            3,
            "it is blue's turn, and the ball is red",
        ),
        (
            "doubles-wild",
            "dice 3 4 2 3\npress roll\nplace r7c5 green\n",
            3,
            "no one plays green in a 2-player game",
        ),
        (
            "dominoes",
            "press roll\nplace H8,I8 3-5\n",
            2,
            "player 1 does not hold 3-5 (the hand holds",
        ),
        ("dominoes", "press roll\nplace H8 2-5:5\n", 2, "player 1 does not hold 2-5"),
    ],
)
def test_a_piece_not_the_movers_is_refused_before_the_game_starts(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    game: str,
    text: str,
    line: int,
    why: str,
) -> None:
    err = refused(tmp_path, capsys, game, text)
    assert f"line {line}: {why}" in err
    assert "write 'wrong " in err


def test_a_crosslet_tile_not_on_the_dealt_rack_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.firmware_bridge.kits.crosslet.referee_helpers import bag

    options = ["--option", f"bag={bag('CATERS?', 'DOGINQU')}", "--option", "first=1"]
    err = refused(tmp_path, capsys, "crosslet", "place H8,I8,J8 CAT\nplace K8 T\n", *options)
    assert "line 2: player 1 has no T left after the tiles laid this turn" in err
    assert "(the rack holds A C E R S T ?)" in err
    # The second player's tiles are refused on the first player's turn.
    err = refused(tmp_path, capsys, "crosslet", "place H8,I8 DO\n", *options)
    assert "line 1: player 1 has no D (the rack holds A C E R S T ?)" in err


def test_wrong_makes_the_mistake_on_purpose_and_the_referee_refuses_it(play: Play) -> None:
    text = "dice 3 4 2 3\npress roll\nwrong place r7c5 red\n"
    run = play("doubles-wild", profile="doubles-wild-rfid-pico", script=text)
    assert any(
        fix["action"] == "lift" and fix["cell"] == "r7c5" for s in run.states for fix in s.fixes
    )


def test_the_other_sides_pieces_may_be_lifted_in_a_capture(play: Play) -> None:
    # The script runs whole (a line it could not carry out would raise).
    script = Path(__file__).parent / "scenarios" / "dt_capture_lifted.txt"
    run = play("double-take", script=script.read_text())
    assert len(run.game.history) >= 1


def test_a_piece_put_back_as_a_fix_asks_is_not_refused(play: Play) -> None:
    # Red's illegal move is undone by putting red's piece back: no fix, no refusal.
    # The script runs whole (a line it could not carry out would raise).
    script = Path(__file__).parent / "scenarios" / "dt_illegal_then_fixed.txt"
    play("double-take", script=script.read_text())


def test_a_line_that_cannot_run_later_in_the_game_stops_before_the_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(tmp_path, capsys, "double-take", "lift c3\nplace d4\nlift c3\n")
    assert "line 3: there is nothing on c3 to lift" in err


def test_a_resumed_journal_is_checked_on_a_copy_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "j.sqlite"
    assert sim(tmp_path, "double-take", "lift c3\nplace d4\n", "--journal", str(journal))[0] == 0
    before = journal.read_bytes()
    # Green to move in the resumed game: lifting red's d4 is refused, on the copy only.
    code, _ = sim(tmp_path, "double-take", "lift d4\nplace e5\n", "--journal", str(journal))
    assert code == 2
    assert "line 1: d4 holds red's piece, and it is green's move" in capsys.readouterr().err
    assert journal.read_bytes() == before
    with sqlite3.connect(journal) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)
    # Green's own move plays on in the journal.
    assert sim(tmp_path, "double-take", "lift b7\nplace b6\n", "--journal", str(journal))[0] == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("wrong press ok\n", "line 1: 'wrong' goes before place, lift, slide"),
        ("wrong\n", "line 1: 'wrong' goes before place, lift, slide"),
    ],
)
def test_wrong_goes_only_before_a_line_that_moves_a_piece(text: str, expected: str) -> None:
    with pytest.raises(ScriptError, match=expected):
        parse_all(text)


def test_wrong_is_kept_through_the_cell_names_and_shown_in_the_line() -> None:
    (line,) = parse_all("WRONG place R7C5 red\n")
    assert line.deliberate and line.text() == "wrong place R7C5 red"
