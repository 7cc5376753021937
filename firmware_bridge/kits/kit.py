"""A game's kit: everything the table, the simulator and the spectators need of one game.

A game's table side is one folder, ``kits/<game>/`` (the game's package name in
``games``): ``kit.py`` holds its ``KIT``, and beside it ``referee.py`` (``REFEREE``),
``turn.py`` (``new_turn``), ``view.py`` (``VIEW``) and ``hand.py`` (``HAND``, the
simulated hand). A kit finds those parts by that convention and imports each when
first asked for, so that a process that only lists the games or follows one (the
web view, the club publisher) loads none of them, and the daemon never imports a
hand. Its computer player and word list are functions that import on call.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from msgspec import Struct, field

from games.core import About, Game, Player
from games.options import OptionSpec
from games.registry import find_game

if TYPE_CHECKING:
    from games.lexicon import Lexicon

    from ..referees.facts import Facts
    from ..referees.referee import Referee
    from ..referees.view import View
    from .hand import Hand

MakeGame = Callable[[int, random.Random, Mapping[str, Any]], Game]
"""Makes a game from its number of players, its random source and its options."""


class MakePlayer(Protocol):
    """Makes the game's computer player for a game, from its random source, at a level
    (``games.levels``; the standard player when none is given)."""

    def __call__(self, game: Game, rng: random.Random, level: int | None = None, /) -> Player: ...


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

    ``about`` is what the rules say the game is (its package's ``ABOUT``: names,
    player counts, options); the other parts are the table's, the simulator's and
    the spectators'.
    """

    about: About
    make_player: MakePlayer
    """The game's computer player for a game, at a level (imports its module on call)."""
    default_profile: str
    """The shipped profile (``wiring/profiles/<name>.toml``) a simulation plays on."""
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
    set_up_cells: Callable[[Any], Sequence[str]] | None = None
    """The cells whose pieces the players lay as the OLED walks them through a new
    game's set-up (DoubleCross's start word); None: the game starts on the board."""
    open_racks: bool = False
    """Every player sees every rack (docs/rules.md), and so every spectator."""
    needs_tags: str = ""
    """Why a board must read tags to referee the game ("" when occupancy will do)."""
    computer_needs_tags: str = ""
    """Why a simulated computer player needs tags even where people could do without."""

    PARTS: ClassVar[dict[str, str]] = {
        "kit": "KIT",
        "referee": "REFEREE",
        "turn": "new_turn",
        "view": "VIEW",
        "hand": "HAND",
    }
    """The modules of a kit's folder, found by name, and what each must define."""

    def missing_parts(self) -> list[str]:
        """Every part the kit's folder lacks, in words (``"kits/foo/hand.py: no
        HAND"``): none for a kit the table and the simulator can use whole."""
        missing: list[str] = []
        for module, name in self.PARTS.items():
            where = f"kits/{self.folder}/{module}.py"
            try:
                found = self.part(module)
            except ModuleNotFoundError as gone:
                if gone.name != f"{__package__}.{self.folder}.{module}":
                    raise
                missing.append(f"{where}: no such module (it defines {name})")
                continue
            if not hasattr(found, name):
                missing.append(f"{where}: no {name}")
        return missing

    @property
    def name(self) -> str:
        """The game's name in ``games.registry`` (``"double-take"``)."""
        return self.about.name

    @property
    def options(self) -> tuple[OptionSpec, ...]:
        """The game's options (``--option``, the lobby, ``docs/rules.md``): its rules'."""
        return self.about.options

    @property
    def folder(self) -> str:
        """The kit's folder in ``kits`` and the rules' package in ``games``
        (``double_take``)."""
        return self.name.replace("-", "_")

    def part(self, module: str) -> ModuleType:
        """One of the modules of the kit's folder (``"referee"``), imported when first
        asked for."""
        return import_module(f"{__package__}.{self.folder}.{module}")

    @property
    def rules(self) -> type[Game]:
        """The game's rules: its class in ``games.registry``."""
        return find_game(self.name)

    def referee_class(self) -> type[Referee[Any]]:
        """The game's referee (``referee.py``'s ``REFEREE``)."""
        made: type[Referee[Any]] = self.part("referee").REFEREE
        return made

    def referee_for(
        self, game: Game, facts: Facts, referee: type[Referee[Any]] | None = None
    ) -> Referee[Any]:
        """The game's referee at a table with ``facts``, handed the turn state it decides
        on and the view that draws it, both made here: ``referee.turn``, ``referee.view``.
        ``referee`` is another class of referee for the game (a test's stand-in)."""
        if referee is None:
            referee = self.referee_class()
        view = self.view_for(game, facts)
        return referee(game, facts, view.turn, view)

    def view_for(self, game: Game, facts: Facts) -> View[Any]:
        """The game's view (``view.py``'s ``VIEW``) on the turn state a table takes the
        game up with (``turn.py``'s ``new_turn``), alone for its words and drawings
        (``export``, ``show``, the spectators) or for the referee."""
        turn = self.part("turn").new_turn(game, facts)
        made: View[Any] = self.part("view").VIEW(game, facts, turn)
        return made

    def hand_for(self, referee: Referee[Any]) -> Hand[Any]:
        """The simulated hand that plays ``referee``'s game (``hand.py``'s ``HAND``)."""
        made: Hand[Any] = self.part("hand").HAND(referee)
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
