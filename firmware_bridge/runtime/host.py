"""What is on a table, for ``tabletop run`` and ``tabletop sim`` alike: the start menu
choosing a game, or a game's session, and the switch from one to the other.

A table resumes the journal's game or starts a new one (fitted to the board,
journaled, the computer seated: :func:`.table.resume_session`,
:func:`.table.start_session`), hands it to the loop, opens the start menu once ok
asks for a new game after one, and starts the game the menu chose, or tells the menu
why that game cannot start. The daemon's table (``apps/daemon.py``) and the
simulator's (``sim/table.py``) are this one; what only one of them does is in its
hooks: :meth:`TableHost.seated` (the daemon's live file for the spectators; the
simulator's listeners and pieces), :meth:`TableHost.menu_opened` and
:meth:`TableHost.refused`.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.core import Game
from wiring.profile import Profile

from ..journal import GameRecord, Journal, JournalError
from ..kits import find_kit
from .lightsink import LightSink
from .loop import Loop, Posted
from .replay import in_force
from .session import Session
from .table import next_on_table, resume_session, start_session
from .takeback import Unseen

if TYPE_CHECKING:  # the start menu is imported only once a table opens it
    from .lobby import Lobby, Start

log = logging.getLogger("tabletop")


class TableHost:
    """One table: its journal, its board's profile, the devices each game's session is
    shown on, how it deals a new game, and what is on it now."""

    def __init__(
        self,
        journal: Journal,
        profile: Profile,
        devices: dict[str, Any],
        *,
        misfit: Callable[[str], Exception],
        refusals: tuple[type[Exception], ...],
        menu_at: Path | None,
        table_options: bool,
        seed: int | None,
        words: Path | None = None,
        humans: frozenset[int] | None = None,
        game: str | None = None,
        players: int = 2,
        levels: Mapping[int, int] | None = None,
    ) -> None:
        self.journal = journal
        self.profile = profile
        self.devices = devices
        """What a session is shown on and reads from: ``display``, ``signals``,
        ``labels``, ``lights`` (and ``dice`` in simulation); a device opened later is
        set here, and the session on the table given it."""
        self.misfit = misfit
        """Makes the error that refuses a game the board does not fit."""
        self.refusals = refusals
        """The errors that stop the menu's game from starting (told on the menu)."""
        self.menu_at = menu_at
        """The journal whose start menu remembers its last choices beside it."""
        self.table_options = table_options
        """A real table: the menu offers a game's options (:func:`.lobby.lobby_choices`)
        and a new game takes its kit's ``table_options`` first."""
        self.seed = seed
        """What every new game is dealt from (None: a fresh random seed each game)."""
        self.words = words
        """The user's own word list, for a word game's ``words`` option."""
        self.humans = humans
        """The seats people play in every new game, the computer the others (None: the
        start menu's choice, or nobody's the computer)."""
        self.levels = dict(levels or {})
        """The level of each computer seat given one (``--level``), in every new game
        whose seats the start menu did not choose."""
        self.game = game
        self.players = players
        """The game :meth:`start` deals when the journal has none unfinished (None: the
        start menu), and for how many."""
        self.unseen: Unseen | None = None
        """What the seed of the journal's game did not deal, arranged as it is resumed
        (a guest's game of hidden pieces: the host's views)."""
        self.loop: Loop | None = None
        self.on_table: Session[Any] | None = None
        """The game's session on the table (None before the first game)."""
        self.lobby: Lobby | None = None
        """The start menu, while it is open."""

    @property
    def session(self) -> Session[Any] | None:
        """The game's session on the table."""
        return self.on_table

    # -- a game on the table ------------------------------------------------------------
    def start(self) -> None:
        """Put the journal's unfinished game on the table, else the configured one, else
        the start menu."""
        record = self.journal.unfinished()
        if record is not None:
            session = self.resume(record)
            self.put(session, record)
            log.info(
                "resumed game %d of %s after %d inputs",
                record.id,
                record.game,
                len(session.game.history),
            )
        elif self.game is not None:
            self.put(self.new_session(self.game, self.players), None)
        else:
            self.open_menu(None)

    def resume(self, record: GameRecord) -> Session[Any]:
        """The session of the journal's game ``record``, waiting for its board."""
        kit = find_kit(record.game)
        devices = {"profile": self.profile, **self.devices}
        return resume_session(
            kit, self.journal, record, misfit=self.misfit, unseen=self.unseen, **devices
        )

    def new_session(
        self,
        name: str,
        players: int,
        computer: frozenset[int] = frozenset(),
        chosen: Mapping[str, Any] | None = None,
        *,
        game: Game | None = None,
        levels: Mapping[int, int] | None = None,
    ) -> Session[Any]:
        """A new game of ``name``, fitted to the board, journaled and seated: ``computer``
        the seats the computer plays, ``chosen`` the options given (``game``: the game
        already dealt from them)."""
        kit = find_kit(name)
        options = {**(kit.table_options if self.table_options else {}), **(chosen or {})}
        if kit.word_game and self.words is not None:
            options["words"] = str(self.words)
        if self.humans is not None:
            computer = frozenset(range(players)) - self.humans
        levels = self.levels if levels is None else levels
        levels = {seat: level for seat, level in levels.items() if seat in computer}
        return start_session(
            kit,
            self.journal,
            players,
            self.seed,
            options,
            misfit=self.misfit,
            profile=self.profile,
            game=game,
            computer=computer,
            levels=levels,
            **self.devices,
        )

    def put(self, session: Session[Any], begin: Any) -> None:
        """Put ``session`` on the table (``begin``: the journal's record it resumes, the
        start menu's choice, or None)."""
        self.lobby = None
        self.on_table = session
        self.seated(session, begin)

    def seated(self, session: Session[Any], begin: Any) -> None:
        """The session is on the table: the loop's events go to it from now on."""
        if self.loop is not None:
            self.loop.switch(session)

    def attach(self, loop: Loop, signals: Any, lights: LightSink | None = None) -> None:
        """Give the table started without them its loop, its buzzer and LED and its LED
        chain: from now on events reach what is on the table, as if it had had them
        from the start."""
        self.loop = loop
        self.devices["signals"] = signals
        self.devices["lights"] = lights
        if self.lobby is not None:
            loop.switch(self.lobby)
            self.lobby.refresh()
        elif self.on_table is not None:
            if signals is not None:
                self.on_table.signals = signals
            if lights is not None:
                self.on_table.lights = lights
            loop.switch(self.on_table)
            self.on_table.refresh()

    # -- the start menu -----------------------------------------------------------------
    def open_menu(self, preselect: str | None) -> Lobby:
        """The start menu on the table, on ``preselect``'s game (None: its last choice).
        The finished game's session stays, but tells its listeners nothing more."""
        from .lobby import Lobby, lobby_choices, menu_file
        from .lobby_memory import Memory

        if self.on_table is not None:
            self.on_table.listeners.clear()
        games = lobby_choices(self.profile, table=self.table_options)
        memory = Memory(menu_file(self.menu_at))
        self.lobby = Lobby(games, self.devices["display"], preselect, memory)
        if self.loop is not None:
            self.loop.switch(self.lobby)
        self.menu_opened(self.lobby)
        return self.lobby

    def menu_opened(self, lobby: Lobby) -> None:
        """The start menu is on the table (and on the loop, if the table has one)."""

    def begin(self, chosen: Start) -> None:
        """Start the game the menu chose; its board is set up as it stands first."""
        session = self.new_session(
            chosen.game, chosen.players, chosen.computer, chosen.options, levels=chosen.levels
        )
        session.restoring = True
        self.put(session, chosen)

    def after_step(self) -> bool:
        """Move on when the menu has its answer, or ok asked for a new game after one;
        whether the table moved on (a refused game included)."""
        after = next_on_table(self.lobby, self.on_table)
        if isinstance(after, str):  # ok after a game: the start menu on its game
            self.open_menu(after)
        elif after is not None:  # the start menu's game
            lobby = self.lobby
            assert lobby is not None
            try:
                self.begin(after)
            except self.refusals as exc:  # options or a board that cannot play it
                self.refused(lobby, exc)
        return after is not None

    def refused(self, lobby: Lobby, exc: Exception) -> None:
        """The menu's game cannot start (``exc`` says why): the menu says so."""
        lobby.refused(str(exc))

    # -- a failed event -----------------------------------------------------------------
    def event_failed(self, event: Posted, exc: Exception) -> None:
        """One event could not be handled: log it and play on, unless the journal is hurt.

        A journal that cannot be written, or a game that no longer matches its journal
        (it failed between journaling an input and playing it), stops the table: the
        daemon is started again and the game resumes from the journal.
        """
        if isinstance(exc, JournalError | sqlite3.Error | OSError):
            raise exc
        session = self.on_table
        if session is not None:
            entries = self.journal.entries(session.game_id)
            journaled = len(in_force(entries, f"game {session.game_id}"))
            if journaled != len(session.game.history):
                raise JournalError(
                    f"game {session.game_id} no longer matches its journal after a failed "
                    f"{type(event).__name__} ({exc!r}); restarting resumes it from the journal"
                ) from exc
        log.error("could not handle %s; play goes on", event, exc_info=exc)
