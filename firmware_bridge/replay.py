"""Replaying journaled actions on a game: how a resumed session, an export and a
spectator rebuild a game from its journal, with the same checks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.core import Action, Game, Verdict

from .journal import Entry, Journal, JournalError


def mover_of(game: Game, action: Action) -> int:
    """The seat ``action`` is credited to, judged before it is played."""
    # An action that names its player (a rack seen, a resignation) is that
    # player's, whoever is to move.
    player: int = getattr(action, "player", game.to_move)
    return player


def replay_entries(
    journal: Journal, game_id: int, game: Game
) -> Iterator[tuple[Entry, int, Verdict]]:
    """Play a game's journaled actions on ``game``: each entry, its mover and its verdict."""
    for entry in journal.entries(game_id):
        if entry.kind != "action":
            continue
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
