"""``tabletop show``: the board of a saved game as a PNG.

The journal is opened read-only and the game replayed to its last accepted input;
the picture is drawn by ``board_png.py`` from the game's layout, with the lights a
game in progress shows with no board read (``lights.position_lights``): the computer's
move when a computer seat is to move, else the last move.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path

from msgspec import Struct, field
from PIL import Image

from games.core import Cell, Game, Piece

from ..journal import GameRecord, JournalError
from ..kits import new_game
from ..runtime.lights import position_lights
from ..runtime.replay import computer_seats, journaled_game, replay_entries
from ..spectate.board_png import board_png
from ..spectate.geometry import geometry
from ..spectate.project import result_text


class SavedGame(Struct, frozen=True):
    """A journaled game replayed: its record and the game as it stands."""

    record: GameRecord
    game: Game
    computer: frozenset[int] = frozenset()
    """The seats the computer plays, as the journal names them."""
    before: Mapping[Cell, Piece] | None = field(default=None)
    """The layout before the last accepted action, for its lights."""


def saved_game(path: Path, game_id: int | None = None) -> SavedGame:
    """Replay game ``game_id`` of the journal at ``path`` (default: the newest)."""
    if not path.exists():
        raise JournalError(f"there is no journal {path}: give the file tabletop sim or run wrote")
    with journaled_game(path, game_id) as (journal, record):
        game = new_game(record.game, record.players, random.Random(record.seed), record.options)
        before: dict[Cell, Piece] | None = None

        def keep() -> None:
            nonlocal before
            before = dict(game.layout())

        for _ in replay_entries(journal, record.id, game, keep):
            pass
        seats = computer_seats(journal.entries(record.id))
    return SavedGame(record, game, seats, before)


def lights_of(saved: SavedGame) -> dict[str, str]:
    """What the squares show for the saved position while it is played: the computer's
    move, else the last move; a finished game's board is drawn dark."""
    if saved.game.outcome is not None:
        return {}
    return dict(position_lights(saved.game, saved.computer, saved.record.seed, saved.before))


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
        leds=lights_of(saved),
    )


def write_png(image: Image.Image, path: Path) -> None:
    """Save ``image`` as a PNG at ``path``, whatever its name ends in."""
    if path.is_dir():
        raise ValueError(f"--png {path} is a folder: give a file name, e.g. {path / 'board.png'}")
    try:
        image.save(path, format="PNG")
    except OSError as exc:
        raise ValueError(f"--png {path}: {exc.strerror or exc}") from None
