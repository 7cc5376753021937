"""The saved games of a journal: ``tabletop history`` lists them, ``tabletop resume`` finds one.

The journal is only read: listing never changes the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.errors import GameError
from games.registry import find_game

from ..journal import GameRecord, GameSummary, Journal, JournalError
from .export import result_text

COLUMNS = ("id", "date", "game", "players", "result", "moves")


def seat_names(game: str, players: int) -> list[str]:
    """The seats of a journaled game as its table names them."""
    try:
        names = find_game(game).seat_names
    except GameError:
        names = ()
    return [names[p] if p < len(names) else f"player {p + 1}" for p in range(players)]


def title_of(game: str) -> str:
    try:
        return find_game(game).title
    except GameError:
        return game


def history(path: Path) -> list[dict[str, Any]]:
    """Every saved game of the journal at ``path``, oldest first."""
    with Journal(path, read_only=True) as journal:
        return [_row(summary) for summary in journal.summaries()]


def _row(summary: GameSummary) -> dict[str, Any]:
    record = summary.record
    return {
        "id": record.id,
        "date": record.started,
        "game": record.game,
        "players": record.players,
        "seats": seat_names(record.game, record.players),
        "result": result_text(record.outcome, seat_names(record.game, record.players)),
        "finished": record.finished,
        "moves": summary.moves,
    }


def history_table(rows: list[dict[str, Any]], path: Path) -> str:
    """The rows as an aligned table, with a line saying what to do next."""
    if not rows:
        return f"The journal {path} holds no games yet."
    table = [["ID", "DATE", "GAME", "PLAYERS", "MOVES", "RESULT"]]
    for row in rows:
        table.append(
            [
                str(row["id"]),
                row["date"][:16].replace("T", " "),
                title_of(row["game"]),
                str(row["players"]),
                str(row["moves"]),
                row["result"],
            ]
        )
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]) - 1)]
    lines = ["  ".join([*(c.ljust(w) for c, w in zip(r, widths, strict=False)), r[-1]]).rstrip()
             for r in table]  # fmt: skip
    lines.append("")
    lines.append(
        f"tabletop export --journal {path} --game ID  shows a game; "
        f"tabletop resume --journal {path} ID  plays an unfinished one on."
    )
    return "\n".join(lines)


def resumable(path: Path, game_id: int) -> GameRecord:
    """The unfinished game ``game_id`` of the journal, or JournalError saying why not."""
    with Journal(path, read_only=True) as journal:
        record = journal.game(game_id)
        if record.finished is not None:
            seats = seat_names(record.game, record.players)
            raise JournalError(
                f"game {game_id} of the journal {path} is over "
                f"({result_text(record.outcome, seats)}); nothing to resume. "
                f"`tabletop export --journal {path} --game {game_id} --text` shows it"
            )
        return record
