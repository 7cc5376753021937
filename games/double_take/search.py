"""Double Take's game-tree search: alpha-beta over the steps the rules allow, with an
evaluation of material, pieces home, advancement and threatened sandwiches.

The search keeps its own board (cell → seat) and steps it as the rules do
(``games.double_take.game``: a step along the mover's lines, taking every enemy
piece it sandwiches; a far-row piece moves only to take; four home wins; a side that
cannot move passes). It is bounded by a count of positions visited, not by the
clock, so the same position always gets the same move: iterative deepening keeps
the best move of the deepest search that finished within the count.
"""

from __future__ import annotations

from collections.abc import Iterator

from games.core import Cell, PlayerId
from games.double_take.game import PIECES_EACH, WINNING_COUNT, _Geometry

WIN = 1_000_000
PIECE = 100
HOME = 120
"""A piece on its far row, beyond its material: it counts towards the four."""
ADVANCE = 3
"""Times the square of the ranks a piece has come forward."""
THREAT = 35
"""Each enemy piece the side to move could take at once."""

Move = tuple[Cell, Cell, tuple[Cell, ...]]
"""(from, to, the cells it takes)."""


class OutOfNodes(Exception):
    """The count of positions ran out during a search."""


class Search:
    """A search of one position of Double Take for the seat ``me`` to move."""

    def __init__(self, geo: _Geometry, board: dict[Cell, PlayerId], me: PlayerId) -> None:
        self.geo = geo
        self.board = dict(board)
        self.me = me
        self.nodes = 0
        self.limit = 0
        self.progress = {
            seat: {
                cell: (geo.rank[cell] - 1 if seat == 0 else geo.rows - geo.rank[cell])
                for cell in geo.cells
            }
            for seat in (0, 1)
        }

    # -- the rules, on the search's own board --------------------------------------
    def taken(self, mover: PlayerId, frm: Cell, to: Cell) -> tuple[Cell, ...]:
        board = self.board
        enemy = 1 - mover
        return tuple(
            sorted(
                adjacent
                for adjacent, beyond in self.geo.flanks[to]
                if board.get(adjacent) == enemy and beyond != frm and board.get(beyond) == mover
            )
        )

    def moves(self, player: PlayerId) -> Iterator[Move]:
        board = self.board
        geo = self.geo
        ahead = geo.forward(player)
        for frm, owner in list(board.items()):
            if owner != player:
                continue
            for link in geo.links[frm]:
                if link.to in board or (link.over is not None and link.over in board):
                    continue
                taken = self.taken(player, frm, link.to)
                if taken:
                    yield (frm, link.to, taken)
                if link.rank_step * ahead > 0:
                    yield (frm, link.to, ())

    def home(self, player: PlayerId) -> int:
        far = self.geo.far[player]
        return sum(1 for cell, owner in self.board.items() if owner == player and cell in far)

    def ordered(self, player: PlayerId, first: Move | None = None) -> list[Move]:
        """Moves most likely best first: takes, then arrivals home, then advances."""
        far = self.geo.far[player]
        progress = self.progress[player]

        def key(move: Move) -> tuple[bool, int, bool, int]:
            frm, to, taken = move
            return (move == first, len(taken), to in far, progress[to] - progress[frm])

        return sorted(self.moves(player), key=key, reverse=True)

    def play(self, move: Move, player: PlayerId) -> None:
        frm, to, taken = move
        board = self.board
        del board[frm]
        board[to] = player
        for cell in taken:
            del board[cell]

    def undo(self, move: Move, player: PlayerId) -> None:
        frm, to, taken = move
        board = self.board
        del board[to]
        board[frm] = player
        for cell in taken:
            board[cell] = 1 - player

    # -- the evaluation ------------------------------------------------------------
    def evaluate(self, player: PlayerId) -> int:
        """The position's worth to ``player``, who is to move."""
        total = 0
        far = self.geo.far
        for cell, owner in self.board.items():
            step = self.progress[owner][cell]
            worth = PIECE + ADVANCE * step * step + (HOME if cell in far[owner] else 0)
            total += worth if owner == player else -worth
        best = 0
        for _, _, taken in self.moves(player):
            best = max(best, len(taken))
        return total + THREAT * best

    # -- the search ----------------------------------------------------------------
    def negamax(self, player: PlayerId, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfNodes
        if depth <= 0:
            return self.evaluate(player)
        moves = self.ordered(player)
        if not moves:
            if not any(True for _ in self.moves(1 - player)):
                return 0  # neither side can move: a draw
            return -self.negamax(1 - player, depth - 1, -beta, -alpha, ply + 1)
        best = -WIN - 1
        for move in moves:
            self.play(move, player)
            try:
                score = self.outcome_for(player, ply)
                if score is None:
                    score = -self.negamax(1 - player, depth - 1, -beta, -alpha, ply + 1)
            finally:
                self.undo(move, player)
            best = max(best, score)
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best

    def outcome_for(self, mover: PlayerId, ply: int) -> int | None:
        """What the position just reached is worth to ``mover`` if the game ended there."""
        if self.home(mover) >= WINNING_COUNT:
            return WIN - ply  # sooner wins are better
        counts = [0, 0]
        for owner in self.board.values():
            counts[owner] += 1
        if counts[0] < WINNING_COUNT and counts[1] < WINNING_COUNT:
            return 0
        return None

    def best(self, depth: int, limit: int) -> tuple[Move | None, int, int]:
        """The best move by iterative deepening to ``depth`` within ``limit`` positions;
        with its score and the depth that finished."""
        self.nodes = 0
        self.limit = limit
        me = self.me
        chosen: Move | None = None
        chosen_score = 0
        done = 0
        for d in range(1, depth + 1):
            try:
                best_move: Move | None = None
                alpha = -WIN - 1
                for move in self.ordered(me, chosen):
                    self.play(move, me)
                    try:
                        score = self.outcome_for(me, 0)
                        if score is None:
                            score = -self.negamax(1 - me, d - 1, -WIN - 1, -alpha, 1)
                    finally:
                        self.undo(move, me)
                    if best_move is None or score > alpha:
                        best_move, alpha = move, score
            except OutOfNodes:
                break
            chosen, chosen_score, done = best_move, alpha, d
            if chosen_score >= WIN - PIECES_EACH * 4:
                break  # a forced win found: no need to look deeper
        if chosen is None:
            moves = self.ordered(me)
            chosen = moves[0] if moves else None
        return chosen, chosen_score, done
