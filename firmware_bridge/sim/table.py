"""The simulator's table: the daemon's (:class:`..runtime.host.TableHost`), its start
menu and games put on it alike; what is its own is what a session seated on it is
given (the simulation's listeners, and the pieces on the simulated board).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.errors import GameError
from wiring.profile import Profile

from ..journal import GameRecord, Journal
from ..kits import find_kit
from ..runtime.host import TableHost
from ..runtime.loop import Loop
from ..runtime.session import Session
from .errors import SimError
from .stream import Stream
from .world import World

if TYPE_CHECKING:
    from ..runtime.lobby import Lobby


class SimTable(TableHost):
    """The simulated table: a game resumed or dealt from the simulation's seed, its
    pieces set on the simulated world as it is seated."""

    loop: Loop
    """The one loop, from the moment the simulated board is open."""
    world: World
    """The simulated pieces, from the moment the simulated board is open."""

    def __init__(
        self,
        journal: Journal,
        profile: Profile,
        devices: dict[str, Any],
        *,
        stream: Stream,
        save_to: Path | None,
        menu_at: Path | None,
        seed: int,
        humans: frozenset[int] | None,
        levels: dict[int, int] | None = None,
        set_up_by_hand: bool = False,
    ) -> None:
        super().__init__(
            journal,
            profile,
            devices,
            misfit=SimError,
            refusals=(GameError, SimError),
            menu_at=menu_at,
            table_options=False,
            seed=seed,
            humans=humans,
            levels=levels,
        )
        self.stream = stream
        self.set_up_by_hand = set_up_by_hand
        """A new game's set-up pieces are left for the hand to lay (``SimOptions``)."""
        self.save_to = save_to
        """Where the simulated board is kept beside the journal (None: in memory)."""
        self.think_wait: Callable[[], None] | None = None
        """Given to each session seated: lets the clock run on while the computer thinks."""

    def seated(self, session: Session[Any], begin: Any) -> None:
        """The session is on the table: the simulation's listeners, the pieces on the
        board (where they were left, for a resumed game), and the loop's events."""
        game = session.game
        session.think_wait = self.think_wait
        session.played.append(self.stream.played)
        if self.stream.listeners:
            session.listeners.append(self.stream.state)
        if isinstance(begin, GameRecord):
            saved = World.saved(self.save_to) if self.save_to else None
            if saved is None:
                saved = {c: p.label for c, p in game.layout().items()}
            self.world.save_to = None
            self.world.load(saved)
            self.world.save_to = self.save_to
        else:
            kit = find_kit(game.name)
            by_hand = kit.set_up_cells(game) if self.set_up_by_hand and kit.set_up_cells else ()
            self.world.load({c: p.label for c, p in game.layout().items() if c not in by_hand})
        self.loop.switch(session)

    def menu_opened(self, lobby: Lobby) -> None:
        self.stream.menu_opened()


def game_session(table: TableHost) -> Session[Any]:
    """The game's session on ``table`` (the last game's, while the start menu is open
    after it)."""
    if table.on_table is None:
        raise SimError("no game is on the table yet: the start menu is open")
    return table.on_table
