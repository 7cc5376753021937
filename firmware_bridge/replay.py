"""Replaying journaled actions on a game: how a resumed session, an export and a
spectator rebuild a game from its journal, with the same checks."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from games.core import Action, Game, Verdict

from .journal import Entry, Journal, JournalError


def mover_of(game: Game, action: Action) -> int:
    """The seat ``action`` is credited to, judged before it is played."""
    # An action that names its player (a rack seen, a resignation) is that
    # player's, whoever is to move.
    player: int = getattr(action, "player", game.to_move)
    return player


def in_force(entries: Iterable[Entry], where: str) -> list[Entry]:
    """The action entries that still stand: a take-back entry withdraws the actions it
    names (they stay in the journal, so the game's whole story is kept)."""
    kept: dict[int, Entry] = {}
    for entry in entries:
        if entry.kind == "action":
            kept[entry.seq] = entry
        elif entry.kind == "takeback":
            undo = entry.payload.get("undo")
            if not isinstance(undo, list) or not all(seq in kept for seq in undo):
                raise JournalError(
                    f"{where}, entry {entry.seq}: the take-back names {undo!r}, not actions "
                    "that stand before it; start a new game or restore the file"
                )
            for seq in undo:
                del kept[seq]
    return list(kept.values())


def computer_seats(entries: Iterable[Entry]) -> frozenset[int]:
    """The seats the computer plays, as the game's last ``seats`` entry names them."""
    seats: frozenset[int] = frozenset()
    for entry in entries:
        if entry.kind == "seats":
            seats = frozenset(int(s) for s in entry.payload.get("computer", ()))
    return seats


def replay_entries(
    journal: Journal, game_id: int, game: Game
) -> Iterator[tuple[Entry, int, Verdict]]:
    """Play a game's journaled actions that stand on ``game``: each entry, its mover and
    its verdict."""
    for entry in in_force(journal.entries(game_id), f"journal {journal.path}, game {game_id}"):
        where = f"journal {journal.path}, game {game_id}, entry {entry.seq}"
        mover, verdict = replay_action(game, entry.payload, where)
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
    verdict = game.play(action)
    if not verdict.accepted:
        raise JournalError(
            f"{where} does not replay: {verdict.reason}; the journal was written by "
            "another version or edited — start a new game or restore the file"
        )
    return mover, verdict
