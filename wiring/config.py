"""The daemon's run config (``tabletop run --config FILE``): a small TOML file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msgspec import Struct

from wiring.errors import ConfigError, ProfileError
from wiring.loader import is_path, load_profile
from wiring.profile import Profile
from wiring.schema import closest
from wiring.tomlfile import read_toml

__all__ = [
    "DEFAULT_JOURNAL",
    "ConfigError",
    "RunConfig",
    "is_placeholder_port",
    "load_config",
    "placeholder_problem",
    "port_problems",
]

DEFAULT_JOURNAL = Path("/var/lib/tabletop/journal.sqlite")
TAGS_FILE_NAME = "tags.json"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_PLAYERS = 8

KEYS: dict[str, str] = {
    "profile": 'profile = "double-take-gpio"',
    "journal": 'journal = "/var/lib/tabletop/journal.sqlite"',
    "game": 'game = "double-take"',
    "players": "players = 2",
    "seed": "seed = 12345",
    "tags": 'tags = "/var/lib/tabletop/tags.json"',
    "log_level": 'log_level = "INFO"',
    "words": 'words = "/home/pi/my-word-list.txt"',
    "allow_url_ports": "allow_url_ports = false",
}
"""Every key of a run config, with an example line."""


class RunConfig(Struct, frozen=True):
    """What the daemon runs: the board profile, where it keeps its records, and the game.

    ``game``, ``players`` and ``seed`` are ``None`` when the config leaves them to
    be chosen at the table. ``tags`` is the RFID tag table.
    """

    profile: Profile
    journal: Path
    tags: Path
    game: str | None = None
    players: int | None = None
    seed: int | None = None
    log_level: str = "INFO"
    words: Path | None = None
    """The user's own word list for the word games; None for the shipped ENABLE list."""
    allow_url_ports: bool = False
    """Whether the profile's serial ``port`` may be a pyserial URL (``socket://``,
    ``loop://``): meant for tests, never for a real board."""
    source: str = ""


PLACEHOLDER_MARK = "..."
"""What the shipped profiles' placeholder serial ports contain instead of a real name."""


def is_placeholder_port(port: str) -> bool:
    """Whether ``port`` is the shipped placeholder, to be replaced by the real device."""
    return PLACEHOLDER_MARK in port


def placeholder_problem(port: str, profile: str) -> tuple[str, str] | None:
    """Why ``port`` cannot be opened because it is the shipped placeholder, or None."""
    if not is_placeholder_port(port):
        return None
    return (
        f"{port!r} is the shipped placeholder, not your board's device",
        "plug the Pico in, run `ls /dev/serial/by-id/` and write its name in a "
        f'profile of your own (`extends = "{profile}"` and a [serial] port line)',
    )


def port_problems(port: str, profile: str, *, allow_urls: bool) -> list[tuple[str, str]]:
    """What is wrong with a serial ``port`` for a real run, as (what, what to do) pairs.

    A real board is on a device path (``/dev/ttyACM0``) or a ``/dev/serial/by-id``
    name; pyserial URLs are accepted only with ``allow_urls`` (tests). ``profile``
    is the profile's name, for the advice. The shipped placeholder is left to
    ``placeholder_problem``: a config may name it until the board is run.
    """
    if "://" in port:
        if allow_urls:
            return []
        return [
            (
                f"{port!r} is a pyserial URL, not a device",
                "name the board's device, e.g. /dev/ttyACM0 or /dev/serial/by-id/...-if00 "
                "(URLs are for tests: set `allow_url_ports = true` in the run config "
                "to allow them)",
            )
        ]
    if not port.startswith("/"):
        return [
            (
                f"{port!r} is not a device path",
                f"write the full path, e.g. /dev/{port.strip() or 'ttyACM0'} or "
                "/dev/serial/by-id/...-if00",
            )
        ]
    return []


def _parse(path: Path) -> dict[str, Any]:
    return read_toml(path, str(path), "run config", ConfigError)


class _Reader:
    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.label = str(path)
        self.base = path.parent
        self.data = data
        self.problems: list[str] = []

    def problem(self, key: str, what: str, todo: str) -> None:
        self.problems.append(f"{self.label}: {key}: {what}; {todo}")

    def value(self, key: str, kind: type, want: str) -> Any:
        if key not in self.data:
            return None
        value = self.data[key]
        if isinstance(value, bool) is not (kind is bool) or not isinstance(value, kind):
            self.problem(key, f"{value!r} is not {want}", f"write it like `{KEYS[key]}`")
            return None
        return value

    def path(self, key: str) -> Path | None:
        text = self.value(key, str, "a path")
        if text is None:
            return None
        if not text.strip():
            self.problem(key, "empty path", f"write it like `{KEYS[key]}` or leave the key out")
            return None
        path = Path(text).expanduser()
        return path if path.is_absolute() else self.base / path


def load_config(path: str | Path, *, allow_simulated: bool = False) -> RunConfig:
    """Read and check a run config and load its profile.

    Raises ``ConfigError`` listing every problem, the profile's included. A
    profile marked ``simulated_only`` is refused unless ``allow_simulated``.
    """
    file = Path(path)
    reader = _Reader(file, _parse(file))
    data = reader.data
    for key, value in data.items():
        if key not in KEYS:
            hint = closest(key, list(KEYS))
            if isinstance(value, dict):
                hint = "a run config has no sections; " + hint
            reader.problem(key, "unknown key", hint)

    profile: Profile | None = None
    name = reader.value("profile", str, "a profile name or path")
    if "profile" not in data:
        reader.problem("profile", "missing key", f"add `{KEYS['profile']}`")
    elif name is not None:
        if is_path(name) and not Path(name).expanduser().is_absolute():
            name = str(reader.base / name)
        try:
            profile = load_profile(str(Path(name).expanduser()) if is_path(name) else name)
        except ProfileError as e:
            reader.problem("profile", f"cannot use profile {name!r}", "fix the problems below")
            reader.problems += e.problems
    if profile is not None and profile.simulated_only and not allow_simulated:
        reader.problem(
            "profile",
            f"profile {profile.name!r} is for `tabletop sim` only",
            "name the profile of the real board, e.g. double-take-gpio",
        )

    journal = reader.path("journal") or DEFAULT_JOURNAL
    tags = reader.path("tags") or journal.parent / TAGS_FILE_NAME

    game = reader.value("game", str, "a game name")
    if game is not None and profile is not None and game not in profile.games:
        reader.problem(
            "game",
            f"profile {profile.name!r} is made for {', '.join(profile.games)}, not {game!r}",
            "pick one of those games or another profile",
        )
    players = reader.value("players", int, "a whole number of players")
    if players is not None and not 1 <= players <= MAX_PLAYERS:
        reader.problem("players", f"{players} players", f"use 1 to {MAX_PLAYERS}")
        players = None
    seed = reader.value("seed", int, "a whole number")

    words = reader.path("words")
    if words is not None and not words.is_file():
        reader.problem(
            "words",
            f"there is no word list at {words}",
            "give the path of a text file with one word a line, or leave the key out "
            "for the shipped ENABLE list",
        )
        words = None

    level = reader.value("log_level", str, "a log level name")
    if level is not None and level.upper() not in LOG_LEVELS:
        reader.problem(
            "log_level",
            f"{level!r} is not a log level",
            f"use one of {', '.join(LOG_LEVELS)}",
        )
        level = None

    allow_urls = reader.value("allow_url_ports", bool, "true or false") is True
    if profile is not None and profile.serial is not None:
        label = profile.source or profile.name
        port = profile.serial.port
        for what, todo in port_problems(port, profile.name, allow_urls=allow_urls):
            reader.problems.append(f"{label}: [serial] port: {what}; {todo}")

    if reader.problems or profile is None:
        count = len(reader.problems)
        raise ConfigError(
            f"run config {reader.label} has {count} problem{'s' if count != 1 else ''}",
            reader.problems,
        )
    return RunConfig(
        profile=profile,
        journal=journal,
        tags=tags,
        game=game,
        players=players,
        seed=seed,
        log_level=(level or "INFO").upper(),
        words=words,
        allow_url_ports=allow_urls,
        source=reader.label,
    )
