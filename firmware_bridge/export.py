"""A game record exported from the journal: every input with what it did."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from .journal import Journal, JournalError
from .kits import find_kit
from .session import replay_entries


def export_game(path: Path, game_id: int | None = None) -> dict[str, Any]:
    """Replay a journaled game and report each accepted input with its effects."""
    if not path.exists():
        raise JournalError(f"there is no journal at {path}")
    with Journal(path) as journal:
        records = journal.games()
        if not records:
            raise JournalError(f"the journal {path} holds no games")
        record = journal.game(game_id) if game_id is not None else records[-1]
        kit = find_kit(record.game)
        game = kit.new_game(record.players, random.Random(record.seed), record.options)
        moves: list[dict[str, Any]] = []
        for entry, mover, verdict in replay_entries(journal, record.id, game):
            points = verdict.points(game.players)
            moves.append(
                {
                    "seq": entry.seq,
                    "at": entry.at,
                    "player": game.seat_name(mover),
                    "action": entry.payload,
                    "points": {game.seat_name(p): n for p, n in enumerate(points)},
                    "scores": {game.seat_name(p): s for p, s in enumerate(game.scores())},
                }
            )
        state = game.state_dict()
        return {
            "id": record.id,
            "game": record.game,
            "players": record.players,
            "seed": record.seed,
            "options": record.options,
            "profile": record.profile,
            "started": record.started,
            "finished": record.finished,
            "moves": moves,
            "scores": {game.seat_name(p): s for p, s in enumerate(game.scores())},
            "layout": state["layout"],
            "outcome": state["outcome"],
        }
