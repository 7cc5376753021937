"""A guest's role: its own referee judges its moves at once, it journals and sends them
numbered, and takes each as the game's once the host publishes it back; a gap or a
mismatch makes it resynchronise from the host's table, never guess (see :mod:`.side`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.core import Action
from games.errors import GameError

from ..referees.decisions import Played
from ..runtime.session import Session
from ..spectate.errors import MessageRefused
from . import protocol
from .link import Link
from .privacy import view_digest
from .sealed import Views, ViewsDisagree
from .side import RemoteError, Side, log, movers_of


class Guest(Side):
    """A board holding some seats of a game hosted by another board."""

    def __init__(
        self,
        session: Session[Any],
        link: Link,
        board: str,
        table: protocol.Table,
        refresh: Callable[[], None],
        views: Views | None = None,
        people: frozenset[int] = frozenset(),
    ) -> None:
        super().__init__(session, link, board, list(table.seats), refresh, people)
        self.host = table.host
        self.game_key = table.game_key
        self.table: protocol.Table = table
        self.sent: set[int] = set()
        """Moves sent to the host by this run of the board."""
        self.host_online = True
        self.seats.ask_rolls = True
        self.asked_roll: int | None = None
        """The move whose dice were last asked of the host."""
        self.host_moves = len(table.moves)
        """The moves the host has published (in its table or one by one)."""
        self.asked_at: int | None = None
        """The moves this board had when it last asked for the table."""
        self.withdrawn: set[tuple[str, str]] = set()
        """The moves the host refused and this board took back: the position's digest
        and the move's."""
        self.views = (views or Views(table.game, self.mine)) if self.sealed else None
        """A game of hidden pieces: the host's views, which this board's game keeps to
        and is replayed by (:func:`.joining.join_sealed` gives those kept)."""
        self.pending: dict[int, Action] = {}
        """Moves the host published, to be made here once the view after them has come."""
        self.asked_move: int | None = None
        """The move of this board's seat last sent to the host to be made first."""
        if self.views is not None:
            self.seats.ask_moves = True
            self.seats.ready = self.views.ready
            session.unseen = self.views

    def start_digest(self) -> str:
        if self.sealed:  # this board's game was dealt by options of its own
            t = self.table
            return protocol.start_digest(t.game, t.players, None, t.options)
        return super().start_digest()

    def reconnected(self) -> None:
        self.sent.clear()  # what the broker had not delivered to the host is sent again
        self.asked_roll = self.asked_move = None
        self.ask()

    def tell_abandoned(self) -> None:
        """The host is told on this board's own topic, retained: a host away has it
        when it comes back."""
        told = protocol.Abandoned(game_key=self.game_key, board=self.board)
        self.link.publish(protocol.from_topic(self.host, self.board), told, retain=True)

    def ask(self) -> None:
        """Ask the host for its table (once for as many moves as this board has)."""
        have = len(self.game.history)
        if self.asked_at == have:
            return
        self.asked_at = have
        sync = protocol.Sync(game_key=self.game_key, have=have)
        self.link.publish(protocol.from_topic(self.host, self.board), sync)

    def poll(self) -> None:
        if self.views is not None:
            self._deliver()  # the next move, once the last one is the game's here
            self._send_wanted()
            return
        wants = self.seats.wants_roll
        if wants is None or wants[0] != len(self.game.history) + 1:
            return
        if self.asked_roll != wants[0]:
            self.asked_roll = wants[0]
            ask = protocol.RollAsk(game_key=self.game_key, number=wants[0], count=wants[1])
            self.link.publish(protocol.from_topic(self.host, self.board), ask)

    def _rolled(self, rolled: protocol.Rolled) -> None:
        wants = self.seats.wants_roll
        if rolled.game_key != self.game_key or wants is None or rolled.number != wants[0]:
            self.dropped += 1  # dice asked again, or for a move already made
            return
        if len(rolled.faces) != wants[1]:
            raise RemoteError(
                f"{self.host}'s board rolled {len(rolled.faces)} dice for move "
                f"{rolled.number}, not {wants[1]}"
            )
        self.session.dice.load(rolled.faces)
        self.seats.rolled.add(rolled.number)
        self.seats.wants_roll = None
        self.refresh()

    def confirmed(self) -> int:
        """The moves of this board's game that the host has journaled."""
        return min(self.host_moves, len(self.game.history))

    def unconfirmed(self) -> bool:
        return self.confirmed() < len(self.game.history)

    def played(self, played: Played) -> None:
        """A move this board's own seat made is sent to the host, numbered."""
        n = played.number
        self.seats.arrived.pop(n, None)
        if self.views is not None:
            self._made(n)
            return
        if played.mover not in self.mine or self.session.referee.automatic(played.action):
            return  # the host's own move made here, or a pass the host's referee makes too
        self._send(n, played.mover, played.action.to_dict())

    def _send(self, n: int, seat: int, action: dict[str, Any]) -> None:
        before = protocol.digests(self.start_digest(), self.history()[: n - 1])[-1]
        move = protocol.Move(
            game_key=self.game_key,
            number=n,
            before=before,
            seat=seat,
            action=action,
            board=self.board,
            seen=view_digest(self.game, self.mine) if self.views is not None else None,
        )
        self.link.publish(protocol.from_topic(self.host, self.board), move)
        self.sent.add(n)

    # -- a game of hidden pieces --------------------------------------------------
    def _send_wanted(self) -> None:
        """Send the host the move this board's seat chose, to be made there first."""
        wants, n = self.seats.wants_move, len(self.game.history) + 1
        assert self.views is not None
        if wants is None or wants[0] != n or self.asked_move == n:
            return
        if not self.views.ready(self.game):
            return
        self.asked_move = n
        self._send(n, self.game.to_move, wants[1].to_dict())
        if self.seats.held is not None:
            self.note_waiting(self.host)  # a person's move, made here once the host has

    def _seen(self, seen: protocol.Seen) -> None:
        if self.views is None or seen.game_key != self.game_key:
            self.refuse(protocol.to_topic(self.host, self.board), "a view of another game")
            return
        if not self.views.take(seen):
            self.dropped += 1  # sent again
            return
        self._deliver()

    def arrive(self, number: int, action: Action) -> None:
        """In a game of hidden pieces a move is made here once the view after it has
        come, its pieces arranged to reach it."""
        if self.views is None:
            super().arrive(number, action)
            return
        self.pending.setdefault(number, action)
        self._deliver()

    def _deliver(self) -> None:
        views = self.views
        assert views is not None
        game = self.game
        n = len(game.history) + 1
        try:
            if views.kept < 0:
                if not views.deal(game):
                    return
                self.refresh()  # dealt: who starts, this board's hand
            action = self.pending.get(n)
            if action is None or n in self.seats.arrived or not views.can_make(game, n):
                return
            views.prepare(game, n, action)
        except ViewsDisagree as exc:
            raise RemoteError(f"{exc}: this board's game stops here") from None
        super().arrive(n, action)

    def _made(self, n: int) -> None:
        """Move ``n`` was made here: this board's view of the game is the host's."""
        assert self.views is not None
        self.pending.pop(n, None)
        wants = self.seats.wants_move
        if wants is not None and wants[0] <= n:
            self.seats.wants_move = None
        try:
            self.views.played(self.game, n)
        except ViewsDisagree as exc:
            raise RemoteError(f"{exc}: this board's game stops here") from None
        # The next move is made from the board's loop (poll), not from within this one.

    def take(self, topic: str, payload: bytes) -> None:
        limit = protocol.MAX_TABLE_BYTES if topic == protocol.table_topic(self.host) else None
        try:
            message = protocol.decode(payload, limit or protocol.MAX_MOVE_BYTES)
        except MessageRefused as exc:
            self.refuse(topic, str(exc))
            return
        mine = topic == protocol.to_topic(self.host, self.board)
        if topic == protocol.table_topic(self.host) and isinstance(message, protocol.Table):
            self._table(message)
        elif topic == protocol.moves_topic(self.host) and isinstance(message, protocol.Move):
            self._move(message)
        elif mine and isinstance(message, protocol.Rolled):
            self._rolled(message)
        elif mine and isinstance(message, protocol.Seen):
            self._seen(message)
        elif mine and isinstance(message, protocol.Refused):
            self._refused(message)
        elif mine and isinstance(message, protocol.Abandoned):
            self.take_abandoned(topic, self.host, message)
        elif topic == protocol.presence_topic(self.host, self.host) and isinstance(
            message, protocol.Presence
        ):
            back = message.online and not self.host_online
            self.host_online = message.online
            if back:
                # A host that restarted may have lost a move it had not journaled yet:
                # this board's moves it has not published are sent again.
                self.sent.clear()
                self.asked_at = self.asked_roll = self.asked_move = None
                self.ask()
        else:
            self.refuse(topic, f"a {type(message).__name__} has no place on this topic")

    def _refused(self, refused: protocol.Refused) -> None:
        """The host did not take this board's move: it is taken back here, with the
        moves after it, and the board set up again saying why (the same move refused
        again at the same position stops the game: the boards' referees disagree)."""
        n, history = refused.number, self.history()
        if self.views is not None and refused.game_key == self.game_key:
            if n != len(history) + 1:
                self.dropped += 1
                return
            # Judged here by the same rules from the same view, and never made here.
            raise RemoteError(
                f"{self.host}'s board refused move {n}: {refused.reason} (the boards disagree)"
            )
        if refused.game_key != self.game_key or not self.confirmed() < n <= len(history):
            self.dropped += 1  # a move the host has, or one taken back already
            return
        said = f"{self.host}'s board refused move {n}: {refused.reason}"
        key = (self.digests()[n - 1], protocol.digest_of(history[n - 1]))
        if key in self.withdrawn:
            raise RemoteError(f"{said} (again; the boards disagree)")
        self.withdrawn.add(key)
        log.warning("%s; taken back", said)
        for k in range(n, len(history) + 1):
            self.sent.discard(k)
            self.seats.arrived.pop(k, None)
            self.seats.rolled.discard(k)
        self.seats.wants_roll = None
        self.asked_roll = self.asked_at = None
        self.session.withdraw(len(history) - n + 1, f"Refused by {self.host}", refused.reason)
        self.refresh()

    def _table(self, table: protocol.Table) -> None:
        if table.game_key != self.game_key and table.started < self.table.started:
            self.dropped += 1  # an earlier game's, kept for this board while it was away
            return
        if table.game_key == self.game_key and len(table.moves) < len(self.table.moves):
            # An older table, sent again after the broker was lost (the host's journal
            # never loses a move): the newer one holds all it holds.
            self.dropped += 1
            return
        if table.host != self.host or table.game_key != self.game_key:
            raise RemoteError(
                f"{self.host}'s board now hosts another game; this board's game stops here"
            )
        self.table = table
        self.host_moves = max(self.host_moves, len(table.moves))
        self.asked_at = None
        self.resync()

    def _move(self, move: protocol.Move) -> None:
        if move.game_key != self.game_key:
            self.refuse(protocol.moves_topic(self.host), "it is a move of another game")
            return
        history = self.history()
        n = move.number
        if n <= len(history):
            if self.digests()[n - 1] == move.before and protocol.same_action(
                history[n - 1], move.action
            ):
                self.dropped += 1  # this board's own move, accepted; or one it has
                self.host_moves = max(self.host_moves, n)
                return
            log.warning("move %d from %s differs from this board's: resynchronising", n, self.host)
            self.ask()
            return
        if n > len(history) + 1:
            between = range(len(history) + 1, n)
            waiting = {**self.pending, **self.seats.arrived}
            if all(k in waiting for k in between):
                # It follows moves that arrived and are still to be made here.
                ahead = [waiting[k].to_dict() for k in between]
                if protocol.digests(self.start_digest(), history + ahead)[-1] == move.before:
                    self.host_moves = max(self.host_moves, n)
                    self._arrive_dict(n, move.action)
                    return
            log.info("move %d arrived before move %d: resynchronising", n, len(history) + 1)
            self.ask()
            return
        if move.before != self.digests()[-1]:
            log.warning(
                "move %d from %s was played from another position: resynchronising", n, self.host
            )
            self.ask()
            return
        self.host_moves = max(self.host_moves, n)
        self._arrive_dict(n, move.action)

    def _arrive_dict(self, n: int, data: dict[str, Any]) -> None:
        try:
            action = self.game.decode(data)
        except (GameError, ValueError, TypeError, KeyError) as exc:
            raise RemoteError(f"{self.host}'s move {n} is not a move of the game: {exc}") from None
        self.arrive(n, action)

    def _table_abandoned(self, board: str) -> None:
        """The host's table says the game was abandoned at ``board``."""
        if board == self.board:
            self.dropped += 1  # this board's own
            return
        told = protocol.Abandoned(game_key=self.game_key, board=board)
        self.take_abandoned(protocol.table_topic(self.host), board, told)

    def resync(self) -> None:
        """Bring this board's game to the host's journaled moves (``table``)."""
        if self.table.abandoned is not None:
            self._table_abandoned(self.table.abandoned)
            return
        ours, theirs = self.history(), self.table.moves
        common = 0
        while common < min(len(ours), len(theirs)) and protocol.same_action(
            ours[common], theirs[common]
        ):
            common += 1
        if common < len(ours) and common < len(theirs):
            raise RemoteError(
                f"this board's game differs from {self.host}'s at move {common + 1}: "
                "it cannot go on (start it again from the host)"
            )
        if self.host_moves < len(ours) and self.views is None:
            self._send_again(max(common, self.host_moves))
        for n in range(len(ours) + 1, len(theirs) + 1):
            self._arrive_dict(n, theirs[n - 1])

    def _send_again(self, common: int) -> None:
        """Send the host this board's moves after ``common`` not sent by this run."""
        movers = movers_of(self.session, self.game.history)
        history = self.history()
        for n in range(common + 1, len(history) + 1):
            seat = movers[n - 1]
            if n in self.sent or seat not in self.mine:
                continue  # sent already, or the host's own (an older table's)
            if not self.session.referee.automatic(self.game.history[n - 1]):
                self._send(n, seat, history[n - 1])

    def waiting_for(self) -> str | None:
        """The host, while the game waits for it and it is off line (or makes first the
        move a person made here)."""
        if self.host_online:
            return self.host if self.seats.held is not None else None
        if self.seats.waiting(self.game) or self.confirmed() < len(self.game.history):
            return self.host
        return None

    def done(self) -> bool:
        """The game is over here and the host has it all (and, in a game of hidden
        pieces, this board has the host's last view and its seed)."""
        if self.abandoned_by is not None:
            return True
        over = self.game.outcome is not None and self.confirmed() >= len(self.game.history)
        if self.views is None or not over:
            return over
        return self.views.ready(self.game) and self.table.finished and self.table.seed is not None
