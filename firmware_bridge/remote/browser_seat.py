"""A browser seat: a player with no board plays one seat of a game hosted by a board,
from a phone's browser, on a page this process serves.

The seat is a guest of the host exactly as a guest board is (:mod:`.protocol`): it
takes the host's retained ``table``, follows ``moves``, sends its player's moves on
``from/<seat board>`` numbered with the digest of the game before, asks the host for
its dice (``roll``) and takes them (``rolled``). Unlike a guest board it has no board
to make the host's moves on and no journal: its game is exactly the host's journaled
moves, and a move its player makes is the game's when the host publishes it back
(until then the page says it is sent). The rules judge each move here first, so a
refused move shows the rules' own reason at once; the host's referee judges it again
and decides.

In a game of hidden pieces (Dominoes, DoubleCross) the seat is never given the seed:
its game is dealt from its own view of the deal and follows the host's views of each
position (:mod:`.seat_sealed`), and each move it sends carries the digest of its view.

The page's link carries a secret token (:mod:`.seat_tokens`); the seat meets the
broker through :mod:`.seat_pump`.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from games.core import Action, Game
from games.errors import GameError

from ..kits import new_game
from ..referees.decisions import mover_of
from ..spectate.errors import MessageRefused
from ..spectate.project import describe
from . import protocol
from .privacy import view_digest
from .seat_draft import Draft, dice_kind, fill_dice
from .seat_sealed import SEALED, Sealed, ViewsDisagree

log = logging.getLogger("tabletop.remote")
__all__ = ["Draft", "Seat", "fill_dice"]


# -- the seat's game --------------------------------------------------------------------
def _blank_game(table: protocol.Table) -> Game:
    return new_game(table.game, table.players, random.Random(table.seed), dict(table.options))


class Seat:
    """One browser seat's view of the host's game, and what its player does.

    Not thread-safe by itself: :attr:`lock` is held by whoever calls it (the pump
    thread for messages, the web server's threads for the player's requests).
    ``publish`` sends one message (a :class:`.link.Link`'s ``publish``).
    """

    def __init__(
        self,
        board: str,
        table: protocol.Table,
        publish: Callable[[str, protocol.Message], None],
    ) -> None:
        self.board = board
        self.publish = publish
        self.lock = threading.RLock()
        self.host_online = True
        self.refused: list[str] = []
        """Messages refused at intake, with why."""
        self.dropped = 0
        self.changed = threading.Condition(self.lock)
        self.version = time.time_ns() // 1_000_000
        """Counts every change the page shows; from the clock's milliseconds, so a page
        drawn by an earlier run of the server is never taken for one of this run's."""
        self._start(table)

    def _start(self, table: protocol.Table) -> None:
        self.table = table
        self.host = table.host
        self.game_key = table.game_key
        self.mine = frozenset(s for s, owner in enumerate(table.seats) if owner == self.board)
        self.sealed = Sealed(table, self.mine) if table.game in SEALED else None
        """A game of hidden pieces: the seat is given its views, never the seed."""
        self.game = _blank_game(table) if self.sealed is None else self.sealed.blank()
        seed = None if self.sealed is not None else table.seed
        self.start = protocol.start_digest(table.game, table.players, seed, table.options)
        self.digest = self.start
        self.pending: protocol.Move | None = None
        """The player's move sent and not yet published back by the host."""
        self.asked: tuple[int, str] | None = None
        """The move whose dice were asked of the host, and the action they fill in."""
        self.draft = Draft()
        self.moves: list[dict[str, Any]] = []
        """Each move played, as the spectators' move list shows it."""
        self.note = ""
        """The last refusal, or what the page should tell the player."""
        self.error = ""
        """Why the game cannot go on here (the host's game differs, or is another)."""
        self._take_moves(table.moves, "the host's table")

    # -- what the page asks ------------------------------------------------------
    def bump(self) -> None:
        """Something the page shows changed: the pages waiting for a change are told."""
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    def ready(self) -> bool:
        """Whether the seat's game is the host's now (a game of hidden pieces: dealt,
        and every move the host made played here, agreeing with its views)."""
        sealed = self.sealed
        return sealed is None or (sealed.dealt and sealed.views.ready(self.game))

    def my_turn(self) -> bool:
        """Whether the player is to move now (nothing sent or asked and not answered)."""
        return (
            not self.error
            and self.ready()
            and self.game.outcome is None
            and self.game.to_move in self.mine
            and self.pending is None
            and self.asked is None
        )

    def seat_names(self) -> list[str]:
        return [self.game.seat_name(s) for s in sorted(self.mine)]

    # -- the host's messages -----------------------------------------------------
    def take(self, topic: str, payload: bytes) -> None:
        """One message from the broker, checked at intake as a guest board's are."""
        table_topic = protocol.table_topic(self.host)
        limit = protocol.MAX_TABLE_BYTES if topic == table_topic else protocol.MAX_MOVE_BYTES
        try:
            message = protocol.decode(payload, limit)
        except MessageRefused as exc:
            self._refuse(topic, str(exc))
            return
        to_me = protocol.to_topic(self.host, self.board)
        if topic == table_topic and isinstance(message, protocol.Table):
            self._table(message)
        elif topic == protocol.moves_topic(self.host) and isinstance(message, protocol.Move):
            self._move(message)
        elif topic == to_me and isinstance(message, protocol.Refused):
            self._refused(message)
        elif topic == to_me and isinstance(message, protocol.Rolled):
            self._rolled(message)
        elif topic == to_me and isinstance(message, protocol.Seen):
            self._seen(message)
        elif topic == protocol.presence_topic(self.host, self.host) and isinstance(
            message, protocol.Presence
        ):
            back = message.online and not self.host_online
            self.host_online = message.online
            if back:
                self.reconnected()  # a host that restarted may have lost the move sent
            self.bump()
        else:
            self._refuse(topic, f"a {type(message).__name__} has no place on this topic")

    def _refuse(self, topic: str, why: str) -> None:
        log.warning("refused a message on %s: %s", topic, why)
        self.refused.append(f"{topic}: {why}")

    def reconnected(self) -> None:
        """The broker or the host was away: ask for the table, send the pending move again."""
        self.ask()
        if self.pending is not None:
            self.publish(protocol.from_topic(self.host, self.board), self.pending)
        if self.asked is not None:
            number, _ = self.asked
            count = len(self._placeholder_faces())
            ask = protocol.RollAsk(game_key=self.game_key, number=number, count=count)
            self.publish(protocol.from_topic(self.host, self.board), ask)

    def ask(self) -> None:
        sync = protocol.Sync(game_key=self.game_key, have=len(self.game.history))
        self.publish(protocol.from_topic(self.host, self.board), sync)

    def _table(self, table: protocol.Table) -> None:
        if table.game_key != self.game_key:
            if table.started < self.table.started:
                self.dropped += 1  # an earlier game's
                return
            if self.board not in table.seats:
                self.error = (
                    f"{self.host}'s board now hosts another game, with no seat for this one"
                )
                self.bump()
                return
            self._start(table)  # the host's next game, with a seat for this player
            if self.sealed is not None:
                self.ask()  # its deal, which the host sends when asked
            self.bump()
            return
        if len(table.moves) < len(self.game.history) or table == self.table:
            self.dropped += 1  # an older table, or this one, sent again: nothing to redraw
            return
        self.table = table
        self._take_moves(table.moves, "the host's table")
        self.bump()

    def _take_moves(self, moves: list[dict[str, Any]], where: str) -> None:
        history = [a.to_dict() for a in self.game.history]
        for n, (ours, theirs) in enumerate(zip(history, moves, strict=False), start=1):
            if not protocol.same_action(ours, theirs):
                self.error = f"{where} differs from this seat's game at move {n}"
                return
        for n in range(len(history) + 1, len(moves) + 1):
            if self.sealed is not None:
                self.sealed.waiting.setdefault(n, moves[n - 1])
            else:
                self._play(n, moves[n - 1])
        if self.sealed is not None:
            self._deliver()

    def _seen(self, seen: protocol.Seen) -> None:
        if self.sealed is None or seen.game_key != self.game_key:
            self._refuse(protocol.to_topic(self.host, self.board), "a view of another game")
            return
        if not self.sealed.take(seen):
            self.dropped += 1  # sent again
            return
        self._deliver()
        self.bump()

    def _deliver(self) -> None:
        """A game of hidden pieces: dealt once the deal has come, then the host's moves
        played as their views come (:meth:`.seat_sealed.Sealed.deliver`)."""
        sealed = self.sealed
        assert sealed is not None
        try:
            if not sealed.dealt:
                self.game = sealed.deal() or self.game
            sealed.deliver(self.game, self._play)
        except ViewsDisagree as exc:
            self.error = f"{exc}: this seat's game stops here"
        except (GameError, ValueError, TypeError, KeyError) as exc:
            self.error = f"{self.host}'s move is not a move of this game: {exc}"

    def _play(self, n: int, data: dict[str, Any]) -> bool:
        """The host's move ``n``: played here as the game's; whether it could be."""
        game = self.game
        try:
            action = game.decode(data)
            mover = mover_of(game, action)
            verdict = game.apply(action)
        except (GameError, ValueError, TypeError, KeyError) as exc:
            self.error = f"{self.host}'s move {n} is not a move of this game: {exc}"
            return False
        points = {game.seat_name(p): v for p, v in enumerate(verdict.points(game.players)) if v}
        text = describe(data)
        self.moves.append(
            {
                "n": n,
                "player": game.seat_name(mover),
                "text": text,
                "points": points,
                "action": data,
            }
        )
        self.digest = protocol.next_digest(self.digest, data)
        if self.pending is not None and self.pending.number <= n:
            if self.pending.number == n and not protocol.same_action(self.pending.action, data):
                self.note = f"{self.host}'s board played another move {n} than this seat's"
            self.pending = None
        if self.asked is not None and self.asked[0] <= n:
            self.asked = None
        self.draft = Draft()
        return True

    def _move(self, move: protocol.Move) -> None:
        if move.game_key != self.game_key:
            self._refuse(protocol.moves_topic(self.host), "it is a move of another game")
            return
        have = len(self.game.history)
        ahead = self.sealed.ahead(have) if self.sealed is not None else []
        if move.number <= have + len(ahead):
            self.dropped += 1
            return
        before = protocol.digests(self.digest, ahead)[-1]
        if move.number > have + len(ahead) + 1 or move.before != before:
            self.ask()  # a gap, or another position: the host's table says
            return
        if self.sealed is not None:
            self.sealed.waiting[move.number] = move.action
            self._deliver()  # once the view after it has come
        else:
            self._play(move.number, move.action)
        self.bump()

    def _refused(self, refused: protocol.Refused) -> None:
        if refused.game_key != self.game_key:
            return
        if self.pending is not None and refused.number == self.pending.number:
            self.pending = None
            self.note = f"{self.host}'s board refused it: {refused.reason}"
            self.bump()

    def _placeholder_faces(self) -> list[int]:
        if self.asked is None:
            return []
        return protocol.rolled_faces(self.table.game, self._placeholder())

    def _placeholder(self) -> dict[str, Any]:
        assert self.asked is not None
        for action in self.game.legal_actions():
            if dice_kind(action) == self.asked[1]:
                return action.to_dict()
        return {}

    def _rolled(self, rolled: protocol.Rolled) -> None:
        asked = self.asked
        if rolled.game_key != self.game_key or asked is None or rolled.number != asked[0]:
            self.dropped += 1  # dice asked again, or for a move already played
            return
        placeholder = self._placeholder()
        self.asked = None
        if not placeholder:
            self.note = "the dice came for a roll the game no longer asks for"
            self.bump()
            return
        action = fill_dice(placeholder, rolled.faces)
        self.play(action, rolled=True)

    # -- the player's requests -----------------------------------------------------
    def play(self, data: Mapping[str, Any], rolled: bool = False) -> bool:
        """The player's move: judged here by the rules (a refusal shows their reason),
        then sent to the host. Whether it was sent."""
        if not self.can_move():
            return False
        game = self.game
        try:
            action = game.decode(dict(data))
        except (GameError, ValueError, TypeError, KeyError) as exc:
            return self.say(f"that is not a move of {game.title}: {exc}")
        if mover_of(game, action) not in self.mine:
            return self.say(f"it is {game.seat_name(game.to_move)}'s turn, not this seat's")
        faces = protocol.rolled_faces(game.name, action.to_dict())
        if faces and not rolled:
            return self.roll(action)
        verdict = game.judge(action)
        if not verdict.accepted:
            return self.say(verdict.reason)
        n = len(game.history) + 1
        move = protocol.Move(
            game_key=self.game_key,
            number=n,
            before=self.digest,
            seat=mover_of(game, action),
            action=action.to_dict(),
            board=self.board,
            seen=None if self.sealed is None else view_digest(game, self.mine),
        )
        self.pending = move
        self.note = ""
        self.draft = Draft()
        self.publish(protocol.from_topic(self.host, self.board), move)
        self.bump()
        return True

    def roll(self, action: Action) -> bool:
        """Ask the host to roll the dice ``action`` needs; the move is sent when they come."""
        n = len(self.game.history) + 1
        faces = protocol.rolled_faces(self.game.name, action.to_dict())
        verdict = self.game.judge(action)  # this kind of roll, now? (its faces aside)
        if not verdict.accepted:
            return self.say(verdict.reason)
        kind = dice_kind(action)
        self.asked = (n, kind)
        ask = protocol.RollAsk(game_key=self.game_key, number=n, count=len(faces))
        self.publish(protocol.from_topic(self.host, self.board), ask)
        self.note = ""
        self.bump()
        return True

    def can_move(self) -> bool:
        if self.error:
            return self.say(self.error)
        if not self.ready():
            return self.say(f"this seat's pieces are still to come from {self.host}'s board")
        if self.game.outcome is not None:
            return self.say("the game is over")
        if self.pending is not None:
            return self.say(
                f"move {self.pending.number} is sent; {self.host}'s board has not taken it yet"
            )
        if self.asked is not None:
            return self.say(f"the dice are asked of {self.host}'s board")
        if self.game.to_move not in self.mine:
            return self.say(f"it is {self.game.seat_name(self.game.to_move)}'s turn")
        return True

    def say(self, text: str) -> bool:
        self.note = text
        self.bump()
        return False
