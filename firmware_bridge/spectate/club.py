"""What a hub knows of a club: every board's latest view, plan and moves, from MQTT messages.

Pure bookkeeping, fed one message at a time (``take``); the hub's MQTT client and
web pages sit around it. Moves are kept by number, so a move sent twice counts
once, and a gap (a move the hub never got) is noticed so it can be asked for.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from msgspec import Struct, field

from . import schema
from .errors import MessageRefused
from .geometry import Geometry
from .mqtt import TOPIC_ROOT


class Bucket(Struct):
    """A board's allowance of messages and bytes: it fills at a steady rate up to a
    ceiling, and each message takes from it (a token bucket)."""

    messages: float = 0.0
    bytes: float = 0.0
    at: float = 0.0


class Board(Struct):
    name: str
    journal_game: int | None = None
    state: bytes | None = None
    """The state message as it came (checked): parsed again when it is drawn, a tenth
    of the memory of its parsed form."""
    summary: dict[str, Any] = field(default_factory=dict)
    """The few short facts of the state the index and the gaps need."""
    plan: tuple[int, bytes] | None = None
    """The drawing plan message last sent (checked), with the game it is for."""
    plan_cells: int = 0
    """How many cells that plan has (to know without parsing it whether a card draws it)."""
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
    allowance: Bucket | None = None
    over_quota: int = 0
    """Messages refused for coming faster than the board's quota."""

    @property
    def view(self) -> dict[str, Any] | None:
        """The board's latest state, parsed."""
        return None if self.state is None else dict(json.loads(self.state))

    @property
    def geometry(self) -> Geometry | None:
        """The plan of the game followed now, if the board has sent it."""
        if self.plan is None or self.plan[0] != self.journal_game:
            return None
        return dict(json.loads(self.plan[1])["geometry"])

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
        if self.state is not None and self.summary.get("journal_game") != game:
            self.state = None
            self.summary = {}
            self.view_bytes = 0

    def missing(self) -> int | None:
        """The first move number the hub lacks though the board has played it, if any."""
        if self.state is None or self.full:
            return None
        played = int(self.summary.get("moves_played", 0))
        for n in range(1, played + 1):
            if n not in self.moves:
                return n
        return None

    def move_list(self) -> list[dict[str, Any]]:
        return [json.loads(self.moves[n]) for n in sorted(self.moves)]

    def index_entry(self) -> dict[str, Any]:
        view = self.summary
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


SUMMARY = ("journal_game", "game", "title", "scores", "turn", "moves_played", "result")
"""The state's fields a board's summary keeps (each checked short by the schema)."""


class Checked(Struct, frozen=True):
    """One message parsed and checked, not yet taken: done outside the hub's lock."""

    name: str
    kind: str
    payload: bytes
    data: dict[str, Any]
    game: int
    n: int = 0


MAX_BOARDS = 200
"""Boards a hub keeps; a board heard of beyond that pushes out the one idle longest."""
BOARD_BYTES = 256 * 1024
"""Bytes of messages kept for one board (its state, plan and moves); moves beyond it
are refused, so a board that sends too much cannot grow the hub without bound."""
MAX_REFUSERS = 1024
"""Names kept on the diagnostics page for boards whose messages were all refused."""
RATE_MESSAGES = 20.0
BURST_MESSAGES = 200.0
"""Messages a second a board may send for long, and at once: a board sends a state
and a move at each move, and after a reconnection its moves missed (a few hundred
at most, each the size of one move)."""
RATE_BYTES = 128 * 1024.0
BURST_BYTES = 1024 * 1024.0
"""Bytes a second a board may send for long, and at once (a full Crosslet state is
about 20 KB, its plan 8 KB). Messages beyond its quota are refused and counted; the
board's next message after it slows down is taken again."""
HUB_RATE_BYTES = 2 * 1024 * 1024.0
HUB_BURST_BYTES = 8 * 1024 * 1024.0
"""Bytes a second the hub takes in from all boards together, for long and at once
(parsing and checking 2 MB a second takes about 0.15 of a core here: 2 ms
for a 30 KB state): while its
allowance is low, the boards that sent most of it wait, the others are still taken."""


class Refusals(Struct):
    """What a hub refused from one board name: how many and the last reason."""

    count: int = 0
    last: str = ""
    when: float = 0.0


class Club:
    """Every board heard of, by name, and what each sent that was refused."""

    def __init__(
        self,
        max_boards: int = MAX_BOARDS,
        board_bytes: int = BOARD_BYTES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.boards: dict[str, Board] = {}
        self.clock = clock
        self.allowance = Bucket(0.0, HUB_BURST_BYTES, clock())
        """The hub's own allowance of bytes a second, all boards together."""
        self.reserved: set[str] = set()
        """Names no board may have: the hub's own login (the broker denies it too)."""
        self.refused: dict[str, Refusals] = {}
        self.refused_total = 0
        self.dropped = 0
        """Boards pushed out to make room for others."""
        self.max_boards = max_boards
        self.board_bytes = board_bytes

    def take(self, topic: str, payload: bytes | bytearray) -> str | None:
        """Take one message; the name of the board it changed, or None if it changed nothing.

        The three steps the hub does apart, the middle one outside its lock."""
        name = self.admit(topic, payload)
        if name is None:
            return None
        return self.apply(self.check(name, topic, payload), name)

    def admit(self, topic: str, payload: bytes | bytearray) -> str | None:
        """The board a message is for, if it is one the hub takes and within the
        board's quota (charged to it here); None if it is not (counted if refused)."""
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != TOPIC_ROOT or parts[2] not in ("state", "moves", "board"):
            return None
        name, kind = parts[1], parts[2]
        if not payload:
            return None  # a cleared retained message
        if not schema.BOARD_NAME.match(name):
            why = "its board name has spaces, control characters or is too long"
            self._refuse(name, f"{kind}: {why}")
            return None
        if name in self.reserved:
            self._refuse(name, f"{kind}: it is the hub's own name, not a board's")
            return None
        board = self.boards.get(name)
        if board is not None:
            over = self._over_quota(board, len(payload))
            if over is not None:
                board.over_quota += 1
                self._refuse(name, f"{kind}: {over}; taken again when it slows down")
                return None
        elif not self._hub_pays(len(payload), share_left=True):
            self._refuse(name, f"{kind}: the hub is busy with other boards; sent again later")
            return None
        return name

    def _over_quota(self, board: Board, size: int) -> str | None:
        """Why a message of ``size`` bytes from ``board`` is over its quota (charged to
        it and to the hub's when it is not)."""
        now = self.clock()
        bucket = board.allowance
        if bucket is None:
            bucket = board.allowance = Bucket(BURST_MESSAGES, BURST_BYTES, now)
        gone = max(0.0, now - bucket.at)
        bucket.at = now
        bucket.messages = min(BURST_MESSAGES, bucket.messages + gone * RATE_MESSAGES)
        bucket.bytes = min(BURST_BYTES, bucket.bytes + gone * RATE_BYTES)
        if bucket.messages < 1 or bucket.bytes < size:
            return (
                f"it sends more than {RATE_MESSAGES:.0f} messages or "
                f"{RATE_BYTES / 1024:.0f} KB a second"
            )
        if not self._hub_pays(size, share_left=bucket.bytes >= BURST_BYTES / 2):
            return "it sends more than its share while the hub is busy with every board's"
        bucket.messages -= 1
        bucket.bytes -= size
        return None

    def _hub_pays(self, size: int, share_left: bool) -> bool:
        """Whether the hub's own allowance takes ``size`` more bytes (and takes them).

        While it is low, only boards with half their own allowance left are taken:
        those sending little (a move now and then) still are, the heaviest wait."""
        hub = self.allowance
        now = self.clock()
        hub.bytes = min(HUB_BURST_BYTES, hub.bytes + max(0.0, now - hub.at) * HUB_RATE_BYTES)
        hub.at = now
        if hub.bytes < size or (hub.bytes < HUB_BURST_BYTES / 2 and not share_left):
            return False
        hub.bytes -= size
        return True

    def check(self, name: str, topic: str, payload: bytes | bytearray) -> Checked | str:
        """Parse and check a message admitted for ``name``: touches nothing of the club,
        so it runs outside the hub's lock. The reason it is refused, if it is."""
        kind = topic.rsplit("/", 1)[1]
        try:
            data = schema.load(payload)
            if not isinstance(data, dict):
                raise MessageRefused("it is not a JSON table")
            game = schema.journal_game(data)
            n = 0
            if kind == "state":
                schema.check_state(data)
            elif kind == "board":
                schema.check_plan(data.get("geometry"))
            else:
                n = schema.check_move(data)
        except MessageRefused as why:
            return f"{kind}: {why}"
        return Checked(name, kind, bytes(payload), data, game, n)

    def apply(self, checked: Checked | str, name: str = "") -> str | None:
        """Take a checked message (or count the reason it was refused, for ``name``)."""
        if isinstance(checked, str):
            self._refuse(name, checked)
            return None
        try:
            return self._take(checked)
        except MessageRefused as why:
            self._refuse(checked.name, f"{checked.kind}: {why}")
            return None

    def _take(self, checked: Checked) -> str | None:
        name, kind, payload, data, game = (
            checked.name, checked.kind, checked.payload, checked.data, checked.game
        )  # fmt: skip
        size = len(payload)
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
            n = checked.n
            if n in board.moves:
                return None
            if board.size() + size > self.board_bytes:
                board.full = True
                raise MessageRefused(f"its moves passed the hub's {self.board_bytes:,} bytes")
            board.moves[n] = payload
            board.move_bytes += size
            board.received[n] = now
        elif kind == "state":
            # The board's latest state says which game it plays, up or down: a message
            # of a made-up game number is replaced by the board's next state.
            board.follow(game)
            board.state = payload
            board.summary = {k: data[k] for k in SUMMARY if k in data}
            board.view_bytes = size
        else:
            board.plan = (game, payload)
            board.plan_cells = len(data["geometry"]["cells"])
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
        # A refused name is kept for the diagnostics page, cut to a board name's length.
        name = name[:64] + ("…" if len(name) > 64 else "")
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
