"""Checks across a profile, a run config and the games, before anything is written.

``wiring`` checks each file on its own (keys, types, pins, sizes). What needs the
games too is checked here: every game a profile lists exists and fits its board,
the board can tell the pieces of the game apart, the OLED is the size the screens
are drawn for. ``tabletop wiring`` prints the problems and warnings; ``tabletop
run`` and ``tabletop enrol`` refuse a config with any problem before the journal
or the hardware is touched.
"""

from __future__ import annotations

import inspect
import random
from pathlib import Path
from typing import Any

from msgspec import Struct, field

from games.core import Game
from games.errors import GameError, UnknownGame
from games.registry import GAMES, Listed, find_game
from wiring.config import RunConfig, is_placeholder_port, load_config, placeholder_problem
from wiring.errors import ConfigError
from wiring.loader import check_fits, list_profiles, load_profile
from wiring.profile import Profile
from wiring.schema import closest

from ..kits import KITS, Kit, find_kit
from ..screen.screens import HEIGHT, WIDTH

OLED_SIZES = ((WIDTH, HEIGHT),)
"""The display sizes the screens can be laid out on: the header, the instruction and
every score at once. A 128×32 module has room for the header and two lines, too few
for a turn's instruction and the scores of the players."""

PLANNED_GAMES: dict[str, str] = {}
"""Games whose rules are written down (docs/rules.md) but that cannot be played yet,
by command-line name. A registered game of the same name takes precedence."""


class Findings(Struct):
    """What a check found: problems refuse the file, warnings are only shown."""

    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def reads_tags(profile: Profile) -> bool:
    """Whether the board tells pieces apart by their tags (an RFID board)."""
    return profile.serial is not None and profile.serial.sensor == "rfid"


def unplayable_reason(name: str) -> str | None:
    """Why ``name`` cannot be played on a board, or None when it can.

    A registered game with a kit can; a registered game without one, or a game
    still being built, cannot yet; any other name is not a game at all.
    """
    registered = any(g.name == name for g in GAMES)
    if registered and name in KITS:
        return None
    if registered or name in PLANNED_GAMES:
        return f"{name} cannot be played on a board yet"
    return None


def _default_game(name: str, kit: Kit) -> Game:
    """The game with its default settings at a table, built without loading a word list."""
    cls = find_game(name)
    options = dict(kit.table_options)
    if "lexicon" in inspect.signature(cls).parameters:
        from games.lexicon import Lexicon

        # A few short words too: DoubleCross draws a start word of 3-5 letters.
        tiny: Any = Lexicon.build(["at", "ate", "eat", "tea", "ten", "net", "one", "rat", "ran"])
        maker: Any = cls
        game: Game = maker(cls.min_players, random.Random(0), options, lexicon=tiny)
        return game
    return cls(cls.min_players, random.Random(0), options)


def profiles_reading_tags(game: str) -> list[str]:
    """The shipped profiles with tag readers that list ``game``."""
    found = []
    for name in list_profiles():
        profile = load_profile(name)
        if game in profile.games and reads_tags(profile) and not profile.simulated_only:
            found.append(name)
    return found


def tag_problem(profile: Profile, name: str, kit: Kit, *, computer: bool) -> str | None:
    """Why ``profile``'s board cannot tell ``name``'s pieces apart, or None.

    ``computer``: a simulated computer player moves (it needs tags where the
    humans would pick from a menu).
    """
    if reads_tags(profile):
        return None
    need = kit.needs_tags or (kit.computer_needs_tags if computer else "")
    if not need:
        return None
    others = profiles_reading_tags(name)
    use = (
        f"use a board with tag readers ({', '.join(others)})"
        if others
        else ("use a board with tag readers (sensor = 'rfid')")
    )
    kind = "a GPIO matrix" if profile.matrix is not None else "an occupancy board"
    return (
        f"profile {profile.name!r} is {kind}, which senses only whether a cell is "
        f"covered, and {need}; {use}"
    )


def check_profile(profile: Profile) -> Findings:
    """Everything about ``profile`` that needs the games: what it lists, and the OLED."""
    found = Findings()
    label = profile.source or profile.name
    names = [g.name for g in GAMES]
    for name in profile.games:
        if name not in names and name not in PLANNED_GAMES:
            found.problems.append(
                f"{label}: [board] games: no game is called {name!r}; "
                f"{closest(name, names)} (write the names of `tabletop sim --help`)"
            )
            continue
        why = unplayable_reason(name)
        if why is not None:
            found.warnings.append(f"{label}: [board] games: {why}; the start menu leaves it out")
            continue
        kit = find_kit(name)
        try:
            game = _default_game(name, kit)
        except GameError as exc:  # pragma: no cover - a game that cannot start by default
            found.problems.append(f"{label}: [board] games: {name}: {exc}")
            continue
        found.problems += [
            p.replace("[board] cells:", "[board] games:", 1)
            for p in check_fits(profile, name, game.cells())
        ]
        problem = tag_problem(profile, name, kit, computer=False)
        if problem is not None:
            found.problems.append(
                f"{label}: [board] games: {name} cannot be refereed here: {problem}, "
                f"or take {name!r} out of the list"
            )
    oled = profile.oled
    if (oled.width, oled.height) not in OLED_SIZES:
        found.problems.append(
            f"{label}: [oled] width: the screens are laid out for a {WIDTH}×{HEIGHT} display, "
            f"not {oled.width}×{oled.height} (the header, the instruction and every score "
            f"must be on screen at once); fit a {WIDTH}×{HEIGHT} SSD1306 or SH1106 module "
            f"and set width = {WIDTH}, height = {HEIGHT}"
        )
    if profile.serial is not None and is_placeholder_port(profile.serial.port):
        found.warnings.append(
            f"{label}: [serial] port: {profile.serial.port!r} is a placeholder; plug the Pico "
            "in, run `ls /dev/serial/by-id/` and give its name in a profile of your own "
            f'(`extends = "{profile.name}"` and a [serial] port line) before `tabletop run`'
        )
    if profile.simulated_only:
        found.warnings.append(f"{label}: [board] simulated_only: `tabletop run` refuses it")
    return found


def check_config(config: RunConfig) -> Findings:
    """Everything about a run config that needs the games, its profile's checks included."""
    found = check_profile(config.profile)
    label = config.source or "the run config"
    serial = config.profile.serial
    if serial is not None:
        placeholder = placeholder_problem(serial.port, config.profile.name)
        if placeholder is not None:
            where = config.profile.source or config.profile.name
            found.problems.append(f"{where}: [serial] port: {placeholder[0]}; {placeholder[1]}")
    game = config.game
    if game is not None and game in config.profile.games:
        why = unplayable_reason(game)
        if why is not None:
            found.problems.append(f"{label}: game: {why}; choose another game or leave it out")
        elif game in KITS:
            cls = next(g for g in GAMES if g.name == game)
            players = config.players
            if players is not None and not cls.min_players <= players <= cls.max_players:
                found.problems.append(
                    f"{label}: players: {cls.title} is for {player_range(cls)}, not {players}; "
                    f"set players within that range"
                )
            if config.words is not None and not find_kit(game).word_game:
                found.problems.append(
                    f"{label}: words: {cls.title} uses no words; leave the key out"
                )
    tags = config.tags
    if tags.is_dir():
        found.problems.append(
            f"{label}: tags: {tags} is a folder; give the path of a file in it, "
            f"e.g. {tags / 'tags.json'}"
        )
    return found


def player_range(cls: Listed | type[Game]) -> str:
    """``"2 players"`` or ``"2 to 4 players"``."""
    if cls.min_players == cls.max_players:
        return f"{cls.min_players} players"
    return f"{cls.min_players} to {cls.max_players} players"


def checked_config(path: str | Path, *, allow_simulated: bool = False) -> RunConfig:
    """Load a run config and check it against the games: a ``ConfigError`` lists every
    problem, before anything is written."""
    config = load_config(path, allow_simulated=allow_simulated)
    found = check_config(config)
    if found.problems:
        count = len(found.problems)
        raise ConfigError(
            f"run config {config.source} has {count} problem{'s' if count != 1 else ''}",
            found.problems,
        )
    return config


def check_sim(game: str, profile_name: str | None, *, computer: bool) -> None:
    """Refuse a simulation its board cannot play, before a journal is opened.

    ``computer``: the simulated computer plays every seat (no script). Raises a
    ``GameError`` (the game) or ``ValueError`` (the board) saying why and what to use.
    """
    why = unplayable_reason(game)
    if why is not None:
        raise UnknownGame(f"{why}; the games a board can referee: {', '.join(KITS)}")
    kit = find_kit(game)
    profile = load_profile(profile_name or kit.default_profile)
    problem = tag_problem(profile, game, kit, computer=computer)
    if problem is not None:
        cls = next(g for g in GAMES if g.name == game)
        raise ValueError(f"{cls.title} cannot be played on this board: {problem}")
