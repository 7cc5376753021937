"""What is on a table, for ``tabletop run`` and ``tabletop sim`` alike: the start menu
choosing a game, or a game's session, and the switch from one to the other.

A table resumes the journal's game or starts a new one (fitted to the board,
journaled, the computer seated: :func:`.table.resume_session`,
:func:`.table.start_session`), hands it to the loop, opens the start menu once ok
asks for a new game after one, and starts the game the menu chose, or tells the menu
why that game cannot start. The daemon's table (``apps/daemon.py``) and the
simulator's (``sim/table.py``) are this one; what only one of them does is in the
two methods they override: :meth:`TableHost.seated` (the daemon's live file for the
spectators; the simulator's hand and pieces) and :meth:`TableHost.menu_opened`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.core import Game
from wiring.profile import Profile

from ..journal import GameRecord, Journal
from ..kits import Kit, find_kit
from .loop import Loop
from .session import Session
from .table import next_on_table, resume_session, start_session

if TYPE_CHECKING:  # the start menu is imported only once a table opens it
    from .lobby import Lobby, Start


class TableHost:
    """One table: its journal, its board's profile, the devices each game's session is
    shown on, and what is on it now."""

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
        """The menu offers a game's options at a real table (:func:`.lobby.lobby_choices`)."""
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
    def resume(self, record: GameRecord) -> Session[Any]:
        """The session of the journal's game ``record``, waiting for its board."""
        kit = find_kit(record.game)
        devices = {"profile": self.profile, **self.devices}
        return resume_session(kit, self.journal, record, misfit=self.misfit, **devices)

    def start_game(
        self,
        kit: Kit,
        players: int,
        seed: int | None,
        options: dict[str, Any],
        *,
        computer: frozenset[int] = frozenset(),
        game: Game | None = None,
    ) -> Session[Any]:
        """A new game of ``kit``, fitted to the board, journaled and seated."""
        return start_session(
            kit,
            self.journal,
            players,
            seed,
            options,
            misfit=self.misfit,
            profile=self.profile,
            game=game,
            computer=computer,
            **self.devices,
        )

    def put(self, session: Session[Any], begin: Any) -> None:
        """Put ``session`` on the table (``begin``: the journal's record it resumes, or
        what started it)."""
        self.lobby = None
        self.on_table = session
        self.seated(session, begin)

    def seated(self, session: Session[Any], begin: Any) -> None:
        """The session is on the table: the loop's events go to it from now on."""
        if self.loop is not None:
            self.loop.switch(session)

    # -- the start menu -----------------------------------------------------------------
    def open_menu(self, preselect: str | None) -> Lobby:
        """The start menu on the table, on ``preselect``'s game (None: its last choice).
        The finished game's session stays, but tells its listeners nothing more."""
        from .lobby import Lobby, Memory, lobby_choices, menu_file

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
        """Start the game the menu chose."""
        raise NotImplementedError

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
