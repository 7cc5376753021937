"""The plain transcript of ``tabletop sim`` is the story of the game: every move, every
refusal with the fix it asks for, the result in plain English, and what an unfinished
game's table waits for."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.apps.export import export_game, text_record
from firmware_bridge.runtime.transcript import plural, print_move, result_line
from firmware_bridge.sim.runner import SimOptions, Simulation
from games.core import Resign


def transcript(tmp_path: Path, game: str, script: str, *args: str) -> list[str]:
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    out = io.StringIO()
    assert main(["sim", "--game", game, "--script", str(path), *args], out=out) == 0
    return out.getvalue().splitlines()


def test_a_refusal_is_told_with_its_reason_and_the_fix(tmp_path: Path) -> None:
    lines = transcript(tmp_path, "double-take", "lift a3\nplace a7\n", "--humans", "1,2")
    assert lines[0] == "Double Take, seed 1: red (script) vs green (script)"
    assert lines[1] == (
        "      refused: a7 is not on a red line from a3; "
        "to fix: lift the piece on a7, then put red on a3"
    )
    assert lines[2] == "Game not finished after 0 moves; scores: red 0, green 0"
    assert lines[3] == "The table waits for: lift the piece on a7, then put red on a3"


def test_an_unfinished_game_with_nothing_to_fix_says_what_the_table_shows(
    tmp_path: Path,
) -> None:
    lines = transcript(tmp_path, "double-take", "lift a3\nplace b4\n")
    assert lines[1].strip().startswith("1. red")
    assert lines[-2].startswith("Game not finished after 1 move;")
    assert lines[-1].startswith("The table shows: Green to move")


def test_the_header_says_who_plays_each_seat(tmp_path: Path) -> None:
    lines = transcript(tmp_path, "double-take", "lift a3\nplace b4\n", "--humans", "1")
    assert lines[0] == "Double Take, seed 1: red (script) vs green (computer)"


def test_the_result_reads_as_english_for_any_number_of_winners() -> None:
    final = {"scores": {"blue": 3, "red": 3, "green": 1}, "moves": 1, "winner": ["blue", "red"]}
    final["outcome"] = {"draw": False, "reason": "a shared play-off"}
    expected = "Blue and red win: a shared play-off (1 move; blue 3, red 3, green 1)"
    assert result_line(final) == expected
    final["winner"] = ["blue", "red", "green"]
    assert result_line(final).startswith("Blue, red and green win:")
    final["winner"], final["moves"] = "blue", 12
    assert result_line(final).startswith("Blue wins: a shared play-off (12 moves;")
    assert plural(1, "move") == "1 move" and plural(0, "move") == "0 moves"


def test_a_resignation_names_the_player_once() -> None:
    sim = Simulation(SimOptions("double-take", seed=1))
    out = io.StringIO()
    try:
        sim.start()
        seat_name = sim.session.game.seat_name
        sim.commits.append(lambda played: print_move(played, seat_name, out))
        sim.session.commit(Resign(player=0))
    finally:
        sim.close()
    assert out.getvalue().split() == ["1.", seat_name(0), "resigns"]


def test_realtime_keeps_its_pace_without_a_server() -> None:
    out = io.StringIO()
    started = time.monotonic()
    assert main(["sim", "--game", "double-take", "--realtime", "0.02"], out=out) == 0
    moves = sum(1 for line in out.getvalue().splitlines() if line[:5].strip().rstrip(".").isdigit())
    assert moves > 20
    assert time.monotonic() - started >= moves * 0.02


@pytest.mark.parametrize("value", ["-1", "nan", "inf"])
def test_realtime_refuses_a_pace_that_is_not_a_wait(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sim", "--game", "double-take", "--realtime", value], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert f"--realtime {value}" in err and "0 or more" in err


def played_lines(game: str, seed: int, players: int = 2) -> tuple[list[str], Any]:
    """The move lines of a computer game's transcript, and the finished game."""
    sim = Simulation(SimOptions(game, seed=seed, players=players))
    out = io.StringIO()
    try:
        seat_name = sim.session.game.seat_name
        sim.commits.append(lambda played: print_move(played, seat_name, out))
        sim.start()
        sim.play_computer()
        return out.getvalue().splitlines(), sim.session.game
    finally:
        sim.close()


def test_doublecross_names_every_tile_the_settling_destroyed() -> None:
    lines, game = played_lines("doublecross", 2)
    told = 0
    for line, notes, action in zip(lines, game.record, game.history, strict=True):
        for note in notes:
            if note.kind != "destroyed":
                continue
            if note.cells == (getattr(action, "cell", None),):
                assert "destroyed" in line  # the tile laid: "…, then destroyed"
            else:
                assert note.text in line, f"{note.text!r} missing from {line!r}"
                told += 1
    assert told > 3, "the seeded game destroys tiles"


def test_doublecross_transcript_and_export_begin_with_the_start_word(tmp_path: Path) -> None:
    journal = tmp_path / "g.sqlite"
    out = io.StringIO()
    args = ["sim", "--game", "doublecross", "--seed", "2", "--journal", str(journal)]
    assert main(args, out) == 0
    lines = out.getvalue().splitlines()
    record = export_game(journal)
    word, specials = record["opening"]
    assert word.startswith("Start word: ") and specials.startswith("Special spaces: ")
    assert [line.strip() for line in lines[1:3]] == [word, specials]
    text = text_record(record).splitlines()
    assert word in text and specials in text
    first_move = next(i for i, line in enumerate(text) if line.strip().startswith("1."))
    assert text.index(word) < first_move


def test_doubles_wild_marks_its_play_off_on_the_move_that_began_it() -> None:
    lines, game = played_lines("doubles-wild", 2, players=3)
    assert game.playoff is not None and game.playoff_began
    marked = [n for n, line in enumerate(lines, start=1) if "play off" in line]
    assert marked == [game.playoff_began]
    names = " and ".join(game.seat_name(p) for p in game.playoff)
    assert f"{names} play off on a cleared board" in lines[game.playoff_began - 1]
