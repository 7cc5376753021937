"""A game record exported from the journal: every input with what it did.

The journal is opened read-only: exporting never changes the file, and a file that
is damaged or is not a tabletop journal is refused with a message naming it.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from games.levels import DEFAULT as DEFAULT_LEVEL
from games.levels import level_name

from ..journal import GameRecord, Journal
from ..kits import find_kit
from ..referees.facts import Facts
from ..runtime.replay import computer_levels, computer_seats, journaled_game, replay_entries


def export_game(path: Path, game_id: int | None = None) -> dict[str, Any]:
    """Replay a journaled game and report each accepted input with its effects."""
    with journaled_game(path, game_id) as (journal, record):
        return _replay(journal, record)


def _replay(journal: Journal, record: GameRecord) -> dict[str, Any]:
    kit = find_kit(record.game)
    game = kit.new_game(record.players, random.Random(record.seed), record.options)
    # The game's referee notes what each move's words need and its view words it as
    # the table did; no table is needed for it.
    referee = kit.referee_for(game, Facts(record=record))
    words = referee.view
    opening = list(words.opening())  # the set-up, as the game began
    moves: list[dict[str, Any]] = []
    for entry, mover, verdict in replay_entries(journal, record.id, game, referee.before_play):
        points = verdict.points(game.players)
        moves.append(
            {
                # Its place in the game, not the journal's count of inputs (which counts
                # what a take-back withdrew): one game's record is the same whoever
                # journaled it (two boards' journals of one game, docs/remote.md).
                "n": len(game.history),
                "at": entry.at,
                "player": game.seat_name(mover),
                "action": entry.payload,
                "text": words.story(game.history[-1]),
                "points": {game.seat_name(p): n for p, n in enumerate(points)},
                "scores": {game.seat_name(p): s for p, s in enumerate(game.scores())},
            }
        )
    state = game.state_dict()
    entries = list(journal.entries(record.id))
    levels = computer_levels(entries)
    computer = {
        game.seat_name(seat): level_name(levels.get(seat, DEFAULT_LEVEL))
        for seat in sorted(computer_seats(entries))
        if 0 <= seat < game.players
    }
    return {
        "id": record.id,
        "game": record.game,
        "title": game.title,
        "players": record.players,
        "seats": [game.seat_name(p) for p in range(game.players)],
        "computer": computer,
        "seed": record.seed,
        "options": record.options,
        "profile": record.profile,
        "started": record.started,
        "finished": record.finished,
        "opening": opening,
        "moves": moves,
        "scores": {game.seat_name(p): s for p, s in enumerate(game.scores())},
        "layout": state["layout"],
        "outcome": state["outcome"],
    }


def text_record(record: dict[str, Any]) -> str:
    """An exported game as a text a person reads: who played what, and how it ended."""
    computer = record.get("computer", {})
    seats = ", ".join(
        f"{seat} computer ({computer[seat]})" if seat in computer else seat
        for seat in record["seats"]
    )
    lines = [
        f"Game {record['id']}: {record['title']}, {record['players']} players ({seats}), "
        f"seed {record['seed']}, board {record['profile']}",
        f"Started {_when(record['started'])}"
        + (f", finished {_when(record['finished'])}" if record["finished"] else ", not finished"),
    ]
    if record["options"]:
        options = ", ".join(f"{k}={v}" for k, v in sorted(record["options"].items()))
        lines.append(f"Options: {options}")
    lines.extend(record.get("opening", []))
    lines.append("")
    width = max((len(m["player"]) for m in record["moves"]), default=0)
    for n, move in enumerate(record["moves"], start=1):
        points = {k: v for k, v in move["points"].items() if v}
        extra = f"  ({', '.join(f'{k} {v:+d}' for k, v in points.items())})" if points else ""
        lines.append(f"{n:4d}. {move['player']:<{width}}  {move['text']}{extra}")
    lines.append("")
    lines.append(f"Result: {result_text(record['outcome'], record['seats'])}")
    lines.append("Scores: " + ", ".join(f"{k} {v}" for k, v in record["scores"].items()))
    return "\n".join(lines)


def result_text(outcome: dict[str, Any] | None, seats: list[str]) -> str:
    """``"red wins: green resigned"``, ``"draw: ..."``, ``"abandoned: bob abandoned the
    game"`` (a game played board to board, given up while it waited) or ``"not finished"``."""
    if not outcome:
        return "not finished"
    reason = outcome.get("reason", "")
    if outcome.get("abandoned"):
        return f"abandoned: {reason}"
    if outcome.get("draw"):
        return f"draw: {reason}"
    names = [seats[p] if 0 <= p < len(seats) else f"player {p + 1}" for p in outcome["winners"]]
    verb = "wins" if len(names) == 1 else "win"
    return f"{' and '.join(names)} {verb}: {reason}"


def _when(stamp: str) -> str:
    """An ISO time from the journal as ``2026-11-25 14:12 UTC``."""
    return stamp[:16].replace("T", " ") + " UTC"
