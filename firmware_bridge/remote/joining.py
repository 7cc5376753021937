"""A guest board joining a game of hidden pieces (:data:`.privacy.SEALED`): a new
game is dealt from the first view, asked of the host before the board is set up; a
game its journal holds is taken up with the views kept beside the journal
(:mod:`.kept_views`), which replay it as it was played; once the game is over, the
journal takes the seed that dealt it."""

from __future__ import annotations

import queue
import time
from pathlib import Path
from typing import Any

from msgspec import Struct

from ..journal.writing import Journal
from ..spectate.errors import MessageRefused
from . import kept_views, protocol
from .guest import Guest
from .kept_views import views_path
from .link import Link
from .privacy import SEALED
from .sealed import Views, dealing_options

POLL_S = 0.25
"""How long the board waits for the broker before it looks again."""


class Joined(Struct, frozen=True):
    """How this board's game of hidden pieces starts."""

    views: Views
    options: dict[str, Any] | None
    """The options that deal a new game (None: the journal's game is taken up, or
    the game is dealt once made)."""
    resumed: bool
    """The journal's game is taken up: ``views`` replays it."""


def join_sealed(
    link: Link,
    board: str,
    table: protocol.Table,
    early: list[tuple[str, bytes]],
    journal: Path | None,
    resuming: bool,
    wait_s: float,
) -> Joined:
    """The views of this board's game: those kept beside ``journal`` when it holds the
    game not ended (``resuming``), else the deal asked of the host (what else arrives
    meanwhile is kept in ``early``), kept there before the game is journaled."""
    seats = {seat for seat, owner in enumerate(table.seats) if owner == board}
    keep_at = views_path(journal) if journal is not None else None
    if resuming and keep_at is not None:
        views = Views.taken_up(keep_at, table.game_key, table.game, seats)
        return Joined(views, None, resumed=True)
    first = first_view(link, board, table, early, wait_s)
    views = Views(table.game, seats, keep_at, table.game_key)
    views.take(first)  # kept before the journal holds the game it deals
    return Joined(views, dealing_options(table.game, first, seats, table.players), resumed=False)


def first_view(
    link: Link, board: str, table: protocol.Table, early: list[tuple[str, bytes]], wait_s: float
) -> protocol.Seen:
    """The host's deal for this board (its view before the first move), asked of it;
    what else arrives meanwhile is kept in ``early``."""
    host = table.host
    sync = protocol.Sync(game_key=table.game_key, have=0)
    link.publish(protocol.from_topic(host, board), sync)
    end = time.monotonic() + wait_s
    while time.monotonic() < end:
        try:
            topic, payload = link.inbox.get(timeout=POLL_S)
        except queue.Empty:
            continue
        early.append((topic, payload))
        if topic != protocol.to_topic(host, board):
            continue
        try:
            message = protocol.decode(payload)
        except MessageRefused:
            continue  # the guest refuses it with the reason, in turn
        if (
            isinstance(message, protocol.Seen)
            and message.number == 0
            and message.game_key == table.game_key
        ):
            return message
    raise ValueError(f"{host}'s board did not deal this board its pieces in {wait_s:g} s")


def seal_journal(guest: Guest) -> None:
    """A game of hidden pieces is over: this board's journal takes the seed that
    dealt it, so its record is the host's (export, replay, take-back), and the views
    kept beside it go."""
    seed, table, views = guest.table.seed, guest.table, guest.views
    if views is not None and seed is not None and table.finished:
        game_id = guest.session.game_id
        assert game_id is not None
        guest.session.journal.reseed(game_id, seed, table.options)
        views.forget()  # the journal replays the game from its seed now


def ended_unsealed(journal: Path | None) -> tuple[int, str] | None:
    """A game of hidden pieces that ``journal`` holds as ended but without the seed
    that dealt it (the board stopped after its last move, before the host's table gave
    the seed): its id, and the host's key of it from the views kept beside it."""
    if journal is None or not journal.exists() or not views_path(journal).exists():
        return None
    with Journal(journal, read_only=True) as kept:
        record = kept.newest()
    if record is None or record.finished is None or record.game not in SEALED or record.seed:
        return None
    key = kept_views.key_of(views_path(journal))
    return (record.id, key) if key is not None else None


def seal_ended(journal: Path, game_id: int, table: protocol.Table) -> None:
    """The game ``game_id`` of ``journal``, ended, takes the seed of the host's
    ``table`` of it, and its kept views go."""
    if not table.finished or table.seed is None:
        raise ValueError(
            f"the journal {journal} holds game {game_id} as ended, but {table.host}'s "
            "board has not ended it: use another --journal"
        )
    with Journal(journal) as kept:
        kept.reseed(game_id, table.seed, table.options)
    kept_views.forget(views_path(journal))
