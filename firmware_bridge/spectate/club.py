"""What a hub knows of a club: every board's latest view, plan and moves, from MQTT messages.

Pure bookkeeping, fed one message at a time (``take``); the hub's MQTT client and
web pages sit around it. Moves are kept by number, so a move sent twice counts
once, and a gap (a move the hub never got) is noticed so it can be asked for.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import quote

from msgspec import Struct, field

from . import schema
from .errors import MessageRefused
from .geometry import Geometry
from .mqtt import TOPIC_ROOT


class Board(Struct):
    name: str
    journal_game: int | None = None
    view: dict[str, Any] | None = None
    plan: tuple[int, Geometry] | None = None
    """The drawing plan last sent, with the game it is for."""
    moves: dict[int, bytes] = field(default_factory=dict)
    """Each move's message as it came (checked): a tenth of the memory of its parsed form."""
    updated: float = 0.0
    """When the hub last heard of this board (time.time())."""
    received: dict[int, float] = field(default_factory=dict)
    """When each move reached the hub (time.time()), for latency figures."""
    view_bytes: int = 0
    plan_bytes: int = 0
    move_bytes: int = 0
    full: bool = False
    """Moves were refused for want of room: gaps are not asked for again."""

    @property
    def geometry(self) -> Geometry | None:
        """The plan of the game followed now, if the board has sent it."""
        if self.plan is None or self.plan[0] != self.journal_game:
            return None
        return self.plan[1]

    def size(self) -> int:
        return self.view_bytes + self.plan_bytes + self.move_bytes

    def follow(self, game: int) -> None:
        """Follow game number ``game``: a game other than the one followed starts afresh."""
        if game == self.journal_game:
            return
        self.journal_game = game
        self.moves = {}
        self.received = {}
        self.move_bytes = 0
        self.full = False
        if self.view is not None and self.view.get("journal_game") != game:
            self.view = None
            self.view_bytes = 0

    def missing(self) -> int | None:
        """The first move number the hub lacks though the board has played it, if any."""
        if self.view is None or self.full:
            return None
        played = int(self.view.get("moves_played", 0))
        for n in range(1, played + 1):
            if n not in self.moves:
                return n
        return None

    def move_list(self) -> list[dict[str, Any]]:
        return [json.loads(self.moves[n]) for n in sorted(self.moves)]

    def index_entry(self) -> dict[str, Any]:
        view = self.view or {}
        return {
            "name": self.name,
            "game": view.get("game"),
            "title": view.get("title"),
            "journal_game": self.journal_game,
            "scores": view.get("scores"),
            "turn": view.get("turn"),
            "moves_played": view.get("moves_played"),
            "result": view.get("result"),
            "updated": self.updated,
            "url": f"/boards/{quote(self.name, safe='')}.json",
        }

    def record(self) -> dict[str, Any]:
        return {**self.index_entry(), "view": self.view, "moves": self.move_list()}


MAX_BOARDS = 200
"""Boards a hub keeps; a board heard of beyond that pushes out the one idle longest."""
BOARD_BYTES = 256 * 1024
"""Bytes of messages kept for one board (its state, plan and moves); moves beyond it
are refused, so a board that sends too much cannot grow the hub without bound."""
MAX_REFUSERS = 1024
"""Names kept on the diagnostics page for boards whose messages were all refused."""


class Refusals(Struct):
    """What a hub refused from one board name: how many and the last reason."""

    count: int = 0
    last: str = ""
    when: float = 0.0


class Club:
    """Every board heard of, by name, and what each sent that was refused."""

    def __init__(self, max_boards: int = MAX_BOARDS, board_bytes: int = BOARD_BYTES) -> None:
        self.boards: dict[str, Board] = {}
        self.refused: dict[str, Refusals] = {}
        self.refused_total = 0
        self.dropped = 0
        """Boards pushed out to make room for others."""
        self.max_boards = max_boards
        self.board_bytes = board_bytes

    def take(self, topic: str, payload: bytes | bytearray) -> str | None:
        """Take one message; the name of the board it changed, or None if it changed nothing."""
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != TOPIC_ROOT or parts[2] not in ("state", "moves", "board"):
            return None
        name, kind = parts[1], parts[2]
        if not payload:
            return None  # a cleared retained message
        try:
            if not schema.BOARD_NAME.match(name):
                raise MessageRefused("its board name has spaces, control characters or is too long")
            return self._take(name, kind, payload)
        except MessageRefused as why:
            self._refuse(name, f"{kind}: {why}")
            return None

    def _take(self, name: str, kind: str, payload: bytes | bytearray) -> str | None:
        data = schema.load(payload)
        if not isinstance(data, dict):
            raise MessageRefused("it is not a JSON table")
        game = schema.journal_game(data)
        size = len(payload)
        if kind == "state":
            schema.check_state(data)
        elif kind == "board":
            geo = schema.check_plan(data.get("geometry"))
        else:
            n = schema.check_move(data)
        board = self.boards.get(name)
        if board is None:
            board = self._add(name)
        now = time.time()
        if kind == "moves":
            # A move switches to a newer game only (its state follows it); a late move
            # of an older game is dropped.
            if board.journal_game is not None and game < board.journal_game:
                return None
            board.follow(game)
            if n in board.moves:
                return None
            if board.size() + size > self.board_bytes:
                board.full = True
                raise MessageRefused(f"its moves passed the hub's {self.board_bytes:,} bytes")
            board.moves[n] = bytes(payload)
            board.move_bytes += size
            board.received[n] = now
        elif kind == "state":
            # The board's latest state says which game it plays, up or down: a message
            # of a made-up game number is replaced by the board's next state.
            board.follow(game)
            board.view = data
            board.view_bytes = size
        else:
            board.plan = (game, geo)
            board.plan_bytes = size
        board.updated = now
        return name

    def _add(self, name: str) -> Board:
        while len(self.boards) >= self.max_boards:
            idle = min(self.boards.values(), key=lambda b: b.updated)
            del self.boards[idle.name]
            self.dropped += 1
        board = self.boards[name] = Board(name)
        return board

    def _refuse(self, name: str, why: str) -> None:
        self.refused_total += 1
        seen = self.refused.get(name)
        if seen is None:
            if len(self.refused) >= MAX_REFUSERS:
                del self.refused[min(self.refused, key=lambda n: self.refused[n].when)]
            seen = self.refused[name] = Refusals()
        seen.count += 1
        seen.last = why
        seen.when = time.time()

    def diagnostics(self) -> dict[str, Any]:
        """What was refused, per board name, for the hub's diagnostics page."""
        return {
            "boards": len(self.boards),
            "max_boards": self.max_boards,
            "dropped": self.dropped,
            "refused": self.refused_total,
            "by_board": {
                n: {"refused": r.count, "last": r.last, "when": r.when}
                for n, r in sorted(self.refused.items())
            },
        }

    def index(self) -> dict[str, Any]:
        return {
            "boards": [self.boards[n].index_entry() for n in sorted(self.boards)],
            "count": len(self.boards),
        }
