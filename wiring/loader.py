"""Reading board profiles: shipped ones by name, a user's by path; ``extends``.

A profile file may start with ``extends = "other"`` (a shipped name, or a path
relative to the file) and then only give the keys it changes; sections are
merged key by key. ``[board] name`` is never inherited.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from wiring.errors import ProfileError
from wiring.profile import Profile
from wiring.schema import Document, build_profile, closest, section_tables
from wiring.tomlfile import read_toml

__all__ = ["ProfileError", "check_fits", "list_profiles", "load_profile"]

_SHIPPED = Path(__file__).parent / "profiles"
"""The shipped profiles: the package ``wiring.profiles``, a folder of the installed
package (importlib.resources would give the same path, and load zipfile to do it)."""
_SUFFIX = ".toml"


def list_profiles() -> list[str]:
    """The names of the shipped profiles, sorted."""
    return sorted(
        entry.name.removesuffix(_SUFFIX)
        for entry in _SHIPPED.iterdir()
        if entry.name.endswith(_SUFFIX)
    )


def is_path(name_or_path: str) -> bool:
    """Whether a profile argument names a file rather than a shipped profile."""
    return name_or_path.endswith(_SUFFIX) or "/" in name_or_path or "\\" in name_or_path


class _Source:
    """One profile file: where it is, how messages name it, and its stem."""

    def __init__(self, label: str, stem: str, file: Path) -> None:
        self.label = label
        self.stem = stem
        self.file = file
        self.key = str(Path(str(file)).resolve()) if isinstance(file, Path) else str(file)

    def directory(self) -> Path | None:
        return Path(str(self.file)).parent if isinstance(self.file, Path) else None


def _locate(name_or_path: str, relative_to: Path | None, asked_by: str) -> _Source:
    if is_path(name_or_path):
        path = Path(name_or_path).expanduser()
        if relative_to is not None and not path.is_absolute():
            path = relative_to / path
        if not path.is_file():
            raise ProfileError(
                f"cannot read profile {name_or_path}",
                [f"{asked_by}: no such file {str(path)!r}; check the path"],
            )
        return _Source(str(path), path.stem, path)
    names = list_profiles()
    if name_or_path not in names:
        raise ProfileError(
            f"cannot read profile {name_or_path}",
            [
                f"{asked_by}: no shipped profile is called {name_or_path!r}; "
                f"{closest(name_or_path, names)} (or give the path of a .toml file)"
            ],
        )
    file = _SHIPPED / (name_or_path + _SUFFIX)
    return _Source(f"wiring/profiles/{name_or_path}{_SUFFIX}", name_or_path, file)


def _parse(source: _Source) -> dict[str, Any]:
    return read_toml(source.file, source.label, "profile", ProfileError)


def _read_chain(first: _Source) -> tuple[list[tuple[_Source, dict[str, Any]]], list[str]]:
    """The file and each file it extends, child first."""
    chain: list[tuple[_Source, dict[str, Any]]] = []
    problems: list[str] = []
    source: _Source | None = first
    while source is not None:
        data = _parse(source)
        chain.append((source, data))
        for key, value in data.items():
            if key != "extends" and not isinstance(value, dict):
                problems.append(
                    f"{source.label}: {key}: unknown top-level key; only `extends` may stand "
                    "before the first section; move it into a section such as [board]"
                )
        parent = data.get("extends")
        if parent is None:
            break
        if not isinstance(parent, str) or not parent:
            problems.append(
                f"{source.label}: extends: {parent!r} is not a profile name; "
                'write `extends = "double-take-gpio"` or a path to a .toml file'
            )
            break
        source = _locate(parent, source.directory(), f"{source.label}: extends")
        seen = [s.key for s, _ in chain]
        if source.key in seen:
            loop = " → ".join([*(s.label for s, _ in chain), source.label])
            problems.append(
                f"{chain[-1][0].label}: extends: {parent!r} leads back to a profile already "
                f"in the chain ({loop}); remove one of the `extends` lines"
            )
            break
    return chain, problems


def _merge(chain: list[tuple[_Source, dict[str, Any]]]) -> Document:
    own, own_data = chain[0]
    doc = Document(label=own.label, default_name=own.stem, tables={})
    for source, data in reversed(chain):
        for section, table in section_tables(data).items():
            doc.section_origins.setdefault(section, source.label)
            merged = doc.tables.setdefault(section, {})
            for key, value in table.items():
                merged[key] = value
                doc.origins[(section, key)] = source.label
    # A profile's name is its own: a child without one is named after its file.
    own_board = own_data.get("board")
    if len(chain) > 1 and not (isinstance(own_board, dict) and "name" in own_board):
        doc.tables.get("board", {}).pop("name", None)
    return doc


def load_profile(name_or_path: str) -> Profile:
    """Load and check a profile: a shipped one by name, or a user's ``.toml`` file.

    Raises ``ProfileError`` listing every problem found.
    """
    source = _locate(name_or_path, None, name_or_path)
    chain, problems = _read_chain(source)
    profile, more = build_profile(_merge(chain))
    problems += more
    if problems or profile is None:
        count = len(problems)
        raise ProfileError(
            f"profile {source.label} has {count} problem{'s' if count != 1 else ''}",
            problems,
        )
    return profile


def _dimensions(profile: Profile) -> str:
    if profile.matrix is not None:
        return f"{len(profile.matrix.column_pins)}×{len(profile.matrix.row_pins)}"
    if profile.serial is not None:
        return f"{profile.serial.columns}×{profile.serial.rows}"
    return str(len(profile.cells))


def _profiles_for(game_name: str) -> list[str]:
    found = []
    for name in list_profiles():
        try:
            if game_name in load_profile(name).games:
                found.append(name)
        except ProfileError:
            continue
    return found


def check_fits(
    profile: Profile,
    game_name: str,
    game_cells: Sequence[str],
    *,
    settings: Mapping[str, object] | None = None,
) -> list[str]:
    """What stops ``game_name`` being played on ``profile`` (empty when it fits).

    ``game_cells`` are the cells of the game's board with its chosen settings;
    ``settings`` (optional) are named in the message, e.g. ``{"rows": 10}``.
    """
    problems: list[str] = []
    label = profile.source or profile.name
    if game_name not in profile.games:
        others = _profiles_for(game_name)
        todo = (
            f"use a profile made for it: {', '.join(others)}"
            if others
            else f"add {game_name!r} to [board] games if the board really suits it"
        )
        problems.append(
            f"{label}: [board] games: profile {profile.name!r} is made for "
            f"{', '.join(profile.games)}, not {game_name!r}; {todo}"
        )
    sensed = set(profile.cells)
    missing = [c for c in game_cells if c not in sensed]
    if missing:
        shown = ", ".join(missing[:8]) + (", …" if len(missing) > 8 else "")
        with_settings = ""
        if settings:
            with_settings = " with " + ", ".join(f"{k}={v}" for k, v in settings.items())
        count = len(game_cells)
        if count > len(profile.cells):
            what = (
                f"the board has {_dimensions(profile)} sensors but "
                f"{game_name}{with_settings} needs {count}"
            )
        else:
            what = (
                f"{len(missing)} of the {count} cells {game_name}{with_settings} uses "
                "have no sensor on this board"
            )
        problems.append(
            f"{label}: [board] cells: {what} (no sensor for {shown}); "
            "choose settings that fit the board or a profile with a board that has them"
        )
    return problems
