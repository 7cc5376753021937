"""What the daemon needs per game: its rules, its referee, its computer player.

Like the games themselves, kits are a plain list with a lookup by name. Building a
kit imports its game's referee (and with it the screens and the devices' events);
:func:`new_game` makes a game without them, for processes that only follow one
(the web view, the club publisher).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.core import BadSettings, Game, GameError, Player, UnknownGame
from games.registry import find_game

if TYPE_CHECKING:
    from games.lexicon import Lexicon
    from games.movegen import MoveGenerator

    from .referee import Referee


@dataclass(frozen=True)
class Kit:
    name: str
    make_referee: Callable[..., Referee[Any]]
    """Builds the game's referee from the game and the table's facts."""
    make_player: Callable[[Game, random.Random], Player]
    default_profile: str
    make_game: Callable[[int, random.Random, Mapping[str, Any]], Game] | None = None
    word_game: bool = False
    """Judges words: takes the user's own word list (the ``words`` option)."""
    table_options: Mapping[str, Any] = field(default_factory=dict)
    """Options for a game at a real table (the daemon), where they differ from the
    simulation's: Crosslet's tiles come from the table's own bag there."""
    needs_tags: str = ""
    """Why a board must read tags to referee the game ("" when occupancy will do)."""
    computer_needs_tags: str = ""
    """Why a simulated computer player needs tags even where people could do without."""

    def new_game(self, players: int, rng: random.Random, options: Mapping[str, Any]) -> Game:
        if self.make_game is not None:
            return self.make_game(players, rng, options)
        return find_game(self.name)(players, rng, options)


def new_game(name: str, players: int, rng: random.Random, options: Mapping[str, Any]) -> Game:
    """A new game called ``name`` to follow: its rules only, without importing its referee
    and without loading a move generator, which only hints and computer players use."""
    make = _FOLLOWED_GAME_MAKERS.get(name)
    if make is not None:
        return make(players, rng, options)
    return find_game(name)(players, rng, options)


def _double_take() -> Kit:
    from games.double_take import DoubleTakePlayer

    from .referees.double_take import DoubleTakeReferee

    return Kit(
        name="double-take",
        make_referee=DoubleTakeReferee,
        make_player=lambda game, rng: DoubleTakePlayer(rng),
        default_profile="sim",
    )


def _doubles_wild() -> Kit:
    from games.doubles_wild_player import DoublesWildPlayer

    from .referees.doubles_wild import DoublesWildReferee

    return Kit(
        name="doubles-wild",
        make_referee=DoublesWildReferee,
        make_player=lambda game, rng: DoublesWildPlayer(rng),
        default_profile="doubles-wild-gpio",
    )


def _dominoes() -> Kit:
    from games.dominoes import DominoesPlayer

    from .referees.dominoes import DominoesReferee

    return Kit(
        name="dominoes",
        make_referee=DominoesReferee,
        make_player=lambda game, rng: DominoesPlayer(rng),
        default_profile="rfid-15x15-pico",
        computer_needs_tags="the simulated players cannot answer the menu that asks "
        "which domino was laid",
    )


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


def _new_crosslet(players: int, rng: random.Random, options: Mapping[str, Any]) -> Game:
    from games.crosslet import Crosslet

    lexicon = lexicon_for(options.get("words"))
    # Loaded when a hint or a computer player first asks, not before the first frame.
    return Crosslet(
        players, rng, options, lexicon=lexicon, make_generator=lambda: crosslet_generator(lexicon)
    )


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


def _followed_crosslet(players: int, rng: random.Random, options: Mapping[str, Any]) -> Game:
    from games.crosslet import Crosslet

    return Crosslet(players, rng, options, lexicon=JournaledWords())


def _new_doublecross(players: int, rng: random.Random, options: Mapping[str, Any]) -> Game:
    from games.doublecross import DoubleCross

    return DoubleCross(players, rng, options, lexicon=lexicon_for(options.get("words")))


_FOLLOWED_GAME_MAKERS: dict[str, Callable[[int, random.Random, Mapping[str, Any]], Game]] = {
    "crosslet": _followed_crosslet,
    "doublecross": _new_doublecross,
}
"""The games that need more than their class to be made: Crosslet its words on trust,
DoubleCross its word list."""


def _crosslet() -> Kit:
    from games.crosslet import Crosslet
    from games.crosslet_player import CrossletPlayer

    from .referees.crosslet import CrossletReferee

    def make_player(game: Game, rng: random.Random) -> Player:
        if not isinstance(game, Crosslet):
            raise TypeError(f"the Crosslet kit plays Crosslet, not {game.title}")
        return CrossletPlayer(game.generator, rng)

    return Kit(
        name="crosslet",
        make_referee=CrossletReferee,
        make_player=make_player,
        default_profile="rfid-15x15-pico",
        make_game=_new_crosslet,
        table_options={"racks": "table"},
        word_game=True,
        needs_tags="Crosslet's letter tiles differ only by their tags",
    )


def _doublecross() -> Kit:
    from games.doublecross_player import DoubleCrossPlayer

    from .referees.doublecross import DoubleCrossReferee

    return Kit(
        name="doublecross",
        make_referee=DoubleCrossReferee,
        make_player=lambda game, rng: DoubleCrossPlayer(rng),
        default_profile="rfid-15x15-pico",
        make_game=_new_doublecross,
        word_game=True,
        needs_tags="DoubleCross's letter tiles differ only by their tags",
    )


KITS: dict[str, Callable[[], Kit]] = {
    "crosslet": _crosslet,
    "doublecross": _doublecross,
    "double-take": _double_take,
    "dominoes": _dominoes,
    "doubles-wild": _doubles_wild,
}


def find_kit(name: str) -> Kit:
    try:
        return KITS[name]()
    except KeyError:
        find_game(name)  # raises UnknownGame with the list of games
        raise UnknownGame(f"{name} cannot be played on a board yet") from None
