"""Follow a journal read-only, as the daemon writes it, and the live file beside it.

SQLite in WAL mode lets this reader run beside the daemon's writer. Polling is
cheap: ``PRAGMA data_version`` changes only when another connection commits, and
the live file is checked by its size and modification time. The newest game is
replayed once and then only its new inputs are played.
"""

from __future__ import annotations

import json
import random
import sqlite3
import stat
from pathlib import Path
from typing import Any

from games.core import Game
from games.errors import GameError
from games.levels import DEFAULT as DEFAULT_LEVEL
from games.levels import level_name

from ..journal import JournalError, current_options
from ..kits import find_kit, new_game
from ..referees.facts import Facts
from ..referees.referee import Referee
from ..runtime.lights import position_lights
from ..runtime.live import live_path, read_live
from ..runtime.replay import replay_action
from . import project


def _json(text: object, where: str) -> Any:
    """A row's JSON text read, or a :class:`JournalError` naming the journal and the row."""
    try:
        if not isinstance(text, str):
            raise ValueError(f"it is {type(text).__name__}, not text")
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        what = "nested too deep" if isinstance(exc, RecursionError) else str(exc)[:80]
        raise JournalError(f"{where} is not readable JSON ({what}); it cannot be shown") from None


class Follower:
    """The newest game of one journal, kept up to date by ``poll``."""

    def __init__(self, journal: Path, board: str | None = None) -> None:
        self.journal = journal
        self.board = board
        self.game: Game | None = None
        self.game_id: int | None = None
        self.moves: list[dict[str, Any]] = []
        self.live: dict[str, Any] | None = None
        self.error: str | None = None
        """Why the journal cannot be followed now (shown on the page), or None."""
        self.version = 0
        """Goes up by one at every change a spectator could see."""
        self._db: sqlite3.Connection | None = None
        self._data_version: int | None = None
        self._seq = 0
        self._texts: dict[int, str] = {}
        self._words: Referee[Any] | None = None
        """The game's own view, to word each move as the table, the transcript and the
        export do."""
        self._live_stamp: tuple[int, int] | None = None
        self._seed = 0
        self._seats: frozenset[int] = frozenset()
        """The seats the computer plays, as the journal's last ``seats`` entry names them."""
        self._levels: dict[int, int] = {}
        """The level of each computer seat not at the default one (the same entry)."""
        self._before: dict[str, Any] | None = None
        """The layout before the last move replayed, for its lights."""
        self._lit: tuple[tuple[int, frozenset[int]], dict[str, str]] | None = None

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # -- polling ------------------------------------------------------------------
    def poll(self) -> bool:
        """Read what changed since the last poll; True if anything did."""
        changed = False
        try:
            changed = self._poll_journal()
            if self.error is not None:
                self.error = None
                changed = True
        except (JournalError, sqlite3.Error) as exc:
            message = str(exc)
            if isinstance(exc, sqlite3.Error):
                message = (
                    f"cannot read the journal {self.journal}: {exc}; check that it exists and "
                    "that this user may read it and its folder"
                )
            if message != self.error:
                self.error = message
                changed = True
            self.close()
            self._data_version = None
        if self._poll_live():
            changed = True
        if changed:
            self.version += 1
        return changed

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            if not self.journal.exists():
                raise JournalError(
                    f"there is no journal at {self.journal} yet; it appears when the board "
                    "starts its first game"
                )
            if not self.journal.is_file():
                # A FIFO or a device would be opened and read for ever.
                raise JournalError(
                    f"the journal {self.journal} is not a file (a pipe, a device or a "
                    "folder): give the path of the board's journal file"
                )
            uri = f"file:{self.journal.resolve()}?mode=ro"
            self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        return self._db

    def _poll_journal(self) -> bool:
        db = self._connect()
        (version,) = db.execute("PRAGMA data_version").fetchone()
        if version == self._data_version:
            return False
        self._data_version = version
        row = db.execute(
            "SELECT id, game, players, seed, options FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            raise JournalError(f"the journal {self.journal} holds no game yet")
        changed = False
        if row[0] != self.game_id or self._taken_back(db, row[0]):
            # A take-back withdraws moves already shown: the game is followed afresh.
            (written,) = db.execute("PRAGMA user_version").fetchone()
            self._start(row, written)
            changed = True
        return self._read_inputs(db) or changed

    def _taken_back(self, db: sqlite3.Connection, game_id: int) -> bool:
        found = db.execute(
            "SELECT 1 FROM inputs WHERE game_id = ? AND seq > ? AND kind = 'takeback' LIMIT 1",
            (game_id, self._seq),
        ).fetchone()
        return found is not None

    def _start(self, row: tuple[Any, ...], written: int) -> None:
        """Follow game ``row`` of a journal written in version ``written``."""
        game_id, name, players, seed, options = row
        try:
            given = _json(options, f"journal {self.journal}, game {game_id}'s options")
            if isinstance(given, dict):
                given = current_options(name, given, written)
            self.game = new_game(name, players, random.Random(seed), given)
        except (GameError, ValueError) as exc:
            raise JournalError(f"game {game_id} of {self.journal} cannot be shown: {exc}") from exc
        self.game_id = game_id
        self.moves = []
        self._seed, self._seats, self._before, self._lit = seed, frozenset(), None, None
        self._levels = {}
        self._seq = 0
        self._texts = {}
        try:
            self._words = find_kit(name).referee_for(self.game, Facts())
        except GameError:
            self._words = None  # a game without a referee: the generic words

    def _read_inputs(self, db: sqlite3.Connection) -> bool:
        game = self.game
        assert game is not None
        rows = db.execute(
            "SELECT seq, kind, payload, at FROM inputs WHERE game_id = ? AND seq > ? ORDER BY seq",
            (self.game_id, self._seq),
        ).fetchall()
        where = f"journal {self.journal}, game {self.game_id}, entry"
        parsed = [(seq, kind, self._object(payload, f"{where} {seq}"), at)
                  for seq, kind, payload, at in rows]  # fmt: skip
        try:
            withdrawn = {
                int(undone)
                for _, kind, payload, _ in parsed
                if kind == "takeback"
                for undone in payload.get("undo", [])
            }
            for _, kind, payload, _ in parsed:
                if kind == "seats":
                    self._seats = frozenset(int(s) for s in payload.get("computer", ()))
                    levels = payload.get("levels", {})
                    self._levels = {int(k): int(v) for k, v in dict(levels).items()}
        except (TypeError, ValueError) as exc:
            raise JournalError(f"{where}: a take-back or seats entry is malformed ({exc})") from exc
        for seq, kind, data, at in parsed:
            self._seq = seq
            if kind != "action" or seq in withdrawn:
                continue
            if self._words is not None:
                self._words.before_play()
            self._before = dict(game.layout())
            mover, verdict = replay_action(game, data, where)
            n = len(game.history)
            points = verdict.points(game.players)
            self.moves.append(
                {
                    "n": n,
                    "seq": seq,
                    "at": at,
                    "player": game.seat_name(mover),
                    "action": data,
                    "text": self._texts.get(n) or self._describe(data),
                    "points": {game.seat_name(p): v for p, v in enumerate(points)},
                    "scores": project.scores(game),
                }
            )
        return bool(rows)

    def _object(self, text: object, where: str) -> dict[str, Any]:
        value = _json(text, where)
        if not isinstance(value, dict):
            raise JournalError(f"{where} is not a JSON object; the journal cannot be shown")
        return value

    def _poll_live(self) -> bool:
        path = live_path(self.journal)
        try:
            st = path.stat()
            # Only a file is read: a FIFO put there would block the follower for ever.
            stamp = (st.st_mtime_ns, st.st_size) if stat.S_ISREG(st.st_mode) else None
        except OSError:
            stamp = None
        if stamp == self._live_stamp:
            return False
        self._live_stamp = stamp
        found = read_live(self.journal) if stamp is not None else None
        live = found[1] if found is not None and found[0] == self.game_id else None
        if live is not None:
            move = live.get("move")
            n = live.get("moves_played")
            if isinstance(move, dict) and isinstance(n, int) and isinstance(move.get("text"), str):
                self._texts[n] = move["text"]
                if 0 < n <= len(self.moves):
                    self.moves[n - 1]["text"] = move["text"]
        if live == self.live:
            return False
        self.live = live
        return True

    def _describe(self, data: dict[str, Any]) -> str:
        """The last move played, in the game's own words."""
        game = self.game
        if self._words is not None and game is not None and game.history:
            return self._words.view.describe(game.history[-1])
        return project.describe(data)

    # -- what spectators see --------------------------------------------------------
    def state(self) -> dict[str, Any] | None:
        """The ``--json`` projection of the game now; None before there is a game."""
        if self.game is None:
            return None
        return project.state(self.game, self.moves, self.live, self.leds)

    def view(self) -> dict[str, Any] | None:
        if self.game is None or self.game_id is None:
            return None
        game, moves, live = self.game, self.moves, self.live
        computer = {
            game.seat_name(seat): level_name(self._levels.get(seat, DEFAULT_LEVEL))
            for seat in sorted(self._seats)
            if 0 <= seat < game.players
        }
        return project.view(game, self.game_id, moves, live, self.board, self.leds, computer)

    def leds(self) -> dict[str, str]:
        """The lights of the position followed (worked out once per position)."""
        game = self.game
        assert game is not None
        key = (len(game.history), self._seats)
        if self._lit is None or self._lit[0] != key:
            self._lit = (key, dict(position_lights(game, self._seats, self._seed, self._before)))
        return self._lit[1]

    def record(self) -> dict[str, Any] | None:
        """The whole game: its facts and every move with its points and the scores after it."""
        view = self.view()
        if view is None:
            return None
        return {**view, "moves": self.moves}
