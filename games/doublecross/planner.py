"""DoubleCross's planner for the computer player: long words, few opponents' tiles, paying
specials, aimed bombs.

The ``Planner`` looks at a position and proposes *plans* (a few actions played in a
row): words built outward along a line from a group of letters that holds a stable
one, single tiles on special spaces, and directional bombs. Each proposal found by
the word search is tried on a copy of the position with the real rules, and valued
as the points it brings this seat, less half of what it brings the others, less the
risk of the unstable tiles it leaves. Near the end (30 tiles or fewer in the bag) a
tile kept on the rack costs more than one left unstable on the board, so partial
words found on the way are tried too. The player plays the best plan one action at a
time and ends the turn when nothing pays. Choosing for the seat to move, it never
ends the game: after a round of passes that is the last passer's choice, which a
computer seat makes out of turn (``DoubleCrossPlayer.out_of_turn``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.core import Action
from games.doublecross.actions import EndTurn, NewLetters, PlaceTile, PlayBomb
from games.doublecross.board import (
    AXES,
    BLOCK,
    BONUS,
    CELLS,
    DIRECTIONAL,
    MYSTERY,
    RACK_SIZE,
    STEP,
    bomb_seat,
    cell_name,
    line_of,
)
from games.doublecross.judge import Judge
from games.doublecross.play import BOMB_AXES, Rules, State

SIMULATED = 10
"""Word plays tried on a copy of the position, of those the search finds."""
OTHERS_WEIGHT = 0.5
LOOSE_TILE_COST = 2.0
"""What an unstable tile of ours left at the end of a plan is feared to cost."""
ENDGAME_BAG = 30
"""With this many tiles or fewer in the bag the game may end soon: a tile left on the
rack then costs 4 and one unstable on the board 1, so partial words are worth laying."""
ENDGAME_LOOSE_TILE_COST = -1.0
PARTIALS = 4
"""Partial-word plays tried on a copy of the position near the end."""
MAX_WORDS = 400


@dataclass
class Plan:
    actions: list[Action]
    value: float


class Planner:
    """Proposes and values plans for the seat to move in one position."""

    simulated = SIMULATED
    """How many of the best-scoring word plays are played out and valued."""

    def __init__(self, rules: Rules, state: State, judge: Judge) -> None:
        self.rules = rules
        self.state = state
        self.seat = state.turn
        self.judge = judge
        self.endgame = len(state.bag) <= ENDGAME_BAG
        self.loose_cost = ENDGAME_LOOSE_TILE_COST if self.endgame else LOOSE_TILE_COST
        self.partials: dict[tuple[tuple[int, str], ...], float] = {}
        """Plays that leave a partial word, found on the way to complete ones."""

    # -- proposals --------------------------------------------------------------------
    def word_plays(self) -> list[tuple[float, list[tuple[int, str]]]]:
        """Tiles that, laid in order outward along a line, make the whole run a word;
        with a rough worth (length, less opponents' unstable letters in it)."""
        s = self.state
        board = s.board
        rack = s.racks[self.seat]
        if not rack:
            return []
        found: dict[tuple[tuple[int, str], ...], float] = {}
        seen_groups: set[tuple[int, int, int]] = set()
        for i in range(CELLS):
            if not board.stable[i]:
                continue
            for axis in AXES:
                line = self.judge.line(board, i, axis)
                key = (axis, line[0], line[-1])
                if key in seen_groups:
                    continue
                seen_groups.add(key)
                self._grow(axis, line, list(rack), [], found, right=True)
                if len(found) >= MAX_WORDS:
                    break
        return sorted(((v, list(p)) for p, v in found.items()), key=lambda x: -x[0])

    def _free(self, j: int) -> bool:
        return j >= 0 and not self.state.board.letters[j] and self.state.specials.get(j) != BLOCK

    def _cross_ok(self, j: int, axis: int, letter: str) -> bool:
        """A tile on ``j`` must make a complete word (or none) across the other axis."""
        board = self.state.board
        other = 1 - axis
        back, ahead = STEP[other]
        lo, hi = j, j
        while back[lo] >= 0 and board.letters[back[lo]]:
            lo = back[lo]
        while ahead[hi] >= 0 and board.letters[ahead[hi]]:
            hi = ahead[hi]
        if lo == hi:
            return True
        text = []
        k = lo
        while True:
            text.append(letter if k == j else board.letters[k])
            if k == hi:
                break
            k = ahead[k]
        return self.judge.is_complete("".join(text))

    def _grow(
        self,
        axis: int,
        line: tuple[int, ...],
        rack: list[str],
        placed: list[tuple[int, str]],
        found: dict[tuple[tuple[int, str], ...], float],
        *,
        right: bool,
    ) -> None:
        """Extend ``line`` (a run of letters) by rack letters, first to the right, then
        to the left, keeping it a partial word; record each complete one."""
        if len(found) >= MAX_WORDS:
            return
        board = self.state.board
        back, ahead = STEP[axis]
        directions = (True, False) if right else (False,)
        for go_right in directions:
            j = ahead[line[-1]] if go_right else back[line[0]]
            if not self._free(j):
                continue
            # The run the new tile joins: the letters beyond it come too.
            beyond: list[int] = []
            k = ahead[j] if go_right else back[j]
            while k >= 0 and board.letters[k]:
                beyond.append(k)
                k = ahead[k] if go_right else back[k]
            cells = (*line, j, *beyond) if go_right else (*reversed(beyond), j, *line)
            for letter in sorted(set(rack)):
                if not self._cross_ok(j, axis, letter):
                    continue
                known = dict(placed)
                known[j] = letter
                text = "".join(known.get(c) or board.letters[c] for c in cells)
                if not self.judge.is_partial(text):
                    continue
                now = [*placed, (j, letter)]
                if self.judge.is_complete(text):
                    opponents = sum(
                        1
                        for c in cells
                        if not board.stable[c] and board.owners[c] not in (None, self.seat)
                    )
                    found[tuple(now)] = len(text) * (1 + len(now)) - 2 * opponents
                elif self.endgame:
                    self.partials[tuple(now)] = len(now)
                rest = list(rack)
                rest.remove(letter)
                if rest:
                    self._grow(axis, cells, rest, now, found, right=go_right)

    # -- valuing ----------------------------------------------------------------------
    def value(self, actions: list[Action]) -> float | None:
        """What playing ``actions`` in a row is worth to this seat; None if one is refused."""
        s = self.state.copy()
        rng = random.Random(0)
        gained = [0] * s.players
        for action in actions:
            if self.rules.problem(s, action) is not None:
                return None
            before = list(s.scores)
            self.rules.apply(s, action, rng)
            for p in range(s.players):
                gained[p] += s.scores[p] - before[p]
            if s.turn != self.seat:
                break
        board = s.board
        loose = sum(1 for i in board.unstable() if board.owners[i] == self.seat)
        loose_before = sum(
            1 for i in self.state.board.unstable() if self.state.board.owners[i] == self.seat
        )
        others = sum(g for p, g in enumerate(gained) if p != self.seat)
        value = gained[self.seat] - OTHERS_WEIGHT * others
        return value - self.loose_cost * (loose - loose_before)

    def special_tiles(self) -> list[list[Action]]:
        """Single tiles on special spaces that pay (bonus, mystery, bombs)."""
        s = self.state
        out: list[list[Action]] = []
        for i, kind in s.specials.items():
            if kind == BLOCK:
                continue
            owner = bomb_seat(kind)
            if owner is not None and owner != self.seat:
                # Worth it only if it hurts that player more than us.
                theirs = sum(1 for j in s.board.unstable() if s.board.owners[j] == owner)
                if theirs == 0:
                    continue
            elif kind not in (BONUS, MYSTERY, *DIRECTIONAL) and owner != self.seat:
                continue
            for letter in sorted(set(s.racks[self.seat])):
                out.append([PlaceTile(cell_name(i), letter)])
        return out

    def bombs(self) -> list[list[Action]]:
        """The best cell for each bomb in the tray: most opponents' unstable tiles hit."""
        s = self.state
        board = s.board
        out: list[list[Action]] = []
        for kind in sorted(set(s.trays[self.seat])):
            best, best_cell = 0, -1
            for i in range(CELLS):
                if s.specials.get(i) == BLOCK:
                    continue
                hit = {j for axis in BOMB_AXES[kind] for j in line_of(i, axis)}
                score = sum(
                    (-1 if board.owners[j] == self.seat else 1)
                    for j in hit
                    if board.letters[j] and not board.stable[j]
                )
                if score > best:
                    best, best_cell = score, i
            if best_cell >= 0:
                out.append([PlayBomb(kind, cell_name(best_cell))])
        return out

    def plans(self) -> list[Plan]:
        candidates: list[list[Action]] = [
            [PlaceTile(cell_name(j), letter) for j, letter in tiles]
            for _, tiles in self.word_plays()[: self.simulated]
        ]
        longest = sorted(self.partials.items(), key=lambda kv: -kv[1])[:PARTIALS]
        candidates += [[PlaceTile(cell_name(j), letter) for j, letter in p] for p, _ in longest]
        candidates += self.special_tiles()
        candidates += self.bombs()
        out = []
        for actions in candidates:
            value = self.value(actions)
            if value is not None:
                out.append(Plan(actions, value))
        out.sort(key=lambda p: -p.value)
        return out

    def shortlist(self, limit: int) -> list[Action]:
        """The first actions of the best plans, best first, then the turn's end."""
        out: list[Action] = []
        for plan in self.plans():
            if plan.value > 0 and plan.actions[0] not in out:
                out.append(plan.actions[0])
        out.append(self.fallback())
        return out[:limit]

    def fallback(self) -> Action:
        """What to do when nothing pays: new letters for a rack that found nothing,
        else end the turn.

        It never ends the game: only the last of a full round of passes may, and the
        planner plays the seat to move, which that round has already passed by. Ending
        the game is the last passer's own choice, out of turn (the station's turn menu
        offers it; a computer seat makes it in ``DoubleCrossPlayer.out_of_turn``).
        """
        s = self.state
        rack = s.racks[self.seat]
        if not s.laid and not s.bombs and len(s.bag) >= RACK_SIZE and len(rack) == RACK_SIZE:
            return NewLetters()
        return EndTurn()


__all__ = ["Plan", "Planner"]
