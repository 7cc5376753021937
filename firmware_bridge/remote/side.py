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

A player may abandon a game while it waits for a board that is off line
(:mod:`.abandon` puts the choice in the back menu): the game ends on this board,
journaled as ended with an outcome that names no winner and the board that abandoned
it (:func:`abandoned_outcome`), and the other boards are told (``Abandoned``,
retained), and end it so too.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from games.core import Action, Game

from ..kits import find_kit
from ..referees.decisions import Played, mover_of
from ..runtime.computer import same_move
from ..runtime.session import Session
from . import protocol
from .link import Link
from .privacy import HIDDEN, SEALED
from .seats import RemoteSeats

log = logging.getLogger("tabletop.remote")


class RemoteError(RuntimeError):
    """The game cannot go on between the boards (the games differ, a move refused)."""


QUIET_S = 10.0
"""How long a game may wait on the other board with no word from it before this board
asks again: a message the brokers lost between them (a bridge whose far end restarted
while it carried it) is then sent again, and a duplicate is dropped."""

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


def abandoned_outcome(board: str) -> dict[str, Any]:
    """How the journal ends a game abandoned at ``board``: the outcome of a game (no
    winner, no draw, the reason), and who abandoned it."""
    return {
        "winners": [],
        "draw": False,
        "reason": f"{board} abandoned the game",
        "abandoned": board,
    }


def check_game(name: str) -> None:
    why = NO_GAMES.get(name)
    if why is not None:
        playable = ", ".join(("double-take", "doubles-wild", "crosslet", *sorted(SEALED)))
        raise ValueError(f"{name} cannot be played board to board yet: {why}; play {playable}")


class Side:
    """What host and guest share: the session, the link, the seats and the digests."""

    game_key: str
    """The host's id of the game (:attr:`.protocol.Table.game_key`)."""

    def __init__(
        self,
        session: Session[Any],
        link: Link,
        board: str,
        owners: list[str],
        refresh: Callable[[], None],
        people: frozenset[int] = frozenset(),
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
        self.seats = RemoteSeats(computer, remote, mine - people, owners=owners)
        self.seats.people = frozenset(people)  # this board's seats its people play
        self.seats.automatic = lambda action: bool(session.referee.automatic(action))
        name = session.game.name
        self.seats.dice_of = lambda action: protocol.rolled_faces(name, action.to_dict())
        session.computer = self.seats
        session.facts.advise = session.facts.think_hint = self.seats.hint  # on the worker
        session.facts.expected = self.seats.expected
        session.played.append(self.played)
        self._waiting_for: str | None = None
        self.sealed = session.game.name in SEALED
        """A game of hidden pieces: the guest is given its views, never the seed."""
        self.abandoned_by: str | None = None
        """The board at which the game was abandoned (None: it was not)."""
        self.heard_at: float | None = None
        """When the other board was last heard, or this board last asked again (seconds
        on the clock ``nudge`` is given; None: not yet)."""

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
        """``action`` is the game's move ``number``: to be made on this board (a move a
        person made here, held as the board shows it: made now)."""
        held = self.seats.held
        if held is not None and held[0] == number:
            self._make_held(number, held[1], action)
            return
        if self.seats.arrived.get(number) is None:
            self.seats.arrived[number] = action
            faces = self.seats.dice_of(action)
            if faces:
                # The station's dice roll what the host's rolled when the roll is made here.
                self.session.dice.load(faces)
                self.seats.rolled.add(number)
            self.note_waiting(None)
            self.refresh()

    def _make_held(self, number: int, held: Action, action: Action) -> None:
        """The host made move ``number``, which a person made here and the board shows:
        it is played here now (judged again, journaled)."""
        self.seats.held = None
        if not same_move(held, action):
            raise RemoteError(
                f"the host made move {number} otherwise than this board's player did "
                "(the boards disagree)"
            )
        self.seats.arrived[number] = action
        self.session.referee.before_play()
        verdict = self.session.commit(action)
        if not verdict.accepted:
            raise RemoteError(
                f"move {number}, made at the host, is refused here: {verdict.reason} "
                "(the boards disagree)"
            )
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

    def over(self) -> bool:
        """The game is over on this board: played to its end, or abandoned."""
        return self.game.outcome is not None or self.abandoned_by is not None

    def abandon(self) -> None:
        """This board's player gives the game up while it waits for another board: it
        ends here, and the other boards are told."""
        if self.over():
            return
        self.end_abandoned(self.board)
        self.tell_abandoned()

    def end_abandoned(self, board: str) -> None:
        """The game ends here, abandoned at ``board``: journaled as ended, and said."""
        self.abandoned_by = board
        session = self.session
        session.journal.finish(session.game_id, abandoned_outcome(board))
        log.warning("%s abandoned game %s", board, self.game_key)
        self._waiting_for = None
        prompt = session.facts.prompt
        prompt.menu = None
        prompt.hint = f"{board} abandoned the game"
        session.refresh()  # drawn as it stands (also from within the loop: the menu)

    def tell_abandoned(self) -> None:
        """Tell the other boards that this board abandoned the game."""
        raise NotImplementedError

    def take_abandoned(self, topic: str, sender: str, message: protocol.Abandoned) -> bool:
        """``message`` came on ``sender``'s topic ``topic``: the game ends here too,
        unless it is refused (why, with :meth:`refuse`); whether it ended here now."""
        if message.board != sender:
            why = f"it names the board {message.board} but came from {sender}"
        elif message.game_key != self.game_key:
            why = "it abandons another game"
        elif message.board not in self.owners:
            why = f"{message.board} holds no seat of this game"
        else:
            if self.over():
                self.dropped += 1  # told again, or the game ended first
                return False
            self.end_abandoned(message.board)
            return True
        self.refuse(topic, why)
        return False

    def played(self, played: Played) -> None:
        raise NotImplementedError

    def reconnected(self) -> None:
        """The broker was lost and is back: it may have lost what it had not delivered."""
        raise NotImplementedError

    def unconfirmed(self) -> bool:
        """Moves made here that the other board has not yet said it has."""
        return False

    def awaits_other(self) -> bool:
        """The game waits on the other board: its seat is to move, or it has still to
        confirm a move made here."""
        return (not self.over() and self.owner_to_move() != self.board) or self.unconfirmed()

    def nudge(self, now: float) -> bool:
        """Ask again, as after a reconnection, when the game has waited ``QUIET_S`` on
        the other board with no word from it; whether it asked."""
        if self.heard_at is None or not self.awaits_other():
            self.heard_at = now
            return False
        if now - self.heard_at < QUIET_S:
            return False
        self.heard_at = now
        self.reconnected()
        return True

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
