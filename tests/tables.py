"""The tests' one way to put a game on a table: built by the package's own builder
(``firmware_bridge.runtime.table.new_session``), as ``tabletop run`` and ``tabletop sim`` do,
with what a test needs in hand: an in-memory journal, no display unless given, the
game's own referee or a stand-in, seeded dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from firmware_bridge.journal import Journal
from firmware_bridge.kits import find_kit
from firmware_bridge.referees.facts import Facts
from firmware_bridge.referees.referee import Referee
from firmware_bridge.runtime.session import Session
from firmware_bridge.runtime.table import new_session
from firmware_bridge.runtime.takeback import LastPlayed
from games.core import Game
from hardware.dice import DiceSource
from wiring.profile import Profile

G = TypeVar("G", bound=Game)


def on_table(
    game: G,
    *,
    journal: Journal | None = None,
    game_id: int | None = None,
    journaled_as: str = "t",
    referee: Callable[[G, Facts], Referee[G]] | None = None,
    profile: Profile | None = None,
    display: Any = None,
    signals: Any = None,
    labels: Callable[[str], str | None] | None = None,
    dice: DiceSource | None = None,
    last_played: LastPlayed | None = None,
) -> Session[G]:
    """A session of ``game`` on a table of its own.

    ``journal`` is a new in-memory one unless given; ``game_id`` a new game in it (seed
    1, its profile journaled as ``journaled_as``) unless given. ``referee`` replaces the
    game's own (its kit's). The rest is handed to the builder as it is.
    """
    if journal is None:
        journal = Journal(":memory:")
    if game_id is None:
        game_id = journal.new_game(game.name, game.players, 1, {}, journaled_as)
    kit = find_kit(game.name)
    session: Session[G] = new_session(
        kit,
        game,
        journal,
        game_id,
        display=display,
        signals=signals,
        profile=profile,
        labels=labels,
        dice=dice,
        last_played=last_played,
        referee=referee,
    )
    return session


TableRig = Callable[..., Session[Any]]
"""What the ``table_rig`` fixture hands a test: ``on_table``."""
