"""``tabletop history``, ``export --text`` and ``resume``: the saved games of a journal."""

from __future__ import annotations

import io
import json
import sys
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.journal import Journal

OPENING = "lift a3\nplace b4 red\nlift b7\nplace a6 green\n"


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved, sys.stdin = sys.stdin, io.StringIO(stdin)
    try:
        with redirect_stderr(err):
            code = main(argv, out)
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    """Game 1: two moves of Double Take, unfinished; game 2: a resigned one."""
    path = tmp_path / "j.sqlite"
    code, _, err = run(
        ["sim", "--game", "double-take", "--script", "-", "--journal", str(path)], OPENING
    )
    assert code == 0, err
    with Journal(path) as j:
        game_id = j.new_game("double-take", 2, 5, {}, "sim")
        j.append(game_id, "action", {"type": "resign", "player": 1})
        j.finish(game_id, {"winners": [0], "draw": False, "reason": "green resigned"})
    return path


def test_history_lists_each_game_with_its_result_and_moves(journal: Path) -> None:
    code, out, _ = run(["history", "--journal", str(journal)])
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["ID", "DATE", "GAME", "PLAYERS", "MOVES", "RESULT"]
    first, second = lines[1].split(), lines[2].split()
    # ID, date and time, game, players, moves, result
    assert first[0] == "1" and first[3:] == ["Double", "Take", "2", "2", "not", "finished"]
    assert second[0] == "2" and second[5:7] == ["2", "1"]
    assert " ".join(second[7:]) == "red wins: green resigned"
    assert f"tabletop resume --journal {journal} ID" in out

    code, out, _ = run(["history", "--json", "--journal", str(journal)])
    rows = json.loads(out)
    assert [(r["id"], r["game"], r["players"], r["moves"], r["result"]) for r in rows] == [
        (1, "double-take", 2, 2, "not finished"),
        (2, "double-take", 2, 1, "red wins: green resigned"),
    ]
    assert rows[0]["date"].startswith("20") and rows[0]["seats"] == ["red", "green"]


def test_an_empty_journal_says_it_holds_no_games(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    Journal(path).close()
    code, out, _ = run(["history", "--journal", str(path)])
    assert code == 0 and out.strip() == f"The journal {path} holds no games yet."


def test_export_text_reads_like_the_table_told_it(journal: Path) -> None:
    code, out, _ = run(["export", "--game", "1", "--text", "--journal", str(journal)])
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Game 1: Double Take, 2 players (red, green), seed 1, board sim"
    assert lines[1].endswith(", not finished")
    assert [line.split() for line in lines if line[:4].strip().rstrip(".").isdigit()] == [
        ["1.", "red", "a3-b4"],
        ["2.", "green", "b7-a6"],
    ]
    assert "Result: not finished" in lines
    code, out, _ = run(["export", "--text", "--journal", str(journal)])
    assert code == 0 and "Result: red wins: green resigned" in out.splitlines()


def test_export_json_words_each_move_as_the_table_did(journal: Path) -> None:
    code, out, _ = run(["export", "--game", "1", "--journal", str(journal)])
    assert code == 0
    record = json.loads(out)
    assert [(m["player"], m["text"]) for m in record["moves"]] == [
        ("red", "a3-b4"),
        ("green", "b7-a6"),
    ]
    assert record["seats"] == ["red", "green"] and record["title"] == "Double Take"


def test_resume_plays_the_chosen_unfinished_game_on(journal: Path) -> None:
    """The ``tabletop resume`` command is what is tested, through its ``--json`` stream."""
    # Game 3 is unfinished too and newer: resume must take the one asked for.
    with Journal(journal) as j:
        j.new_game("double-take", 2, 9, {}, "sim")
    code, out, err = run(
        ["resume", "--journal", str(journal), "1", "--json", "--script", "-"],
        "lift e3\nplace f4 red\n",
    )
    assert code == 0, err
    final = json.loads(out.splitlines()[-1])
    assert final["journal_game"] == 1 and final["moves"] == 3
    with Journal(journal, read_only=True) as j:
        assert [e.payload["to"] for e in j.entries(1)] == ["b4", "a6", "f4"]
        assert j.entries(3) == []


def test_resume_refuses_a_finished_game_or_a_missing_one(journal: Path) -> None:
    code, out, err = run(["resume", "--journal", str(journal), "2"])
    assert code == 2 and out == ""
    assert "game 2 of the journal" in err and "is over (red wins: green resigned)" in err
    assert f"tabletop export --journal {journal} --game 2 --text" in err
    code, _, err = run(["resume", "--journal", str(journal), "7"])
    assert code == 2 and f"the journal {journal} has no game 7" in err
