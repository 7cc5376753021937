"""Double Take: the rules engine and a computer player (rules: docs/rules.md).

Two interleaved networks of points, red and green, on 8 files × 9 rows (8–10 by the
``rows`` option). Pieces step along their own colour's lines, take enemy pieces by
sandwiching them along a row or column, and race to plant four on their far row.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from games.core import (
    Action,
    Cell,
    Game,
    Layout,
    Outcome,
    Pass,
    Piece,
    Player,
    PlayerId,
    Resign,
    ScoreEvent,
    Verdict,
)
from games.double_take import ABOUT
from games.errors import BadSettings, GameError

FILES = "abcdefgh"
RED: PlayerId = 0
GREEN: PlayerId = 1
SEAT_NAMES = ("red", "green")
PIECES_EACH = 12
WINNING_COUNT = 4
"""Own pieces on the far row that win at once (every own point of that row)."""

PositionKey = tuple[frozenset[tuple[Cell, PlayerId]], PlayerId]


# -- the board ----------------------------------------------------------------------
@dataclass(frozen=True)
class _Link:
    """One step along a line of the mover's colour."""

    to: Cell
    over: Cell | None
    """The enemy point a straight step passes over; it must be empty."""
    rank_step: int
    """Change of rank: +1/+2 is forward for red, -1/-2 forward for green."""


@dataclass(frozen=True)
class _Geometry:
    """Names, colours and lines of a board with a given number of rows."""

    rows: int
    cells: tuple[Cell, ...]
    rank: Mapping[Cell, int]
    colour: Mapping[Cell, PlayerId]
    links: Mapping[Cell, tuple[_Link, ...]]
    link: Mapping[tuple[Cell, Cell], _Link]
    flanks: Mapping[Cell, tuple[tuple[Cell, Cell], ...]]
    """For a point P: (P+d, P+2d) for each row/column direction d that fits the board."""
    corners: frozenset[Cell]
    far: tuple[frozenset[Cell], frozenset[Cell]]
    """The points of each seat's far row (its last rank, of either colour)."""

    def far_rank(self, player: PlayerId) -> int:
        return self.rows if player == RED else 1

    def forward(self, player: PlayerId) -> int:
        return 1 if player == RED else -1


def _name(rank: int, file: int) -> Cell:
    return f"{FILES[file - 1]}{rank}"


@cache
def _geometry(rows: int) -> _Geometry:
    def on_board(rank: int, file: int) -> bool:
        return 1 <= rank <= rows and 1 <= file <= len(FILES)

    cells: list[Cell] = []
    rank_of: dict[Cell, int] = {}
    colour: dict[Cell, PlayerId] = {}
    links: dict[Cell, tuple[_Link, ...]] = {}
    link: dict[tuple[Cell, Cell], _Link] = {}
    flanks: dict[Cell, tuple[tuple[Cell, Cell], ...]] = {}
    corners = frozenset(_name(r, f) for r in (1, rows) for f in (1, len(FILES)))
    for r in range(1, rows + 1):
        for f in range(1, len(FILES) + 1):
            cell = _name(r, f)
            cells.append(cell)
            rank_of[cell] = r
            colour[cell] = RED if (r + f) % 2 == 0 else GREEN
            out: list[_Link] = []
            for dr, df in ((1, -1), (1, 1), (-1, -1), (-1, 1)):
                if on_board(r + dr, f + df):
                    out.append(_Link(_name(r + dr, f + df), None, dr))
            for dr, df in ((2, 0), (-2, 0), (0, -2), (0, 2)):
                if on_board(r + dr, f + df):
                    over = _name(r + dr // 2, f + df // 2)
                    out.append(_Link(_name(r + dr, f + df), over, dr))
            links[cell] = tuple(out)
            for one in out:
                link[cell, one.to] = one
            pairs: list[tuple[Cell, Cell]] = []
            for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if on_board(r + 2 * dr, f + 2 * df):
                    adjacent = _name(r + dr, f + df)
                    # The rule says corners are safe; geometry already ensures it,
                    # the filter keeps it true whatever the board shape.
                    if adjacent not in corners:
                        pairs.append((adjacent, _name(r + 2 * dr, f + 2 * df)))
            flanks[cell] = tuple(pairs)
    far = (
        frozenset(c for c in cells if rank_of[c] == rows),
        frozenset(c for c in cells if rank_of[c] == 1),
    )
    return _Geometry(rows, tuple(cells), rank_of, colour, links, link, flanks, corners, far)


def _rank(cell: Cell) -> int:
    return int(cell[1:])


def _listing(cells: tuple[Cell, ...]) -> str:
    """``"d5"``, ``"d5 and f5"``, ``"c4, d5 and f5"``."""
    if len(cells) == 1:
        return cells[0]
    return ", ".join(cells[:-1]) + " and " + cells[-1]


_PIECES: tuple[tuple[Piece, Piece], ...] = tuple(
    (Piece("man", name, owner), Piece("man", name, owner, "far-row"))
    for owner, name in enumerate(SEAT_NAMES)
)
"""Each seat's piece in ``layout``: away from its far row, and on it."""


# -- actions ------------------------------------------------------------------------
@dataclass(frozen=True)
class Step(Action):
    """Move the piece on ``frm`` to ``to`` and take the pieces on ``captures``.

    ``captures`` is kept sorted, so equal moves compare equal however they were built.
    """

    type: ClassVar[str] = "step"
    frm: Cell
    to: Cell
    captures: tuple[Cell, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "captures", tuple(sorted(self.captures)))


# -- the game -----------------------------------------------------------------------
class DoubleTake(Game):
    """A game of Double Take in progress. Red (seat 0) moves first from ranks 1–3.

    Every step either advances its piece or takes pieces, so a game always ends and
    legal play never repeats a position; the repetition draw is kept because the
    rules name it.
    """

    about = ABOUT
    seat_names: ClassVar[tuple[str, ...]] = SEAT_NAMES

    def __init__(
        self,
        players: int = 2,
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(players, rng, options)
        rows: int = self.option("rows", 9)
        self.rows = rows
        self.repetitions: int = self.option("repetitions", 3)
        self._geo = _geometry(self.rows)
        self._board: dict[Cell, PlayerId] = {}
        for cell in self._geo.cells:
            rank = self._geo.rank[cell]
            colour = self._geo.colour[cell]
            if (colour == RED and rank <= 3) or (colour == GREEN and rank > rows - 3):
                self._board[cell] = colour
        self._to_move: PlayerId = RED
        self._outcome: Outcome | None = None
        self._seen: Counter[PositionKey] = Counter()
        self._steps_now: tuple[Step, ...] | None = None
        self._layout_now: Layout | None = None
        self._settle(mover=None)

    @classmethod
    def from_position(
        cls,
        pieces: Mapping[Cell, PlayerId],
        to_move: PlayerId,
        rows: int = 9,
        repetitions: int = 3,
    ) -> DoubleTake:
        """A game set up with ``pieces`` (cell → seat) and ``to_move`` to play.

        The position is judged at once: it may already be won, drawn or blocked.
        """
        game = cls(options={"rows": rows, "repetitions": repetitions})
        if to_move not in (RED, GREEN):
            raise BadSettings(f"to_move must be 0 (red) or 1 (green), not {to_move!r}")
        board: dict[Cell, PlayerId] = {}
        for cell, owner in pieces.items():
            if cell not in game._geo.rank:
                raise BadSettings(f"{cell} is not a point of a board with {rows} rows")
            if owner not in (RED, GREEN):
                raise BadSettings(f"the piece on {cell} needs owner 0 (red) or 1 (green)")
            if game._geo.colour[cell] != owner:
                raise BadSettings(
                    f"{cell} is a {cls.seat_names[1 - owner]} point; "
                    f"a {cls.seat_names[owner]} piece cannot stand there"
                )
            board[cell] = owner
        for seat in (RED, GREEN):
            count = sum(1 for owner in board.values() if owner == seat)
            if count > PIECES_EACH:
                raise BadSettings(f"{cls.seat_names[seat]} has {count} pieces; at most 12")
        game._board = board
        game._to_move = to_move
        game._outcome = None
        game._seen.clear()
        game._settle(mover=None)
        return game

    # -- what the table needs to know ---------------------------------------------
    @property
    def to_move(self) -> PlayerId:
        return self._to_move

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def cells(self) -> list[Cell]:
        """Every point, rank by rank from red's near row: a1..h1, a2..h2, and so on."""
        return list(self._geo.cells)

    def colour(self, cell: Cell) -> PlayerId:
        """The seat whose network ``cell`` belongs to (0 red, 1 green)."""
        return self._geo.colour[cell]

    def far_row(self, player: PlayerId) -> list[Cell]:
        """The points of ``player``'s colour on its far row (the last rank for red)."""
        rank = self._geo.far_rank(player)
        return [
            c for c in self._geo.cells if self._geo.rank[c] == rank and self.colour(c) == player
        ]

    def scores(self) -> list[int]:
        """Own pieces standing on the own far row, per seat."""
        return [self._far_count(RED), self._far_count(GREEN)]

    def pieces_left(self) -> list[int]:
        counts = [0, 0]
        for owner in self._board.values():
            counts[owner] += 1
        return counts

    def layout(self) -> Layout:
        if self._layout_now is None:
            far = self._geo.far
            self._layout_now = {
                cell: _PIECES[owner][cell in far[owner]] for cell, owner in self._board.items()
            }
        return dict(self._layout_now)

    def position_key(self) -> PositionKey:
        """The board and the player to move: what the repetition rule compares."""
        return (frozenset(self._board.items()), self._to_move)

    def state_dict(self) -> dict[str, Any]:
        out = super().state_dict()
        out["rows"] = self.rows
        out["pieces_left"] = self.pieces_left()
        return out

    # -- moves --------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal Step, or ``[Pass()]`` alone when the player to move is stuck.

        A move that captures is listed with all its captures, and once more with no
        captures when it is also legal without (a forward move off the far row).
        """
        if self._outcome is not None:
            return []
        steps: list[Action] = list(self.legal_steps())
        return steps or [Pass()]

    def legal_steps(self) -> tuple[Step, ...]:
        """Every Step the player to move may make, as ``legal_actions`` lists them.

        Worked out once per position: the same tuple until an action is applied.
        """
        if self._steps_now is None:
            self._steps_now = tuple(self._steps(self._to_move))
        return self._steps_now

    def sandwiched(self, frm: Cell, to: Cell) -> tuple[Cell, ...]:
        """The enemy pieces, sorted, that moving the piece on ``frm`` to ``to`` would take.

        Judged on the board after the move; says nothing of whether the move is legal.
        """
        if to not in self._geo.rank:
            return ()
        mover = self._board.get(frm, self._to_move)
        return self._taken(mover, frm, to)

    def _judge(self, action: Action) -> Verdict:
        if isinstance(action, Step):
            return self._check_step(action)
        if isinstance(action, Pass):
            if self.legal_steps():
                return Verdict.reject(f"{self._seat()} can move, so may not pass")
            return Verdict.ok()
        if isinstance(action, Resign):
            if action.player not in (RED, GREEN):
                return Verdict.reject(f"there is no seat {action.player}; red is 0, green 1")
            return Verdict.ok()
        return Verdict.reject(f"Double Take has no {action.type!r} action")

    def decode(self, data: Mapping[str, Any]) -> Action:
        """Rebuild a Step, Pass or Resign from ``to_dict`` output."""
        if not isinstance(data, Mapping):
            raise GameError(f"an action must be a mapping with a 'type', not {data!r}")
        kind = data.get("type")
        fields = set(data) - {"type"}
        if kind == "step":
            if not {"frm", "to"} <= fields <= {"frm", "to", "captures"}:
                raise GameError(
                    f"a step needs 'frm' and 'to' and may have 'captures'; got {sorted(fields)}"
                )
            frm, to = self._decode_cell(data["frm"]), self._decode_cell(data["to"])
            raw = data.get("captures", [])
            if not isinstance(raw, list | tuple):
                raise GameError(f"'captures' must be a list of points, not {raw!r}")
            captures = tuple(self._decode_cell(c) for c in raw)
            if len(set(captures)) != len(captures):
                raise GameError(f"'captures' names a point twice: {list(captures)}")
            return Step(frm, to, captures)
        if kind == "pass":
            if fields:
                raise GameError(f"a pass has no fields; got {sorted(fields)}")
            return Pass()
        if kind == "resign":
            player = data.get("player")
            if fields != {"player"} or isinstance(player, bool) or player not in (RED, GREEN):
                raise GameError("a resignation needs 'player': 0 (red) or 1 (green)")
            return Resign(player)
        raise GameError(f"unknown action type {kind!r}; Double Take knows step, pass and resign")

    def _decode_cell(self, value: Any) -> Cell:
        if not isinstance(value, str) or value not in self._geo.rank:
            raise GameError(f"{value!r} is not a point of this board (a1 to h{self.rows})")
        return value

    def _apply(self, action: Action) -> Verdict:
        mover = self._to_move
        if isinstance(action, Resign):
            self._outcome = Outcome(
                winners=(1 - action.player,), reason=f"{self.seat_names[action.player]} resigned"
            )
            return Verdict.ok()
        if isinstance(action, Pass):
            self._to_move = 1 - mover
            self._settle(mover=None)
            return Verdict.ok(reason=f"{self.seat_names[mover]} cannot move and passes")
        if not isinstance(action, Step):
            raise GameError(f"Double Take has no {action.type!r} action")
        events = self._score_events(mover, action)
        del self._board[action.frm]
        self._board[action.to] = mover
        for cell in action.captures:
            del self._board[cell]
        self._to_move = 1 - mover
        self._settle(mover=mover)
        return Verdict.ok(events=events, removed=action.captures)

    # -- rules internals ----------------------------------------------------------
    def _seat(self) -> str:
        return self.seat_names[self._to_move]

    def _on_far_row(self, cell: Cell, owner: PlayerId) -> bool:
        return cell in self._geo.far[owner]

    def _far_count(self, player: PlayerId) -> int:
        far = self._geo.far_rank(player)
        rank = self._geo.rank
        return sum(1 for c, o in self._board.items() if o == player and rank[c] == far)

    def _taken(self, mover: PlayerId, frm: Cell, to: Cell) -> tuple[Cell, ...]:
        board = self._board
        enemy = 1 - mover
        out = [
            adjacent
            for adjacent, beyond in self._geo.flanks[to]
            # ``frm`` is empty once the piece has left it.
            if board.get(adjacent) == enemy and beyond != frm and board.get(beyond) == mover
        ]
        return tuple(sorted(out))

    def _steps(self, player: PlayerId) -> Iterator[Step]:
        board = self._board
        geo = self._geo
        ahead = geo.forward(player)
        for frm in geo.cells:
            if board.get(frm) != player:
                continue
            for link in geo.links[frm]:
                if link.to in board or (link.over is not None and link.over in board):
                    continue
                taken = self._taken(player, frm, link.to)
                if taken:
                    yield Step(frm, link.to, taken)
                # A far-row piece has no forward step, so it moves here only to capture.
                if link.rank_step * ahead > 0:
                    yield Step(frm, link.to)

    def _check_step(self, step: Step) -> Verdict:
        geo = self._geo
        frm, to = step.frm, step.to
        for cell in (frm, to):
            if cell not in geo.rank:
                return Verdict.reject(f"{cell} is not a point of the board")
        owner = self._board.get(frm)
        if owner is None:
            return Verdict.reject(f"no piece on {frm}")
        if owner != self._to_move:
            return Verdict.reject(f"it is {self._seat()}'s turn")
        link = geo.link.get((frm, to))
        if link is None or geo.colour[to] != owner:
            return Verdict.reject(f"{to} is not on a {self.seat_names[owner]} line from {frm}")
        if link.over is not None and link.over in self._board:
            return Verdict.reject(f"{frm}→{to} passes over {link.over}, which is occupied")
        if to in self._board:
            return Verdict.reject(f"{to} is occupied")
        taken = self._taken(owner, frm, to)
        if step.captures:
            if step.captures == taken:
                return Verdict.ok(removed=taken)
            if not taken:
                return Verdict.reject(f"{frm}→{to} captures nothing")
            return Verdict.reject(f"a capture takes every sandwiched piece: {_listing(taken)}")
        if self._on_far_row(frm, owner):
            return Verdict.reject("a piece on its far row moves only to capture")
        if link.rank_step * geo.forward(owner) <= 0:
            if taken:
                return Verdict.reject("without a capture a piece moves only forward")
            way = "sideways" if link.rank_step == 0 else "backward"
            return Verdict.reject(f"{frm}→{to} captures nothing and goes {way}")
        return Verdict.ok()

    def _score_events(self, mover: PlayerId, step: Step) -> list[ScoreEvent]:
        """Changes to the far-row counts that ``scores()`` reports."""
        name = self.seat_names[mover]
        events: list[ScoreEvent] = []
        was_far, now_far = self._on_far_row(step.frm, mover), self._on_far_row(step.to, mover)
        if now_far and not was_far:
            events.append(ScoreEvent(mover, 1, f"{name} reached the far row at {step.to}"))
        elif was_far and not now_far:
            events.append(ScoreEvent(mover, -1, f"{name} left the far row from {step.frm}"))
        enemy = 1 - mover
        for cell in step.captures:
            if self._on_far_row(cell, enemy):
                events.append(
                    ScoreEvent(enemy, -1, f"{self.seat_names[enemy]} lost {cell} on the far row")
                )
        return events

    def _settle(self, mover: PlayerId | None) -> None:
        """Decide whether the position after an action (or set up) ends the game."""
        self._steps_now = None
        self._layout_now = None
        contenders = (mover,) if mover is not None else (1 - self._to_move, self._to_move)
        for player in contenders:
            if self._far_count(player) >= WINNING_COUNT:
                self._outcome = Outcome(
                    winners=(player,),
                    reason=f"{self.seat_names[player]} has four pieces on the far row",
                )
                return
        if all(n < WINNING_COUNT for n in self.pieces_left()):
            self._outcome = Outcome((), "both sides have fewer than four pieces", draw=True)
            return
        key = self.position_key()
        self._seen[key] += 1
        if self._seen[key] >= self.repetitions:
            self._outcome = Outcome(
                (), f"the same position came up {self.repetitions} times", draw=True
            )
            return
        stuck = not any(True for _ in self._steps(self._to_move))
        if stuck and not any(True for _ in self._steps(1 - self._to_move)):
            self._outcome = Outcome((), "neither side can move", draw=True)


# -- the computer player ----------------------------------------------------------------
class DoubleTakePlayer(Player):
    """Takes the most pieces it can, then reaches the far row, then advances furthest.

    Ties are broken by the ``random.Random`` it is given, so a seed replays a game.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game) -> Action:
        if not isinstance(game, DoubleTake):
            raise TypeError(f"DoubleTakePlayer plays Double Take, not {game.title}")
        actions = game.legal_actions()
        if not actions:
            raise GameError("the game is over; there is nothing to choose")
        steps = [a for a in actions if isinstance(a, Step)]
        if not steps:
            return actions[0]
        me = game.to_move
        far = set(game.far_row(me))
        ahead = 1 if me == RED else -1

        def merit(step: Step) -> tuple[int, bool, int]:
            arrives = step.to in far and step.frm not in far
            progress = (_rank(step.to) - _rank(step.frm)) * ahead
            return (len(step.captures), arrives, progress)

        best = max(merit(s) for s in steps)
        return self.rng.choice([s for s in steps if merit(s) == best])


GAME = DoubleTake
"""The game's class, as ``games.registry`` finds it."""
