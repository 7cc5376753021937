"""Game options are declared, listed in the help and checked; the sim's other flags."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import build_parser, main
from firmware_bridge.kits import KITS, find_kit
from firmware_bridge.kits.options import options_of, takes_words
from games.registry import GAMES


def run(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(args, out=out), out.getvalue()


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, _ = run(["sim", *args])
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_a_misspelt_option_suggests_the_name_and_lists_the_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = refused(capsys, "--game", "double-take", "--option", "row=8")
    assert "Double Take has no option 'row'" in err and "did you mean 'rows'?" in err
    assert "rows=  a whole number from 8 to 10 (default 9)" in err
    assert "repetitions=  a whole number of at least 2 (default 3)" in err


def test_an_unknown_option_lists_the_valid_ones(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, "--game", "doubles-wild", "--option", "colour=blue")
    assert "Doubles Wild has no option 'colour'" in err and "did you mean" not in err
    assert "balls=" in err


def test_a_game_without_options_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, "--game", "dominoes", "--option", "target=50")
    assert "Double Double Dominoes has no options: leave out --option target=50" in err


@pytest.mark.parametrize(
    ("game", "option", "expected"),
    [
        ("double-take", "rows=12", "rows must be a whole number from 8 to 10"),
        ("double-take", "rows=nine", "rows must be a whole number from 8 to 10"),
        ("double-take", "repetitions=1", "repetitions must be a whole number of at least 2"),
        ("doubles-wild", "balls=0", "balls must be a whole number of at least 1"),
        ("crosslet", "racks=hand", "racks must be 'dealt' or 'table'"),
        ("crosslet", "first=3", "first must be a whole number from 1 to 2"),
        ("crosslet", "words=/tmp/w.txt", "words is set with --words, not --option"),
    ],
)
def test_a_bad_value_names_the_values_the_option_takes(
    capsys: pytest.CaptureFixture[str], game: str, option: str, expected: str
) -> None:
    assert expected in refused(capsys, "--game", game, "--option", option)


def test_words_for_a_game_without_words_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    words = tmp_path / "w.txt"
    words.write_text("cat\n")
    err = refused(capsys, "--game", "double-take", "--words", str(words))
    assert "Double Take uses no words; leave --words out" in err


def test_good_options_still_play() -> None:
    code, text = run(["sim", "--game", "double-take", "--option", "rows=8", "--seed", "3"])
    assert code == 0
    assert "wins" in text or "Draw" in text


def test_sim_help_lists_every_game_and_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["sim", "--help"])
    text = capsys.readouterr().out
    for game in GAMES:
        assert f"{game.name}: {game.title}" in text
        for spec in options_of(game.name) or ():
            assert spec.help in text.replace("\n", " ") or spec.name in text


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["--version"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("tabletop ") and out.strip() != "tabletop"


def test_declared_options_match_the_kits_and_the_registry() -> None:
    names = {g.name for g in GAMES}
    assert set(KITS) <= names
    for name in KITS:
        assert options_of(name) == find_kit(name).options
        assert find_kit(name).word_game == takes_words(name)
    assert takes_words("crosslet") and not takes_words("double-take")


def test_the_engines_accept_every_declared_default() -> None:
    from games.double_take.game import DoubleTake
    from games.doubles_wild.game import DoublesWild

    assert DoubleTake(options={"rows": 9, "repetitions": 3}).rows == 9
    assert DoublesWild(2, options={"balls": 24}).start_balls == 24


def test_two_players_exactly_reads_naturally(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, "--game", "double-take", "--players", "3")
    assert "Double Take is for 2 players, not 3" in err


def test_frames_into_a_file_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "frames.png"
    target.write_bytes(b"not a folder")
    err = refused(capsys, "--game", "double-take", "--frames", str(target))
    assert len(err.strip().splitlines()) == 1 and "is a file" in err
    assert target.read_bytes() == b"not a folder"


def test_frames_left_by_an_earlier_run_are_cleared(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    for n in range(1, 2000, 97):
        (folder / f"frame-{n:05d}.png").write_bytes(b"old")
    (folder / "notes.txt").write_text("mine")
    code, _ = run(["sim", "--game", "double-take", "--seed", "2", "--frames", str(folder)])
    assert code == 0
    assert "removed 21 frames" in capsys.readouterr().err
    frames = sorted(folder.glob("frame-*.png"))
    assert frames and all(f.read_bytes() != b"old" for f in frames)
    assert (folder / "notes.txt").read_text() == "mine"


def test_a_resumed_game_says_seed_and_options_are_ignored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    journal = tmp_path / "j.sqlite"
    script = tmp_path / "one.txt"
    script.write_text("lift c3\nplace d4\n")
    assert (
        run(["sim", "--game", "double-take", "--journal", str(journal), "--script", str(script)])[0]
        == 0
    )
    capsys.readouterr()
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing more\n")
    code, _ = run(
        [
            "sim",
            "--game",
            "double-take",
            "--journal",
            str(journal),
            "--seed",
            "9",
            "--option",
            "rows=8",
            "--script",
            str(empty),
        ]
    )
    assert code == 0
    err = capsys.readouterr().err
    assert "--seed and --option ignored" in err and "keeps the seed and options" in err, err
