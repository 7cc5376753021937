"""``--setup FILE``: a game's options from a TOML file, checked as ``--option`` is,
with ``--option`` winning over the file."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.apps.errors import SetupFileError
from firmware_bridge.apps.setup_file import game_options
from firmware_bridge.journal import Journal
from firmware_bridge.kits.options import OptionError
from firmware_bridge.runtime.session_state import TableState
from tests.firmware_bridge.sim_runs import Play


def first_state(
    play: Play,
    game: str,
    setup: Path,
    options: tuple[str, ...] = (),
    journal: Path | None = None,
) -> TableState:
    """The first state of a game started with the set-up file ``setup`` (and ``options``)."""
    run = play(game, script="# set up only\n", setup=setup, options=options, journal=journal)
    return run.states[0]


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """``tabletop sim``'s refusal: exit code 2 and its stderr (the command line is tested)."""
    assert main(["sim", *args], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def write(tmp_path: Path, text: str, name: str = "setup.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_double_take_rows_from_a_setup_file(tmp_path: Path, play: Play) -> None:
    setup = write(tmp_path, "rows = 8\nrepetitions = 2\n")
    state = first_state(play, "double-take", setup)
    ranks = {int(cell[1:]) for cell in state.layout}
    assert max(ranks) == 8


def test_an_option_on_the_command_line_wins_over_the_file(tmp_path: Path, play: Play) -> None:
    setup = write(tmp_path, "rows = 9\nrepetitions = 2\n")
    state = first_state(play, "double-take", setup, ("rows=8",))
    assert max(int(cell[1:]) for cell in state.layout) == 8


def test_doubles_wild_balls_from_a_setup_file(tmp_path: Path, play: Play) -> None:
    setup = write(tmp_path, "balls = 5\n")
    state = first_state(play, "doubles-wild", setup)
    assert state.extra["balls_left"] == {"blue": 5, "red": 5}


def test_crosslet_first_seat_from_a_setup_file(tmp_path: Path, play: Play) -> None:
    setup = write(tmp_path, 'racks = "dealt"\nfirst = 2\n')
    state = first_state(play, "crosslet", setup)
    assert state.turn == list(state.scores)[1]


def test_dominoes_has_no_options_and_an_empty_file_is_fine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], play: Play
) -> None:
    empty = write(tmp_path, "# no options\n")
    assert first_state(play, "dominoes", empty).moves_played == 0
    bad = write(tmp_path, "target = 50\n", "bad.toml")
    err = refused(capsys, "--game", "dominoes", "--setup", str(bad))
    assert f"Double Double Dominoes has no options: take target out of {bad}" in err


def test_the_journal_keeps_the_options_of_the_file(tmp_path: Path, play: Play) -> None:
    setup = write(tmp_path, "rows = 8\n")
    journal = tmp_path / "j.sqlite"
    first_state(play, "double-take", setup, journal=journal)
    with Journal(journal) as j:
        assert j.game(1).options == {"rows": 8}


def test_an_unknown_key_names_the_file_and_lists_the_valid_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    setup = write(tmp_path, "row = 8\ncolour = 'blue'\n")
    journal = tmp_path / "j.sqlite"
    err = refused(capsys, "--game", "double-take", "--setup", str(setup), "--journal", str(journal))
    assert f"Double Take has no option 'row' ({setup}: row = 8); did you mean 'rows'?" in err
    assert f"Double Take has no option 'colour' ({setup}: colour = \"blue\")" in err
    assert "rows=  a whole number from 8 to 10" in err and "repetitions=" in err
    assert not journal.exists()


@pytest.mark.parametrize(
    ("game", "text", "expected"),
    [
        ("double-take", "rows = 12\n", "rows = 12: rows must be a whole number from 8 to 10"),
        ("double-take", 'rows = "eight"\n', 'rows = "eight": rows must be a whole number'),
        ("doubles-wild", "balls = 0\n", "balls must be a whole number of at least 1"),
        ("crosslet", "racks = 'hand'\n", "racks must be 'dealt' or 'table'"),
        ("crosslet", "first = 3\n", "first must be a whole number from 1 to 2"),
        ("crosslet", "words = '/tmp/w.txt'\n", "words is set with --words, not in a setup file"),
        ("double-take", "[rows]\nn = 8\n", 'rows = {"n": 8}: rows must be a whole number'),
    ],
)
def test_a_bad_value_in_the_file_says_which_and_what_it_takes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, text: str, expected: str
) -> None:
    setup = write(tmp_path, text)
    assert expected in refused(capsys, "--game", game, "--setup", str(setup))


def test_a_toml_syntax_error_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    setup = write(tmp_path, "rows = 8\nrepetitions = \n")
    err = refused(capsys, "--game", "double-take", "--setup", str(setup))
    assert f"cannot read the setup file {setup}" in err
    assert f"{setup}: line 2, column 15: TOML syntax error" in err


@pytest.mark.parametrize("what", ["missing", "folder"])
def test_a_missing_file_or_a_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str
) -> None:
    path = tmp_path / "setup.toml"
    if what == "folder":
        path.mkdir()
    err = refused(capsys, "--game", "double-take", "--setup", str(path))
    assert ("no such file" if what == "missing" else "is a folder") in err


def test_a_resumed_game_says_the_setup_file_is_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "j.sqlite"
    script = write(tmp_path, "lift c3\nplace d4\n", "one.txt")
    args = ["sim", "--game", "double-take", "--journal", str(journal), "--script", str(script)]
    assert main(args, out=io.StringIO()) == 0
    capsys.readouterr()
    setup = write(tmp_path, "rows = 8\n")
    empty = write(tmp_path, "# nothing more\n", "empty.txt")
    args[-1] = str(empty)
    assert main([*args, "--setup", str(setup)], out=io.StringIO()) == 0
    assert "--setup ignored" in capsys.readouterr().err


DOUBLECROSS_SETUP = """\
min_word = 4
first = 2
start_word = "ROAD"
racks = ["RTSEMO", "DUEAIN"]
bag = "QZXJK"

[specials]
H3 = "bonus"
B2 = "nsew"
C3 = "block"
A1 = "bomb-2"
"""


def test_a_doublecross_setup_file_sets_the_whole_game(tmp_path: Path) -> None:
    from games.doublecross.game import DoubleCross
    from tests.games.doublecross.helpers import small_lexicon

    setup = write(tmp_path, DOUBLECROSS_SETUP)
    options = game_options("doublecross", [], setup, 2, None)
    g = DoubleCross(2, random.Random(1), options, lexicon=small_lexicon())
    assert g.word_judge.min_word == 4 and g.to_move == 1 and g.start_word == "ROAD"
    assert [g.rack(0), g.rack(1)] == [list("RTSEMO"), list("DUEAIN")]
    assert g.state.bag == list("QZXJK")
    assert g.specials() == {"A1": "bomb-2", "B2": "nsew", "C3": "block", "H3": "bonus"}


def test_doublecross_options_on_the_command_line_win_over_the_file(tmp_path: Path) -> None:
    setup = write(tmp_path, DOUBLECROSS_SETUP)
    options = game_options("doublecross", ["first=1", 'specials={"D4": "mystery"}'], setup, 2, None)
    assert options["first"] == 1 and options["specials"] == {"D4": "mystery"}
    assert options["racks"] == ["RTSEMO", "DUEAIN"]


def test_a_bad_doublecross_setup_names_every_problem(tmp_path: Path) -> None:
    setup = write(
        tmp_path,
        'min_word = 5\nstart_word = "CAT"\nracks = ["AB?", "ZZ"]\nbag = "QQ"\n\n'
        '[specials]\nH8 = "bonus"\nP3 = "block"\nA1 = "bomb-3"\n',
    )
    with pytest.raises(OptionError) as caught:
        game_options("doublecross", [], setup, 2, None)
    text = str(caught.value)
    assert f"{setup}: min_word = 5: min_word must be a whole number from 3 to 4" in text
    # The game's own checks wait until every value is of the right kind.
    setup.write_text(setup.read_text().replace("min_word = 5", "min_word = 4"))
    with pytest.raises(OptionError) as caught:
        game_options("doublecross", [], setup, 2, None)
    text = str(caught.value)
    for expected in (
        "racks (seat 1): '?' is not a DoubleCross tile",
        "use 2 Q tiles, but the set has only 1: take 1 out",
        "H8 holds the start word",
        "'P3' is not a cell of the board (A1 to O15)",
        "'bomb-3' is not a special space; there is no seat 3 in a 2-player game",
        "DoubleCross options:",
    ):
        assert expected in text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("first = 3\n", "first must be a whole number from 1 to 2"),
        ("racks = 'ABC'\n", "racks must be a list of strings of letters"),
        ("specials = ['H3']\n", "specials must be a table of cell = kind"),
        ("start_word = 3\n", "start_word must be a word of letters A to Z"),
    ],
)
def test_doublecross_values_of_the_wrong_kind(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(OptionError, match=expected):
        game_options("doublecross", [], write(tmp_path, text), 2, None)


def test_setup_file_errors_are_value_errors_the_command_line_reports() -> None:
    assert issubclass(SetupFileError, ValueError)


@pytest.mark.parametrize(
    ("game", "text", "expected"),
    [
        ("crosslet", 'bag = "ZZZ"\n', "option 'bag' must list the 100 Crosslet tiles"),
        ("double-take", "rows = 10\n", "double-take needs 80 (no sensor for a10"),
    ],
)
def test_a_setup_the_game_or_the_board_refuses_makes_no_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, text: str, expected: str
) -> None:
    setup = write(tmp_path, text)
    journal = tmp_path / "j.sqlite"
    err = refused(capsys, "--game", game, "--setup", str(setup), "--journal", str(journal))
    assert expected in err
    assert not journal.exists()


def test_sim_help_names_the_setup_file(capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_bridge.apps.cli import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["sim", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--setup FILE a TOML file of game options" in text
    assert "start_word=" in text and "specials=" in text
