"""The daemon's run config."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.wiring.conftest import VALID
from wiring.config import DEFAULT_JOURNAL, ConfigError, load_config

EXAMPLE = Path(__file__).parents[2] / "wiring/examples/tabletop.toml"
PICO = 'extends = "rfid-15x15-pico"\n[serial]\nport = "/dev/ttyACM0"\n'


def write(tmp_path: Path, text: str, name: str = "tabletop.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    return caught.value.problems


def test_shipped_example_config_loads() -> None:
    config = load_config(EXAMPLE)
    assert config.profile.name == "double-take-gpio"
    assert config.game == "double-take"
    assert config.players == 2
    assert config.journal == DEFAULT_JOURNAL
    assert config.tags == DEFAULT_JOURNAL.parent / "tags.json"


def test_minimal_config_takes_the_defaults(tmp_path: Path) -> None:
    write(tmp_path, PICO, "pico.toml")
    config = load_config(write(tmp_path, 'profile = "pico.toml"\n'))
    assert config.journal == DEFAULT_JOURNAL
    assert (config.game, config.players, config.seed) == (None, None, None)
    assert config.log_level == "INFO"


def test_relative_paths_are_read_from_the_config_folder(tmp_path: Path) -> None:
    (tmp_path / "boards").mkdir()
    write(tmp_path / "boards", VALID, "mine.toml")
    text = 'profile = "boards/mine.toml"\njournal = "data/j.sqlite"\nlog_level = "debug"\n'
    config = load_config(write(tmp_path, text))
    assert config.profile.name == "test-board"
    assert config.journal == tmp_path / "data/j.sqlite"
    assert config.tags == tmp_path / "data/tags.json"
    assert config.log_level == "DEBUG"


def test_missing_profile_key_is_named(tmp_path: Path) -> None:
    problems = problems_of(write(tmp_path, 'journal = "/tmp/j.sqlite"\n'))
    assert problems == [
        f'{tmp_path / "tabletop.toml"}: profile: missing key; add `profile = "double-take-gpio"`'
    ]


def test_unknown_key_suggests_the_close_name(tmp_path: Path) -> None:
    problems = problems_of(write(tmp_path, 'profile = "sim"\njournl = "/tmp/j"\n'))
    assert any("journl: unknown key; did you mean 'journal'?" in p for p in problems)


def test_profile_problems_are_carried_into_the_config_error(tmp_path: Path) -> None:
    write(tmp_path, VALID.replace("rotate = 0", "rotate = 8"), "bad.toml")
    problems = problems_of(write(tmp_path, 'profile = "bad.toml"\n'))
    assert "cannot use profile" in problems[0]
    assert any("bad.toml: [oled] rotate" in p for p in problems)


def test_simulated_only_profile_is_refused_for_a_real_run(tmp_path: Path) -> None:
    path = write(tmp_path, 'profile = "sim"\n')
    assert any("for `tabletop sim` only" in p for p in problems_of(path))
    assert load_config(path, allow_simulated=True).profile.simulated_only


def test_game_the_board_is_not_made_for_is_refused(tmp_path: Path) -> None:
    problems = problems_of(write(tmp_path, 'profile = "double-take-gpio"\ngame = "crosslet"\n'))
    assert any("game: profile 'double-take-gpio' is made for double-take" in p for p in problems)


def test_every_bad_value_is_reported(tmp_path: Path) -> None:
    text = (
        'profile = "double-take-gpio"\nplayers = 0\nseed = "x"\nlog_level = "LOUD"\njournal = 5\n'
    )
    problems = problems_of(write(tmp_path, text))
    joined = "\n".join(problems)
    assert len(problems) == 4, problems
    for key in ("players", "seed", "log_level", "journal"):
        assert f"tabletop.toml: {key}:" in joined


def test_toml_syntax_error_in_config_gives_the_line(tmp_path: Path) -> None:
    problems = problems_of(write(tmp_path, 'profile = "sim"\nseed = \n'))
    assert "line 2" in problems[0]


def test_missing_config_file_is_named(tmp_path: Path) -> None:
    problems = problems_of(tmp_path / "none.toml")
    assert "none.toml: no such file" in problems[0]


def test_own_word_list_is_read_relative_to_the_config(tmp_path: Path) -> None:
    (tmp_path / "words.txt").write_text("cat\n")
    write(tmp_path, PICO, "pico.toml")
    config = load_config(write(tmp_path, 'profile = "pico.toml"\nwords = "words.txt"\n'))
    assert config.words == tmp_path / "words.txt"


def test_missing_word_list_is_named(tmp_path: Path) -> None:
    write(tmp_path, PICO, "pico.toml")
    path = write(tmp_path, 'profile = "pico.toml"\nwords = "nowhere.txt"\n')
    [problem] = problems_of(path)
    assert "words" in problem and "nowhere.txt" in problem and "ENABLE" in problem
