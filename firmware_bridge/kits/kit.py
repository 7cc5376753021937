"""A game's kit: everything the table, the simulator and the spectators need of one game.

A kit is light to import: its referee, view and simulated hand are named by their
module and class (``"firmware_bridge.referees.crosslet.referee:CrossletReferee"``) and its
computer player and word list by functions that import on call, so that a process
that only lists the games or follows one (the web view, the club publisher) loads
none of them, and the daemon never imports the simulator through it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from pkgutil import resolve_name
from typing import TYPE_CHECKING, Any

from msgspec import Struct, field

from games.core import Game, Player
from games.registry import find_game

from .option_spec import OptionSpec

if TYPE_CHECKING:
    from games.lexicon import Lexicon

    from ..referees.facts import Facts
    from ..referees.referee import Referee
    from ..referees.view import View

MakeGame = Callable[[int, random.Random, Mapping[str, Any]], Game]
"""Makes a game from its number of players, its random source and its options."""

Specials = dict[str, dict[str, str]]
"""The special spaces of a board: cell -> its ``text``, ``fill`` and ``name``."""


class BoardLook(Struct, frozen=True):
    """A game's part of its board's drawing plan (``spectate/geometry.py``), for the
    spectators' page and ``tabletop show``'s pictures."""

    specials: Callable[[Game, Sequence[str]], Specials] | None = None
    """The game's special spaces (bonus squares, diamonds, bombs...), None for none."""
    upside_down: bool = False
    """The first rank is drawn at the bottom (Double Take: as red sits)."""
    values: Callable[[], Mapping[str, int]] | None = None
    """What each letter is worth, shown on its tiles (None: the tiles show no value)."""


class Kit(Struct, frozen=True):
    """Everything one game needs beyond its rules.

    ``name`` is the game's name in ``games.registry``, which lists the rules; the
    other parts are the table's, the simulator's and the spectators'.
    """

    name: str
    referee: str
    """Where the game's referee is (``"module:Class"``), imported when first made."""
    view: str
    """Where the game's view is (``"module:Class"``): made with the referee's turn state
    by :meth:`referee_for`, or alone by :meth:`view_for`."""
    make_player: Callable[[Game, random.Random], Player]
    """The game's computer player for a game (imports its module on call)."""
    hand: str
    """Where the simulated hand is (``"module:Class"`` in ``firmware_bridge.sim.hands``)."""
    default_profile: str
    """The shipped profile (``wiring/profiles/<name>.toml``) a simulation plays on."""
    options: tuple[OptionSpec, ...] = ()
    """The game's options (``--option``, the lobby, ``docs/rules.md``)."""
    check_options: Callable[[Mapping[str, Any], int | None], list[str]] | None = None
    """The game's own check of its options taken together (letters, counts, cells),
    run once every option is of the right kind; the problems found, in words."""
    board: BoardLook = field(default_factory=BoardLook)
    words: Callable[[object], Lexicon] | None = None
    """The word list of a word game from its ``words`` option (None: no words)."""
    make_game: MakeGame | None = None
    """Makes the game the table plays, where its class alone will not do."""
    follow_game: MakeGame | None = None
    """Makes the game a spectator follows, where it differs from the table's."""
    table_options: Mapping[str, Any] = field(default_factory=dict)
    """Options for a game at a real table (the daemon), where they differ from the
    simulation's: Crosslet's tiles come from the table's own bag there."""
    open_racks: bool = False
    """Every player sees every rack (docs/rules.md), and so every spectator."""
    needs_tags: str = ""
    """Why a board must read tags to referee the game ("" when occupancy will do)."""
    computer_needs_tags: str = ""
    """Why a simulated computer player needs tags even where people could do without."""

    @property
    def rules(self) -> type[Game]:
        """The game's rules: its class in ``games.registry``."""
        return find_game(self.name)

    def referee_for(
        self, game: Game, facts: Facts, referee: type[Referee[Any]] | None = None
    ) -> Referee[Any]:
        """The game's referee at a table with ``facts``, handed the turn state it decides
        on and the view that draws it, both made here: ``referee.turn``, ``referee.view``.
        ``referee`` is another class of referee for the game (a test's stand-in)."""
        if referee is None:
            referee = resolve_name(self.referee)
        view = self._view(game, facts, referee)
        return referee(game, facts, view.turn, view)

    def view_for(self, game: Game, facts: Facts) -> View[Any]:
        """The game's view alone, for its words and drawings (``export``, ``show``,
        the spectators), with the turn state a table would take the game up with."""
        return self._view(game, facts, resolve_name(self.referee))

    def _view(self, game: Game, facts: Facts, referee: type[Referee[Any]]) -> View[Any]:
        """The game's view on the turn state ``referee`` takes the game up with."""
        made: View[Any] = resolve_name(self.view)(game, facts, referee.new_turn(game, facts))
        return made

    @property
    def word_game(self) -> bool:
        """Judges words: takes the user's own word list (the ``words`` option)."""
        return self.words is not None

    def new_game(self, players: int, rng: random.Random, options: Mapping[str, Any]) -> Game:
        """A new game to play at a table."""
        if self.make_game is not None:
            return self.make_game(players, rng, options)
        return self.rules(players, rng, options)

    def followed_game(self, players: int, rng: random.Random, options: Mapping[str, Any]) -> Game:
        """A new game to follow: its rules only, without a move generator, which only
        hints and computer players use."""
        if self.follow_game is not None:
            return self.follow_game(players, rng, options)
        return self.new_game(players, rng, options)
