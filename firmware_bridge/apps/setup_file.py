"""Set-up files (``--setup FILE``): a game's options in TOML, for set-ups too long for
a command line.

The keys are the option names of ``--option`` (``tabletop sim --help`` lists them),
the values TOML's own (numbers, strings, lists, tables). An option given both in the
file and with ``--option`` takes the ``--option`` value, as a whole (a table given
with ``--option`` replaces the file's table). The options are checked together,
with the file and key named in every problem, before anything is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from wiring.tomlfile import read_toml

from ..kits.options import check_sim_arguments, parse_option_pairs
from .errors import SetupFileError


def read_setup(path: Path) -> dict[str, Any]:
    """The options in a set-up file; raises ``SetupFileError`` naming the file and the
    line of a syntax error."""
    if path.is_dir():
        raise SetupFileError(
            f"cannot read the setup file {path}",
            [f"{path}: is a folder; give the path of a TOML file of the game's options"],
        )
    return read_toml(path, str(path), "the setup file", SetupFileError)


def game_options(
    game: str,
    pairs: Sequence[str],
    setup: Path | None,
    players: int | None,
    words: Path | None,
) -> dict[str, Any]:
    """The options a new game starts with: the set-up file's, then ``--option`` pairs
    over them, then ``--words``; checked against the game's options (``OptionError``)."""
    options: dict[str, Any] = {}
    sources: dict[str, str] = {}
    if setup is not None:
        options = read_setup(setup)
        sources = dict.fromkeys(options, str(setup))
    for key, value in parse_option_pairs(pairs).items():
        options[key] = value
        sources.pop(key, None)
    check_sim_arguments(game, options, players, words, sources)
    if words is not None:
        options["words"] = str(words.resolve())
    return options
