"""Replaying journaled actions on a game: how a resumed session, an export and a
spectator rebuild a game from its journal, with the same checks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from games.core import Game, Verdict
from games.errors import GameError

from ..journal import (
    ActionEntry,
    Entry,
    GameRecord,
    Journal,
    JournalDamaged,
    JournalError,
    SeatsEntry,
    TakeBackEntry,
)
from ..referees.decisions import mover_of

__all__ = [
    "computer_seats",
    "in_force",
    "journaled_game",
    "mover_of",
    "replay_action",
    "replay_entries",
]


def in_force(entries: Iterable[Entry], where: str) -> list[ActionEntry]:
    """The action entries that still stand: a take-back entry withdraws the actions it
    names (they stay in the journal, so the game's whole story is kept)."""
    kept: dict[int, ActionEntry] = {}
    for entry in entries:
        if isinstance(entry, ActionEntry):
            kept[entry.seq] = entry
        elif isinstance(entry, TakeBackEntry):
            if not all(seq in kept for seq in entry.undo):
                raise JournalError(
                    f"{where}, entry {entry.seq}: the take-back names {list(entry.undo)!r}, "
                    "not actions that stand before it; start a new game or restore the file"
                )
            for seq in entry.undo:
                del kept[seq]
    return list(kept.values())


def computer_seats(entries: Iterable[Entry]) -> frozenset[int]:
    """The seats the computer plays, as the game's last ``seats`` entry names them."""
    seats: frozenset[int] = frozenset()
    for entry in entries:
        if isinstance(entry, SeatsEntry):
            seats = entry.computer
    return seats


def computer_levels(entries: Iterable[Entry]) -> dict[int, int]:
    """The level of each computer seat not at the default one, as the game's last
    ``seats`` entry names them."""
    levels: dict[int, int] = {}
    for entry in entries:
        if isinstance(entry, SeatsEntry):
            levels = dict(entry.levels)
    return levels


def replay_entries(
    journal: Journal, game_id: int, game: Game, before: Callable[[], None] | None = None
) -> Iterator[tuple[ActionEntry, int, Verdict]]:
    """Play a game's journaled actions that stand on ``game``: each entry, its mover and
    its verdict; ``before`` is called before each is played."""
    for entry in in_force(journal.entries(game_id), f"journal {journal.path}, game {game_id}"):
        where = f"journal {journal.path}, game {game_id}, entry {entry.seq}"
        if before is not None:
            before()
        mover, verdict = replay_action(game, entry.action, where)
        yield entry, mover, verdict


def replay_action(game: Game, payload: Any, where: str) -> tuple[int, Verdict]:
    """Play one journaled action on ``game``: its mover and its verdict.

    ``where`` names the entry (journal, game, entry) in the error raised when the
    action cannot be read or does not replay.
    """
    try:
        action = game.decode(payload)
    except ValueError as exc:
        raise JournalError(f"{where}: {exc}") from exc
    mover = mover_of(game, action)
    judged = game.judge(action)
    if not judged.accepted:
        raise JournalError(
            f"{where} does not replay: {judged.reason}; the journal was written by "
            "another version or edited — start a new game or restore the file"
        )
    return mover, game.apply(action)


@contextmanager
def journaled_game(path: Path, game_id: int | None = None) -> Iterator[tuple[Journal, GameRecord]]:
    """The journal at ``path``, opened read-only, and its game ``game_id`` (default: the
    newest), for replaying. An error that replaying raises because the rows do not make
    a game (an edited or damaged journal, or one written by another version) comes out
    as :class:`JournalDamaged`."""
    with Journal(path, read_only=True) as journal:
        record = journal.game(game_id) if game_id is not None else journal.newest()
        if record is None:
            raise JournalError(f"the journal {path} holds no games")
        try:
            yield journal, record
        except JournalError:
            raise
        except (GameError, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            raise JournalDamaged(
                f"the journal {path}, game {record.id} ({record.game}) does not replay: "
                f"{exc}. It is damaged or was written by another version; nothing was "
                "changed in it"
            ) from exc
