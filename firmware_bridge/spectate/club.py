"""What a hub knows of a club: every board's latest view, plan and moves, from MQTT messages.

Pure bookkeeping, fed one message at a time (``take``); the hub's MQTT client and
web pages sit around it. Moves are kept by number, so a move sent twice counts
once, and a gap (a move the hub never got) is noticed so it can be asked for.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from .geometry import Geometry
from .mqtt import TOPIC_ROOT


@dataclass
class Board:
    name: str
    journal_game: int | None = None
    view: dict[str, Any] | None = None
    geometry: Geometry | None = None
    moves: dict[int, dict[str, Any]] = field(default_factory=dict)
    updated: float = 0.0
    """When the hub last heard of this board (time.time())."""
    received: dict[int, float] = field(default_factory=dict)
    """When each move reached the hub (time.time()), for latency figures."""

    def _game(self, game: Any) -> bool:
        """Follow ``game`` if it is this board's newest; False for an older game's message."""
        if not isinstance(game, int):
            return False
        if self.journal_game is None or game > self.journal_game:
            self.journal_game = game
            self.moves = {}
            self.received = {}
            self.geometry = None
            if self.view is not None and self.view.get("journal_game") != game:
                self.view = None
        return game == self.journal_game

    def missing(self) -> int | None:
        """The first move number the hub lacks though the board has played it, if any."""
        if self.view is None:
            return None
        played = int(self.view.get("moves_played", 0))
        for n in range(1, played + 1):
            if n not in self.moves:
                return n
        return None

    def move_list(self) -> list[dict[str, Any]]:
        return [self.moves[n] for n in sorted(self.moves)]

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


def state_problem(view: dict[str, Any]) -> str | None:
    """What a board's state message lacks that the hub's pages draw, or None: a state
    without it (another program on the broker, a board of another version) is not
    taken, so the board's last good state stays on the pages."""
    seats = view.get("seats")
    if not isinstance(view.get("title"), str):
        return "it has no title"
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        return "its seats are not a list of names"
    if not isinstance(view.get("scores"), dict):
        return "its scores are not a table of seat to score"
    played = view.get("moves_played")
    if not isinstance(played, int) or isinstance(played, bool) or played < 0:
        return "its count of moves played is not a whole number"
    layout = view.get("layout")
    if not isinstance(layout, dict) or not all(isinstance(c, dict) for c in layout.values()):
        return "its layout is not a table of cells"
    return None


class Club:
    """Every board heard of, by name."""

    def __init__(self) -> None:
        self.boards: dict[str, Board] = {}

    def take(self, topic: str, payload: bytes | bytearray) -> str | None:
        """Take one message; the name of the board it changed, or None if it changed nothing."""
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != TOPIC_ROOT or parts[2] not in ("state", "moves", "board"):
            return None
        name, kind = parts[1], parts[2]
        if not payload:
            return None  # a cleared retained message
        try:
            data = json.loads(payload)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        board = self.boards.setdefault(name, Board(name))
        now = time.time()
        if not board._game(data.get("journal_game")):
            return None
        if kind == "state":
            if state_problem(data) is not None:
                return None
            board.view = data
        elif kind == "board":
            geo = data.get("geometry")
            if not isinstance(geo, dict):
                return None
            board.geometry = geo
        else:
            n = data.get("n")
            if not isinstance(n, int) or n < 1:
                return None
            if n in board.moves:
                return None
            board.moves[n] = data
            board.received[n] = now
        board.updated = now
        return name

    def index(self) -> dict[str, Any]:
        return {
            "boards": [self.boards[n].index_entry() for n in sorted(self.boards)],
            "count": len(self.boards),
        }
