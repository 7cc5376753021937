"""A user's own word list, by path: the word games judge with it, and say so when it is bad."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from tests.firmware_bridge.kits.crosslet.referee_helpers import bag
from tests.firmware_bridge.sim_runs import Play

RACKS = bag("CATERS?", "DOGINQU")


def run(args: list[str]) -> tuple[int, list[dict[str, object]]]:
    """``tabletop sim --json``: its exit code and the states it printed."""
    out = io.StringIO()
    code = main(["sim", "--game", "crosslet", "--json", *args], out=out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_the_game_judges_with_the_users_own_list(tmp_path: Path, play: Play) -> None:
    words = tmp_path / "words.txt"
    words.write_text("tca\ncat\n")
    script = tmp_path / "play.txt"
    script.write_text("pace 0.6\nplace H8,I8,J8 TCA\npress ok\n")
    options = [f"bag={RACKS}", "first=1"]
    run = play("crosslet", options=options, words=words, script=script)
    assert len(run.game.history) == 1, "TCA is a word in this list"
    assert run.last.layout["H8"]["label"] == "T"


def test_a_bad_word_list_is_named_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line's exit code and stderr are what is tested."""
    words = tmp_path / "words.txt"
    words.write_text("cat\nd0g\n")
    code, _ = run(["--words", str(words)])
    assert code == 2
    err = capsys.readouterr().err
    assert "words.txt" in err and "line 2" in err
