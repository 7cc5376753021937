"""The options each game takes, and the checks of ``--option KEY=VALUE`` against them.

Each game's options are declared once, in its rules' ``ABOUT``
(``games/<game>/__init__.py``), as ``OptionSpec``s (``games/options.py``: name, what
values it takes, default, one line of help); ``tabletop sim --help`` lists them, an
unknown name or a bad value stops with the list of valid options, and
``docs/rules.md`` explains each. The engines check their settings against the same
specs; this is the check the people read, made before a game is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from games.errors import BadSettings
from games.options import OptionSpec
from games.registry import find_listed

from . import KITS, Kit


class OptionError(BadSettings):
    """A ``--option`` the game does not have, or a value it does not take."""


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, Any]:
    """``--option KEY=VALUE`` pairs as a mapping; a value that reads as JSON is taken as such."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"--option {pair!r} should look like KEY=VALUE")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def _kit(game: str) -> Kit | None:
    """The game's kit, which declares its options; None for a game without one."""
    return KITS.get(game)


def options_of(game: str) -> tuple[OptionSpec, ...] | None:
    """The game's declared options (its kit's); None for a game without a kit."""
    kit = _kit(game)
    return None if kit is None else kit.options


def takes_words(game: str) -> bool:
    """Whether the game judges words (takes ``--words``)."""
    return any(spec.kind == "path" and spec.name == "words" for spec in options_of(game) or ())


def listing(title: str, specs: tuple[OptionSpec, ...], players: int | None = None) -> str:
    """The valid options of a game, one a line, for messages and help."""
    if not specs:
        return f"{title} has no options"
    lines = [f"{title} options:"]
    lines += [f"  {spec.line(players)}" for spec in specs]
    return "\n".join(lines)


def check_options(
    game: str,
    title: str,
    given: Mapping[str, Any],
    players: int | None,
    sources: Mapping[str, str] | None = None,
) -> None:
    """Refuse an option the game does not have or a value it does not take.

    Raises ``OptionError`` naming every problem, with a did-you-mean for a misspelt
    name and the list of the game's options and their values. ``sources`` names the
    setup file an option was read from (the others came from ``--option``).
    """
    kit = _kit(game)
    if kit is None:
        return
    specs = kit.options
    sources = sources or {}
    by_name = {spec.name: spec for spec in specs}
    problems: list[str] = []
    for name, value in given.items():
        spec = by_name.get(name)
        source = sources.get(name)
        shown = _shown(name, value, source)
        if spec is None:
            if not specs:
                leave = f"take {name} out of {source}" if source else f"leave out {shown}"
                problems.append(f"{title} has no options: {leave}")
                continue
            import difflib  # here: only a misspelt name needs it

            near = difflib.get_close_matches(name, list(by_name), n=1, cutoff=0.6)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            problems.append(f"{title} has no option {name!r} ({shown}){hint}")
        elif spec.flag:
            where = f"in a setup file ({source})" if source else "--option"
            problems.append(f"{name} is set with {spec.flag}, not {where}")
        else:
            why = spec.problem(value, players)
            if why is not None:
                problems.append(f"{shown}: {name} {why}")
    if not problems and kit.check_options is not None:
        problems = kit.check_options(given, players)
    if problems:
        text = "\n".join(problems)
        if specs:
            text += "\n" + listing(title, specs, players)
        raise OptionError(text)


def _shown(name: str, value: object, source: str | None) -> str:
    """How the option was written: ``--option rows=8`` or ``setup.toml: rows = 8``."""
    if source:
        return f"{source}: {name} = {_plain(value)}"
    return f"--option {name}={value if isinstance(value, str) else _plain(value)}"


def _plain(value: object) -> str:
    return json.dumps(value)


def help_text(games: list[tuple[str, str]]) -> str:
    """Every game and its options, for ``tabletop sim --help``; ``games`` are
    (name, title) pairs."""
    lines = ["games and their options (--option NAME=VALUE):"]
    for name, title in games:
        specs = options_of(name)
        lines.append(f"  {name}: {title}")
        if specs is None:
            lines.append("    (options not listed)")
        elif not specs:
            lines.append("    no options")
        for spec in specs or ():
            lines.append(f"    {spec.line()}")
    return "\n".join(lines)


def check_sim_arguments(
    game: str,
    options: Mapping[str, Any],
    players: int | None,
    words: object,
    sources: Mapping[str, str] | None = None,
) -> None:
    """Refuse ``tabletop sim``'s options the game does not take, and ``--words`` for a
    game without words, before anything starts. ``sources``: as for ``check_options``."""
    title = find_listed(game).title
    check_options(game, title, options, players, sources)
    if words is not None and not takes_words(game):
        raise OptionError(f"--words: {title} uses no words; leave --words out")
