"""A user's own word list, by path: the word games judge with it, and say so when it is bad."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from tests.firmware_bridge.kits.crosslet.referee_helpers import bag

RACKS = bag("CATERS?", "DOGINQU")


def run(args: list[str]) -> tuple[int, list[dict[str, object]]]:
    out = io.StringIO()
    code = main(["sim", "--game", "crosslet", "--json", *args], out=out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_the_game_judges_with_the_users_own_list(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("tca\ncat\n")
    script = tmp_path / "play.txt"
    script.write_text("pace 0.6\nplace H8,I8,J8 TCA\npress ok\n")
    options = ["--option", f"bag={RACKS}", "--option", "first=1", "--words", str(words)]
    code, states = run([*options, "--script", str(script)])
    assert code == 0
    assert states[-1]["moves"] == 1, "TCA is a word in this list"
    assert states[-2]["layout"]["H8"]["label"] == "T"


def test_a_bad_word_list_is_named_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = tmp_path / "words.txt"
    words.write_text("cat\nd0g\n")
    code, _ = run(["--words", str(words)])
    assert code == 2
    err = capsys.readouterr().err
    assert "words.txt" in err and "line 2" in err
