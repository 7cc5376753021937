"""The word games' word lists and move generators, each loaded once per process."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from games.errors import BadSettings, GameError

if TYPE_CHECKING:
    from games.crosslet.movegen import MoveGenerator
    from games.lexicon import Lexicon


def crosslet_lexicon() -> Lexicon:
    """The shipped word list's lexicon, loaded once per process (its index is cached)."""
    return _lexicon(None)


@functools.cache
def _lexicon(path: str | None) -> Lexicon:
    """A word list's lexicon, loaded from its cache once per process."""
    from .lexicon_store import load_lexicon

    return load_lexicon(None if path is None else Path(path))


def crosslet_generator(lexicon: Lexicon) -> MoveGenerator:
    """The move generator of a lexicon (hints, computer players), loaded from its cache
    once per process; every game of the lexicon is given this one."""
    return _generator(lexicon)


def lazy_generator(lexicon: Lexicon) -> Callable[[], MoveGenerator]:
    """Loads the lexicon's move generator when first called: when a hint or a computer
    player first asks, not before the first frame."""
    return lambda: crosslet_generator(lexicon)


@functools.cache
def _generator(lexicon: Lexicon) -> MoveGenerator:
    from .lexicon_store import load_generator

    return load_generator(lexicon)


def lexicon_for(words: object) -> Lexicon:
    """The lexicon a word game was started with: the shipped list, or a user's own.

    ``words`` is the game's ``"words"`` option: the path of the user's list, kept in
    the journal so that a resumed game judges with the same list.
    """
    if words is None:
        return crosslet_lexicon()
    if not isinstance(words, str) or not words:
        raise BadSettings(f"the words option must be the path of a word list, not {words!r}")
    return _lexicon(words)


class JournaledWords:
    """The words of a journaled Crosslet game, taken on trust.

    The referee checked every word against its list before the action was journaled,
    and Crosslet's points come from the letters and the cells alone, so a game that
    is only followed needs no word list (and no 6 MB index). Not for DoubleCross,
    whose points are judged word by word.
    """

    def is_word(self, s: str) -> bool:
        return True

    def words(self) -> Iterable[str]:
        raise GameError("a followed game takes its words on trust: it has no word list")
