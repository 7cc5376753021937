"""The host's role: its referee decides; it judges each guest's move, journals it and
publishes it back numbered, keeps the dice it rolls for guests, and sends the whole
game retained when a guest asks for it (see :mod:`.side`)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from games.core import Game
from games.errors import GameError

from ..kits import find_kit
from ..referees.decisions import Played, mover_of
from ..runtime.session import Session
from ..spectate.errors import MessageRefused
from ..storage.files import write_whole
from . import protocol
from .link import Link
from .privacy import seat_facts, seat_view, view_digest
from .side import MAX_AHEAD, RemoteError, Side


class Host(Side):
    """The board whose referee decides: it takes the guests' moves and publishes the game."""

    def __init__(
        self,
        session: Session[Any],
        link: Link,
        board: str,
        owners: list[str],
        refresh: Callable[[], None],
        dice_file: Path | None = None,
    ) -> None:
        super().__init__(session, link, board, owners, refresh)
        self.dice_file = dice_file
        """Where the dice rolled for guests are kept until their moves are journaled (a
        host that restarts checks a guest's roll against them); None: in memory."""
        record = session.facts.record
        assert record is not None
        self.record = record
        self.game_key = f"{record.id}@{record.started}"
        self.online: dict[str, bool] = {}
        self.issued: dict[int, list[int]] = self._read_dice()
        """The dice the host rolled for a guest's move, by the move's number."""
        self.asks: dict[str, protocol.RollAsk] = {}
        """Each guest's last request for dice, until the game is at its move."""
        self.later: dict[int, tuple[str, protocol.Move]] = {}
        """Guests' moves that came while the ones before them were still to be made."""

    def poll(self) -> None:
        number = len(self.game.history) + 1
        next_move = self.later.pop(number, None) if number not in self.seats.arrived else None
        if next_move is not None:
            guest, move = next_move
            why = self._judge(guest, move)
            if why is not None:
                self._refuse_move(guest, move, why)
        for guest, ask in list(self.asks.items()):
            if ask.game_key == self.game_key and ask.number > len(self.game.history) + 1:
                continue  # the move before it is still to be made here
            del self.asks[guest]
            why = self._roll_for(guest, ask)
            if why is not None:
                self.refuse(protocol.from_topic(self.board, guest), why)

    def table(self) -> protocol.Table:
        history = self.history()
        record = self.record
        return protocol.Table(
            protocol=protocol.PROTOCOL,
            host=self.board,
            game_key=self.game_key,
            started=record.started,
            game=record.game,
            players=record.players,
            seed=None if self.sealed and self.game.outcome is None else record.seed,
            options=dict(record.options),
            seats=list(self.owners),
            moves=history,
            digest=protocol.digests(self.start_digest(), history)[-1],
            finished=self.over(),
            abandoned=self.abandoned_by,
        )

    def reconnected(self) -> None:
        self.publish_table()  # a restarted broker keeps no retained message of its own

    def awaits_other(self) -> bool:
        return False  # the guests ask again (side.QUIET_S); the host answers them

    def publish_table(self) -> None:
        self.link.publish(protocol.table_topic(self.board), self.table(), retain=True)

    def tell_abandoned(self) -> None:
        """Each guest is told on its own topic, retained (a guest away has it when it
        comes back), and the table says so."""
        told = protocol.Abandoned(game_key=self.game_key, board=self.board)
        for guest in sorted(set(self.owners) - {self.board}):
            self.link.publish(protocol.to_topic(self.board, guest), told, retain=True)
        self.publish_table()

    def publish_views(self, since: int = 0) -> None:
        """In a game of hidden pieces, send each guest its views from move ``since``."""
        for guest in sorted(set(self.owners) - {self.board}):
            self.send_views(guest, since)

    def send_views(self, guest: str, since: int) -> None:
        """Send ``guest`` what its seats may know after each move from ``since`` (0:
        the deal) to the last, on its own ``to/<guest>``: nothing of the other seats'
        hidden pieces but their count."""
        if not self.sealed:
            return
        seats = self._seats_of(guest)
        for n in range(max(since, 0), len(self.game.history) + 1):
            view = seat_view(self._game_after(n), seats)
            seen = protocol.Seen(
                game_key=self.game_key,
                number=n,
                view=seat_facts(view) if n else view,  # the deal: its layout too
                digest=protocol.value_digest(view),
            )
            self.link.publish(protocol.to_topic(self.board, guest), seen)

    def _game_after(self, n: int) -> Game:
        """The game after its first ``n`` moves, replayed from the host's seed."""
        if n == len(self.game.history):
            return self.game
        record = self.record
        game = find_kit(record.game).new_game(
            record.players, random.Random(record.seed), dict(record.options)
        )
        for action in self.game.history[:n]:
            game.apply(action)
        return game

    def played(self, played: Played) -> None:
        """Every move the host journaled is published, numbered, then the table."""
        n = played.number
        history = self.history()
        before = protocol.digests(self.start_digest(), history[: n - 1])[-1]
        move = protocol.Move(
            game_key=self.game_key,
            number=n,
            before=before,
            seat=played.mover,
            action=played.action.to_dict(),
            board=self.owners[played.mover],
        )
        self.publish_views(n)  # before the move: a guest makes it once it has both
        self.link.publish(protocol.moves_topic(self.board), move)
        self.seats.arrived.pop(n, None)
        if self.game.outcome is not None:
            self.publish_table()  # the game as it ended, for a guest that comes back

    def take(self, topic: str, payload: bytes) -> None:
        prefix = protocol.root(self.board)
        if topic.startswith(f"{prefix}/presence/"):
            self._presence(topic, payload)
        elif topic.startswith(f"{prefix}/from/"):
            guest = topic.rpartition("/")[2]
            try:
                message = protocol.decode(payload)
            except MessageRefused as exc:
                self.refuse(topic, str(exc))
                return
            if isinstance(message, protocol.RollAsk):
                # Answered once the game is at that move (the guest's move before it
                # may have arrived and not yet been made here).
                self.asks[guest] = message
                self.poll()
                return
            if isinstance(message, protocol.Abandoned):
                if self.take_abandoned(topic, guest, message):
                    self.publish_table()  # the other guests, and a guest that comes back
                return
            if isinstance(message, protocol.Sync):
                if guest in self.owners:
                    self.publish_table()
                    self.send_views(guest, message.have)
                else:
                    self.refuse(topic, f"{guest} holds no seat of this game")
                return
            if not isinstance(message, protocol.Move):
                self.refuse(topic, f"a guest sends moves, not a {type(message).__name__}")
                return
            why = self._judge(guest, message)
            if why is not None:
                self._refuse_move(guest, message, why)

    def _refuse_move(self, guest: str, move: protocol.Move, why: str) -> None:
        """Tell ``guest`` why its move is not taken; it takes the move back, and with
        it the moves it sent after it, which are dropped here."""
        self.refuse(protocol.from_topic(self.board, guest), why)
        for n in [n for n, (by, _) in self.later.items() if by == guest and n > move.number]:
            del self.later[n]
        reply = protocol.Refused(game_key=self.game_key, number=move.number, reason=why)
        self.link.publish(protocol.to_topic(self.board, guest), reply)

    def _presence(self, topic: str, payload: bytes) -> None:
        try:
            message = protocol.decode(payload)
        except MessageRefused as exc:
            self.refuse(topic, str(exc))
            return
        if isinstance(message, protocol.Presence) and topic.endswith(f"/{message.board}"):
            self.online[message.board] = message.online

    def _read_dice(self) -> dict[int, list[int]]:
        if self.dice_file is None or not self.dice_file.exists():
            return {}
        try:
            kept = json.loads(self.dice_file.read_text(encoding="utf-8"))
            rolls = kept["rolls"] if kept.get("game_key") == self.game_key else {}
            return {int(n): [int(face) for face in faces] for n, faces in rolls.items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise RemoteError(
                f"the dice kept for the guests in {self.dice_file} cannot be read ({exc}): "
                "move it away to go on without them"
            ) from None

    def _keep_dice(self) -> None:
        """Write the dice rolled for guests, whole, before any of them is sent."""
        if self.dice_file is None:
            return
        done = len(self.game.history)
        rolls = {str(n): faces for n, faces in self.issued.items() if n > done}
        data = json.dumps({"game_key": self.game_key, "rolls": rolls})
        write_whole(self.dice_file, data)

    def _roll_for(self, guest: str, ask: protocol.RollAsk) -> str | None:
        """Roll the host's dice for a guest's seat, and send them; why not if not."""
        game = self.game
        if ask.game_key != self.game_key:
            return "it asks for dice of another game"
        if game.outcome is not None or ask.number != len(game.history) + 1:
            return f"move {ask.number} is not the game's next"
        if self.owners[game.to_move] != guest:
            return f"it is not {guest}'s seat's turn to roll"
        faces = self.issued.get(ask.number)
        if faces is None or len(faces) != ask.count:
            faces = list(self.session.dice.roll(ask.count))
            self.issued[ask.number] = faces
            self._keep_dice()
        rolled = protocol.Rolled(game_key=self.game_key, number=ask.number, faces=faces)
        self.link.publish(protocol.to_topic(self.board, guest), rolled)
        return None

    def _judge(self, guest: str, move: protocol.Move) -> str | None:
        """Why the host does not take ``move`` from ``guest``; None when it does (or
        when it is a duplicate, dropped)."""
        if move.board != guest:
            return f"it names the board {move.board} but came from {guest}"
        if move.game_key != self.game_key:
            return "it is a move of another game"
        game = self.game
        if not move.seat < game.players or self.owners[move.seat] != guest:
            return f"{guest} does not hold seat {move.seat + 1}"
        history = self.history()
        if move.number <= len(history):
            digest = self.digests()[move.number - 1]
            same = protocol.same_action(history[move.number - 1], move.action)
            if digest == move.before and same:
                self.dropped += 1
                return None
            return f"move {move.number} of this game is another; take the game from the table"
        if move.number > len(history) + 1:
            between = range(len(history) + 1, move.number)
            near = len(between) <= MAX_AHEAD
            if near and all(n in self.seats.arrived or n in self.later for n in between):
                # The moves before it arrived and are still to be made here.
                self.later[move.number] = (guest, move)
                return None
            return f"the game has {len(history)} moves, so move {move.number} leaves a gap"
        if move.before != self.digests()[-1]:
            return f"move {move.number} was played from another position than the host's"
        if self.sealed and move.seen != view_digest(game, self._seats_of(guest)):
            return (
                f"move {move.number} was played from another view of the position than the host's"
            )
        if game.outcome is not None:
            return "the game is over"
        try:
            action = game.decode(move.action)
        except (GameError, ValueError, TypeError, KeyError) as exc:
            return f"its action is not one of {game.title}: {exc}"
        if mover_of(game, action) != move.seat or move.seat != game.to_move:
            return f"it is not {game.seat_name(move.seat)}'s turn"
        verdict = game.judge(action)
        if not verdict.accepted:
            return f"the rules refuse it: {verdict.reason}"
        faces = protocol.rolled_faces(game.name, move.action)
        if faces and self.issued.get(move.number) != faces:
            return f"its dice {faces} are not the ones the host rolled for move {move.number}"
        self.arrive(move.number, action)
        return None

    def _seats_of(self, guest: str) -> set[int]:
        return {seat for seat, owner in enumerate(self.owners) if owner == guest}

    def waiting_for(self) -> str | None:
        """The guest the game waits for while it is off line (None: not waiting)."""
        if not self.seats.waiting(self.game):
            return None
        owner = self.owner_to_move()
        return owner if not self.online.get(owner, False) else None
