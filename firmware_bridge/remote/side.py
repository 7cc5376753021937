"""The two roles of a game played board to board: the host, whose referee decides,
and a guest, which holds some seats.

Both sides journal the game as their own session always does; these classes only
add what the broker carries. They run on the board's own thread: :meth:`Side.take`
handles one message from :attr:`.link.Link.inbox`.

The host publishes every move it journals, numbered, with the digest of the game
before it, and the whole game retained on ``table`` when a guest asks for it. A
guest's move is judged at once by the guest's own referee (the feedback at its
board), journaled there and sent numbered; it is the game's move once the host has
judged and journaled it and published it back. A duplicate is dropped; a gap, or a
digest that does not match, makes the guest ask for the host's journaled moves and
take them from ``table``, never guess; a game that differs from the host's stops the
guest with what differs.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from games.core import Action, Game

from ..kits import find_kit
from ..referees.decisions import Played, mover_of
from ..runtime.session import Session
from . import protocol
from .link import Link
from .privacy import HIDDEN, SEALED
from .seats import RemoteSeats

log = logging.getLogger("tabletop.remote")


class RemoteError(RuntimeError):
    """The game cannot go on between the boards (the games differ, a move refused)."""


MAX_AHEAD = 32
"""Moves a guest may send beyond the host's while those before them are still to be
made at the host (a Doubles Wild battle's keeps and rolls come a few at a time)."""

NO_GAMES = {
    name: f"each board would learn the other's {h.what}"
    for name, h in HIDDEN.items()
    if name not in SEALED
}
"""Games not yet played board to board, and why: their hidden pieces
(:data:`.privacy.HIDDEN`), which a guest given the seed would be dealt, and no guest
is yet given its view in the seed's place (:data:`.privacy.SEALED`)."""


def check_game(name: str) -> None:
    why = NO_GAMES.get(name)
    if why is not None:
        playable = ", ".join(("double-take", "doubles-wild", "crosslet", *sorted(SEALED)))
        raise ValueError(f"{name} cannot be played board to board yet: {why}; play {playable}")


class Side:
    """What host and guest share: the session, the link, the seats and the digests."""

    def __init__(
        self,
        session: Session[Any],
        link: Link,
        board: str,
        owners: list[str],
        refresh: Callable[[], None],
    ) -> None:
        self.session = session
        self.link = link
        self.board = board
        self.owners = owners
        """Who holds each seat (a board's name)."""
        self.refresh = refresh
        """Shows the session's screen again (an arrived move, a waiting note)."""
        self.refused: list[str] = []
        """Every message refused at intake, with why (also logged)."""
        self.dropped = 0
        """Duplicates dropped."""
        mine = {seat for seat, owner in enumerate(owners) if owner == board}
        self.mine = frozenset(mine)
        """The seats this board holds."""
        computer = session.computer
        if computer is None:
            raise ValueError(f"{session.game.title} has no computer player")
        remote = set(range(len(owners))) - mine
        self.seats = RemoteSeats(computer, remote, mine, owners=owners)
        self.seats.automatic = lambda action: bool(session.referee.automatic(action))
        name = session.game.name
        self.seats.dice_of = lambda action: protocol.rolled_faces(name, action.to_dict())
        session.computer = self.seats
        session.facts.advise = self.seats.advise
        session.facts.expected = self.seats.expected
        session.played.append(self.played)
        self._waiting_for: str | None = None
        self.sealed = session.game.name in SEALED
        """A game of hidden pieces: the guest is given its views, never the seed."""

    @property
    def game(self) -> Game:
        game: Game = self.session.game
        return game

    def start_digest(self) -> str:
        record = self.session.facts.record
        assert record is not None
        seed = None if self.sealed else record.seed  # a guest of hidden pieces has none
        return protocol.start_digest(record.game, record.players, seed, record.options)

    def history(self) -> list[dict[str, Any]]:
        return [action.to_dict() for action in self.game.history]

    def digests(self) -> list[str]:
        return protocol.digests(self.start_digest(), self.history())

    def owner_to_move(self) -> str:
        return self.owners[self.game.to_move]

    def refuse(self, topic: str, why: str) -> None:
        log.warning("refused a message on %s: %s", topic, why)
        self.refused.append(f"{topic}: {why}")

    def arrive(self, number: int, action: Action) -> None:
        """``action`` is the game's move ``number``: to be made on this board."""
        if self.seats.arrived.get(number) is None:
            self.seats.arrived[number] = action
            faces = self.seats.dice_of(action)
            if faces:
                # The station's dice roll what the host's rolled when the roll is made here.
                self.session.dice.load(faces)
                self.seats.rolled.add(number)
            self.note_waiting(None)
            self.refresh()

    def note_waiting(self, board: str | None) -> None:
        """Say on the OLED that the game waits for ``board`` (None: it does not)."""
        if board == self._waiting_for:
            return
        self._waiting_for = board
        prompt = self.session.facts.prompt
        text = f"Waiting for {board}'s board" if board is not None else ""
        if board is not None or prompt.hint.startswith("Waiting for "):
            prompt.hint = text
        self.refresh()

    def played(self, played: Played) -> None:
        raise NotImplementedError

    def reconnected(self) -> None:
        """The broker was lost and is back: it may have lost what it had not delivered."""
        raise NotImplementedError

    def poll(self) -> None:
        """Send what the game now asks of the other board (a guest: the host's dice)."""

    def waiting_for(self) -> str | None:
        """The board the game waits for while it is off line (None: not waiting)."""
        raise NotImplementedError

    def take(self, topic: str, payload: bytes) -> None:
        raise NotImplementedError


def movers_of(session: Session[Any], history: list[Action]) -> list[int]:
    """Who made each action of ``history``, replayed from the game's start."""
    record = session.facts.record
    assert record is not None
    kit = find_kit(record.game)
    game = kit.new_game(record.players, random.Random(record.seed), dict(record.options))
    out = []
    for action in history:
        out.append(mover_of(game, action))
        game.apply(action)
    return out
