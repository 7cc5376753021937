"""``tabletop show``: the board of a saved game as a PNG.

The journal is opened read-only and the game replayed to its last accepted input;
the picture is drawn by ``board_png.py`` from the game's layout.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from games.core import Game

from .board_png import board_png
from .journal import GameRecord, JournalError
from .kits import new_game
from .replay import journaled_game, replay_entries
from .spectate.geometry import geometry
from .spectate.project import result_text


@dataclass(frozen=True)
class SavedGame:
    """A journaled game replayed: its record and the game as it stands."""

    record: GameRecord
    game: Game


def saved_game(path: Path, game_id: int | None = None) -> SavedGame:
    """Replay game ``game_id`` of the journal at ``path`` (default: the newest)."""
    if not path.exists():
        raise JournalError(f"there is no journal {path}: give the file tabletop sim or run wrote")
    with journaled_game(path, game_id) as (journal, record):
        game = new_game(record.game, record.players, random.Random(record.seed), record.options)
        for _ in replay_entries(journal, record.id, game):
            pass
    return SavedGame(record, game)


def picture(saved: SavedGame) -> Image.Image:
    """The board of a replayed game, with its seats, scores and result."""
    game = saved.game
    seats = [game.seat_name(p) for p in range(game.players)]
    moves = len(game.history)
    title = f"{game.title}, game {saved.record.id}: {moves} move{'s' if moves != 1 else ''}"
    return board_png(
        geometry(game),
        game.state_dict()["layout"],
        seats,
        title=title,
        scores=game.scores(),
        result=result_text(game),
    )


def write_png(image: Image.Image, path: Path) -> None:
    """Save ``image`` as a PNG at ``path``, whatever its name ends in."""
    if path.is_dir():
        raise ValueError(f"--png {path} is a folder: give a file name, e.g. {path / 'board.png'}")
    try:
        image.save(path, format="PNG")
    except OSError as exc:
        raise ValueError(f"--png {path}: {exc.strerror or exc}") from None
