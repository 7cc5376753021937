"""Broken profiles and run configs are refused, naming the file and the key, before
anything is written; the shipped profiles pass the same checks."""

from __future__ import annotations

import io
from importlib import resources
from pathlib import Path

import pytest

from firmware_bridge.apps.checks import check_profile, checked_config
from firmware_bridge.apps.cli import main
from firmware_bridge.apps.daemon import EXIT_CONFIG
from wiring.errors import ConfigError
from wiring.loader import list_profiles, load_profile


def shipped(name: str) -> str:
    return resources.files("wiring.profiles").joinpath(f"{name}.toml").read_text("utf-8")


GPIO = shipped("double-take-gpio")
PICO = shipped("rfid-15x15-pico").replace(
    'port = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_...-if00"',
    'port = "/dev/ttyACM0"',
)
OCCUPANCY = PICO.replace('sensor = "rfid"', 'sensor = "occupancy"')

# (id, base text, old, new, the key the message must name)
BROKEN_PROFILES: list[tuple[str, str, str, str, str]] = [
    ("unknown-game", GPIO, 'games = ["double-take"]', 'games = ["chess"]', "[board] games"),
    (
        "4x4-lists-double-take",
        GPIO,
        "row_pins = [4, 17, 27, 22, 5, 6, 13, 19, 26]",
        "row_pins = [4, 17, 27, 22]",
        "[board] games",
    ),
    ("crosslet-on-gpio", GPIO, 'games = ["double-take"]', 'games = ["crosslet"]', "[board] games"),
    ("no-games", GPIO, 'games = ["double-take"]', "games = []", "[board] games"),
    ("games-not-a-list", GPIO, 'games = ["double-take"]', 'games = "double-take"', "[board] games"),
    ("unknown-sensor", GPIO, 'sensor = "gpio-matrix"', 'sensor = "magic"', "[board] sensor"),
    ("unknown-cell-scheme", GPIO, 'cells = "files-ranks"', 'cells = "chess"', "[board] cells"),
    ("too-few-cell-names", GPIO, 'cells = "files-ranks"', 'cells = ["a1", "b1"]', "[board] cells"),
    ("negative-settle", GPIO, "settle_ms = 150", "settle_ms = -5", "[board] settle_ms"),
    (
        "unknown-board-key",
        GPIO,
        "settle_ms = 150",
        'settle_ms = 150\ncolour = "red"',
        "[board] colour",
    ),
    ("unknown-section", GPIO, "[buzzer]", "[display]\nsize = 1\n\n[buzzer]", "[display]"),
    ("pin-used-twice", GPIO, "roll = 10", "roll = 4", "[buttons] roll"),
    ("buzzer-on-i2c", GPIO, "[buzzer]\npin = 18", "[buzzer]\npin = 2", "[buzzer] pin"),
    ("led-on-eeprom", GPIO, "[led]\npin = 14", "[led]\npin = 0", "[led] pin"),
    ("pin-off-header", GPIO, "ok = 8", "ok = 40", "[buttons] ok"),
    ("pin-as-text", GPIO, "ok = 8", 'ok = "8"', "[buttons] ok"),
    ("button-missing", GPIO, "back = 7\n", "", "[buttons] back"),
    ("hold-time-zero", GPIO, "hold_time = 1.0", "hold_time = 0", "[buttons] hold_time"),
    ("unknown-oled-driver", GPIO, 'driver = "ssd1306"', 'driver = "ssd9999"', "[oled] driver"),
    ("oled-address", GPIO, "i2c_address = 0x3C", "i2c_address = 0x50", "[oled] i2c_address"),
    ("oled-rotate", GPIO, "rotate = 0", "rotate = 5", "[oled] rotate"),
    (
        "oled-too-small-for-screens",
        GPIO,
        "rotate = 0",
        "rotate = 0\nwidth = 128\nheight = 32",
        "[oled] width",
    ),
    ("oled-size-not-made", GPIO, "rotate = 0", "rotate = 0\nwidth = 200", "[oled] width"),
    ("oled-missing", GPIO, "[oled]", "[screen]", "[oled]"),
    ("scan-rate-zero", GPIO, "scan_hz = 50", "scan_hz = 0", "[matrix] scan_hz"),
    ("active-low-text", GPIO, "active_low = true", 'active_low = "yes"', "[matrix] active_low"),
    (
        "no-row-pins",
        GPIO,
        "row_pins = [4, 17, 27, 22, 5, 6, 13, 19, 26]",
        "row_pins = []",
        "[matrix] row_pins",
    ),
    ("serial-section-missing", GPIO, 'sensor = "gpio-matrix"', 'sensor = "serial"', "[serial]"),
    ("toml-syntax", GPIO, "scan_hz = 50", "scan_hz = = 50", "line "),
    ("extends-unknown", GPIO, "[board]", 'extends = "nothing-like-this"\n[board]', "extends"),
    ("empty-port", PICO, 'port = "/dev/ttyACM0"', 'port = ""', "[serial] port"),
    ("serial-board-too-small", PICO, "rows = 15", "rows = 5", "[board] games"),
    ("baudrate-zero", PICO, "baudrate = 115200", "baudrate = 0", "[serial] baudrate"),
    ("serial-sensor-unknown", PICO, 'sensor = "rfid"', 'sensor = "nfc"', "[serial] sensor"),
    ("crosslet-without-tags", OCCUPANCY, "rows = 15", "rows = 15", "[board] games"),
    ("rack-seat-5", PICO, "[buttons]", '[racks]\nseat5 = ["A1"]\n\n[buttons]', "[racks] seat5"),
    (
        "rack-cell-not-on-board",
        PICO,
        "[buttons]",
        '[racks]\nseat1 = ["Z99"]\n\n[buttons]',
        "[racks] seat1",
    ),
]


def written(tmp_path: Path, text: str, name: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run(args: list[str]) -> int:
    return main(args, out=io.StringIO())


def files_in(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


@pytest.mark.parametrize(
    ("base", "old", "new", "key"),
    [case[1:] for case in BROKEN_PROFILES],
    ids=[case[0] for case in BROKEN_PROFILES],
)
def test_broken_profile_is_refused_by_wiring_and_run_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], base: str, old: str, new: str, key: str
) -> None:
    assert old in base
    profile = written(tmp_path, base.replace(old, new, 1), "board.toml")
    config = written(
        tmp_path, f'profile = "board.toml"\njournal = "{tmp_path / "j.sqlite"}"\n', "run.toml"
    )
    before = files_in(tmp_path)
    assert run(["wiring", str(profile)]) == 2
    err = capsys.readouterr().err
    assert "board.toml" in err and key in err, err
    assert "Traceback" not in err
    assert run(["run", "--config", str(config)]) == EXIT_CONFIG
    err = capsys.readouterr().err
    assert "board.toml" in err and key in err, err
    assert files_in(tmp_path) == before


VALID_CONFIG = 'profile = "double-take-gpio"\ngame = "double-take"\nplayers = 2\n'

# (id, text replacing VALID_CONFIG's, the file the message must name, the key)
BROKEN_CONFIGS: list[tuple[str, str, str, str]] = [
    ("unknown-game", 'profile = "double-take-gpio"\ngame = "chess"\n', "run.toml", "game"),
    ("game-not-on-board", 'profile = "double-take-gpio"\ngame = "crosslet"\n', "run.toml", "game"),
    ("game-not-text", 'profile = "double-take-gpio"\ngame = 5\n', "run.toml", "game"),
    (
        "three-for-double-take",
        VALID_CONFIG.replace("players = 2", "players = 3"),
        "run.toml",
        "players",
    ),
    (
        "seven-for-double-take",
        VALID_CONFIG.replace("players = 2", "players = 7"),
        "run.toml",
        "players",
    ),
    ("no-players", VALID_CONFIG.replace("players = 2", "players = 0"), "run.toml", "players"),
    ("players-text", VALID_CONFIG.replace("players = 2", 'players = "two"'), "run.toml", "players"),
    ("seed-text", VALID_CONFIG + 'seed = "abc"\n', "run.toml", "seed"),
    ("seed-fraction", VALID_CONFIG + "seed = 1.5\n", "run.toml", "seed"),
    ("log-level-unknown", VALID_CONFIG + 'log_level = "LOUD"\n', "run.toml", "log_level"),
    ("log-level-number", VALID_CONFIG + "log_level = 3\n", "run.toml", "log_level"),
    ("misspelt-key", VALID_CONFIG + 'journl = "x.sqlite"\n', "run.toml", "journl"),
    ("a-section", VALID_CONFIG + "[serial]\nport = 1\n", "run.toml", "serial"),
    ("no-profile", 'game = "double-take"\n', "run.toml", "profile"),
    ("profile-number", "profile = 3\n", "run.toml", "profile"),
    ("profile-unknown", 'profile = "double-take-gpi0"\n', "run.toml", "profile"),
    ("profile-file-missing", 'profile = "mine.toml"\n', "run.toml", "profile"),
    ("simulated-profile", 'profile = "sim"\n', "run.toml", "profile"),
    ("journal-empty", VALID_CONFIG + 'journal = ""\n', "run.toml", "journal"),
    ("journal-number", VALID_CONFIG + "journal = 5\n", "run.toml", "journal"),
    (
        "doubles-wild-on-double-take-board",
        'profile = "double-take-gpio"\ngame = "doubles-wild"\n',
        "run.toml",
        "game",
    ),
    (
        "players-negative",
        VALID_CONFIG.replace("players = 2", "players = -1"),
        "run.toml",
        "players",
    ),
    ("profile-list", 'profile = ["double-take-gpio"]\n', "run.toml", "profile"),
    ("seed-boolean", VALID_CONFIG + "seed = true\n", "run.toml", "seed"),
    ("tags-is-a-folder", VALID_CONFIG + 'tags = "."\n', "run.toml", "tags"),
    ("words-missing", VALID_CONFIG + 'words = "nowhere.txt"\n', "run.toml", "words"),
    ("words-for-double-take", VALID_CONFIG + 'words = "words.txt"\n', "run.toml", "words"),
    (
        "allow-url-ports-text",
        VALID_CONFIG + 'allow_url_ports = "yes"\n',
        "run.toml",
        "allow_url_ports",
    ),
    ("url-port", 'profile = "url.toml"\n', "url.toml", "[serial] port"),
    ("placeholder-port", 'profile = "rfid-15x15-pico"\n', "rfid-15x15-pico.toml", "[serial] port"),
    ("relative-port", 'profile = "relative.toml"\n', "relative.toml", "[serial] port"),
    ("toml-syntax", VALID_CONFIG + "seed = \n", "run.toml", "line 5"),
    ("not-utf8", "", "run.toml", "UTF-8"),
]


@pytest.mark.parametrize(
    ("text", "file", "key"),
    [case[1:] for case in BROKEN_CONFIGS],
    ids=[case[0] for case in BROKEN_CONFIGS],
)
def test_broken_run_config_is_refused_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, file: str, key: str
) -> None:
    written(tmp_path, "cat\ndog\n", "words.txt")
    written(tmp_path, 'extends = "rfid-15x15-pico"\n[serial]\nport = "socket://x:1"\n', "url.toml")
    written(tmp_path, 'extends = "rfid-15x15-pico"\n[serial]\nport = "ttyACM0"\n', "relative.toml")
    config = tmp_path / "run.toml"
    if text:
        journal = f'journal = "{tmp_path / "j.sqlite"}"\n'
        config.write_text(text if "journal" in text else journal + text, encoding="utf-8")
    else:
        config.write_bytes(b'profile = "\xff"\n')
    before = files_in(tmp_path)
    for verb, status in (("run", EXIT_CONFIG), ("enrol", 2)):
        assert run([verb, "--config", str(config)]) == status
        err = capsys.readouterr().err
        assert file in err and f"{key}" in err, err
        assert "Traceback" not in err
    assert files_in(tmp_path) == before


def test_pyserial_urls_are_allowed_only_when_the_config_says_so(tmp_path: Path) -> None:
    written(tmp_path, 'extends = "rfid-15x15-pico"\n[serial]\nport = "loop://"\n', "url.toml")
    config = written(tmp_path, 'profile = "url.toml"\n', "run.toml")
    with pytest.raises(ConfigError, match="pyserial URL"):
        checked_config(config)
    config.write_text('profile = "url.toml"\nallow_url_ports = true\n')
    loaded = checked_config(config)
    assert loaded.allow_url_ports and loaded.profile.serial is not None
    assert loaded.profile.serial.port == "loop://"


def test_by_id_device_names_are_accepted(tmp_path: Path) -> None:
    port = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00"
    text = f'extends = "rfid-15x15-pico"\n[serial]\nport = "{port}"\n'
    written(tmp_path, text, "mine.toml")
    config = checked_config(written(tmp_path, 'profile = "mine.toml"\ngame = "dominoes"\n', "r"))
    assert config.profile.serial is not None and config.profile.serial.port == port


@pytest.mark.parametrize("name", list_profiles())
def test_every_shipped_profile_passes_the_checks(name: str) -> None:
    assert check_profile(load_profile(name)).problems == []


def test_wiring_warns_that_the_shipped_port_is_a_placeholder() -> None:
    out = io.StringIO()
    assert main(["wiring", "rfid-15x15-pico"], out=out) == 0
    lines = out.getvalue().splitlines()
    warning = next(line for line in lines if line.startswith("warning") and "port" in line)
    assert "rfid-15x15-pico.toml: [serial] port" in warning and "placeholder" in warning
    assert "ls /dev/serial/by-id/" in warning


def test_wiring_says_nothing_of_ports_for_a_gpio_board() -> None:
    out = io.StringIO()
    assert main(["wiring", "double-take-gpio"], out=out) == 0
    assert "warning" not in out.getvalue()


@pytest.mark.parametrize(
    ("game", "why"),
    [
        ("crosslet", "letter tiles differ only by their tags"),
        ("dominoes", "cannot answer the menu that asks which domino"),
    ],
)
def test_sim_says_before_starting_why_the_occupancy_board_cannot_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, why: str
) -> None:
    journal = tmp_path / "j.sqlite"
    args = ["sim", "--game", game, "--profile", "occupancy-15x15-pico", "--journal", str(journal)]
    assert run(args) == 2
    err = capsys.readouterr().err
    assert why in err and "rfid-15x15-pico" in err and "Traceback" not in err
    assert not journal.exists()


def test_a_game_without_a_kit_is_not_playable_yet_rather_than_misspelt(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from firmware_bridge.apps import checks
    from firmware_bridge.apps.checks import unplayable_reason

    # A registered game whose table part is not built yet: DoubleCross with its kit withheld.
    kits = {name: kit for name, kit in checks.KITS.items() if name != "doublecross"}
    monkeypatch.setattr(checks, "KITS", kits)
    assert run(["sim", "--game", "doublecross"]) == 2
    err = capsys.readouterr().err
    assert "doublecross cannot be played on a board yet" in err and "did you mean" not in err
    assert unplayable_reason("double-take") is None
