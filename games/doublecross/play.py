"""DoubleCross's position and how each action changes it (docs/rules.md).

``State`` is everything that changes during a game; ``Rules`` judges an action on a
state (``problem``: the reason it is not allowed, or None) and carries it out
(``apply``: the ``Tally`` of what happened). The game (``games.doublecross.game``) holds
one state; the computer player tries actions on copies.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from games.core import Action, Outcome, Pass, Resign
from games.doublecross.actions import EndGame, EndTurn, NewLetters, PlaceTile, PlayBomb, Undo
from games.doublecross.board import (
    ACROSS,
    BLOCK,
    BONUS,
    BONUS_RISE,
    COLOURED_POINTS,
    DEFUSED_POINTS,
    DIRECTIONAL,
    DOWN,
    LETTERS,
    MYSTERY,
    NSEW,
    PICKUP_POINTS,
    RACK_PENALTY,
    RACK_SIZE,
    TRAY_SIZE,
    UNSTABLE_PENALTY,
    Board,
    bomb_seat,
    cell_index,
    cell_name,
    line_of,
)
from games.doublecross.judge import Judge, Word
from games.doublecross.score import Tally, forget_destroyed, pay_settling

BOMB_AXES = {"ns": (DOWN,), "ew": (ACROSS,), NSEW: (ACROSS, DOWN)}
MYSTERY_CHOICES = ("bonus", "directional", "coloured", "nothing")


@dataclass
class State:
    """A DoubleCross position, with what the turn in progress has done."""

    board: Board
    specials: dict[int, str]
    bonus: int
    racks: list[list[str]]
    trays: list[list[str]]
    bag: list[str]
    scores: list[int]
    paid: set[Word]
    turn: int
    placed: list[int] = field(default_factory=list)
    """Cells of the tiles placed this turn that are still there."""
    laid: int = 0
    """Tiles placed this turn, those destroyed since included: a turn with one is no pass."""
    bombs: int = 0
    """Directional bombs played this turn."""
    dirty: bool = False
    """The turn has completed, destroyed or triggered something: no undo."""
    passes: int = 0
    may_end: int | None = None
    """The seat that made the last of a full round of passes and may end the game."""
    outcome: Outcome | None = None
    undo: list[State] = field(default_factory=list)

    def copy(self) -> State:
        return replace(
            self,
            board=self.board.copy(),
            specials=dict(self.specials),
            racks=[list(r) for r in self.racks],
            trays=[list(t) for t in self.trays],
            bag=list(self.bag),
            scores=list(self.scores),
            paid=set(self.paid),
            placed=list(self.placed),
            undo=list(self.undo),
        )

    @property
    def players(self) -> int:
        return len(self.scores)


class Rules:
    """The rules of one game: its judge (lexicon and minimum word) and seat names."""

    def __init__(self, judge: Judge, seat_names: list[str]) -> None:
        self.judge = judge
        self.names = seat_names

    # -- judging ----------------------------------------------------------------------
    def problem(self, s: State, action: Action) -> str | None:
        """Why ``action`` may not be played now, or None if it may."""
        if s.outcome is not None:
            return "the game is over"
        if isinstance(action, PlaceTile):
            return self._place_problem(s, action)
        if isinstance(action, PlayBomb):
            return self._bomb_problem(s, action)
        if isinstance(action, EndTurn):
            return None
        if isinstance(action, Pass):
            if s.laid or s.bombs:
                return "this turn has tiles or a bomb played: end the turn instead of passing"
            return None
        if isinstance(action, NewLetters):
            if s.placed:
                return "new letters only before placing a tile this turn; undo the tiles first"
            if s.laid:
                return (
                    "new letters only before placing a tile this turn, and this turn's tile "
                    "was destroyed: end the turn instead"
                )
            if not s.bag:
                return "the bag is empty: there are no new letters to draw"
            return None
        if isinstance(action, EndGame):
            return self._end_problem(s, action)
        if isinstance(action, Undo):
            return self._undo_problem(s)
        if isinstance(action, Resign):
            if isinstance(action.player, bool) or action.player not in range(s.players):
                return f"there is no seat {action.player!r} in this game"
            return None
        return f"DoubleCross has no {action.type!r} action"

    def _place_problem(self, s: State, action: PlaceTile) -> str | None:
        i = cell_index(action.cell)
        if i is None:
            return f"{action.cell!r} is not a cell of the board (A1 to O15)"
        letter = action.letter.upper() if isinstance(action.letter, str) else ""
        if letter not in LETTERS:
            return f"{action.letter!r} on {action.cell} is not a letter; use A to Z"
        if s.board.letters[i]:
            return f"{cell_name(i)} is occupied"
        if s.specials.get(i) == BLOCK:
            return f"{cell_name(i)} is a blocking space: no tile may go there"
        if letter not in s.racks[s.turn]:
            rack = " ".join(s.racks[s.turn]) or "nothing"
            return f"{self.names[s.turn]} has no {letter} (the rack holds {rack})"
        board = s.board
        board.put(i, letter, s.turn)
        try:
            refused = self.judge.refused(board, i)
        finally:
            board.remove(i)
        if refused:
            return (
                f"refused: {letter} on {cell_name(i)} does not extend from a stable tile "
                "(no stable letter in its line up to the first gap); it goes back to the rack"
            )
        return None

    def _bomb_problem(self, s: State, action: PlayBomb) -> str | None:
        if action.kind not in DIRECTIONAL:
            return f"{action.kind!r} is not a directional bomb; use ns, ew or nsew"
        i = cell_index(action.cell)
        if i is None:
            return f"{action.cell!r} is not a cell of the board (A1 to O15)"
        if action.kind not in s.trays[s.turn]:
            tray = ", ".join(s.trays[s.turn]) or "no bombs"
            return f"{self.names[s.turn]} has no {action.kind} bomb (the tray holds {tray})"
        if s.specials.get(i) == BLOCK:
            return f"{cell_name(i)} is a blocking space: no bomb may go there"
        return None

    def _end_problem(self, s: State, action: EndGame) -> str | None:
        seat = action.player
        if seat is not None and (isinstance(seat, bool) or seat not in range(s.players)):
            return (
                f"there is no seat {seat!r} in this game: seats are numbered from 0 "
                f"({self.names[0]}) to {s.players - 1} ({self.names[-1]})"
            )
        if s.may_end is None:
            return (
                "the game ends this way only after a full round of passes "
                f"({s.players} in a row), by the last passer"
            )
        if seat is not None and seat != s.may_end:
            last = self.names[s.may_end]
            return (
                f"only {last} may end the game ({last} made the last of {s.players} passes "
                f"in a row), not {self.names[seat]}: play on, or let {last} end it"
            )
        return None

    def _undo_problem(self, s: State) -> str | None:
        if not s.placed:
            return "no tile of this turn to take back"
        if s.dirty or not s.undo:
            return (
                "undo is allowed only while this turn's tiles completed nothing, destroyed "
                "nothing and touched no special space"
            )
        return None

    # -- playing ----------------------------------------------------------------------
    def apply(self, s: State, action: Action, rng: random.Random) -> Tally:
        """Carry out an action ``problem`` allows; what happened, in order."""
        tally = Tally()
        if not isinstance(action, EndGame | Resign):
            s.may_end = None
        if isinstance(action, PlaceTile):
            self._place(s, action, rng, tally)
        elif isinstance(action, PlayBomb):
            self._bomb(s, action, tally)
        elif isinstance(action, Undo):
            previous = s.undo[-1]
            tally.note("undo", f"{cell_name(s.placed[-1])} taken back", (cell_name(s.placed[-1]),))
            tally.removed.append(cell_name(s.placed[-1]))
            for name in ("board", "racks", "placed", "laid", "undo"):
                setattr(s, name, getattr(previous, name))
        elif isinstance(action, NewLetters):
            rack = s.racks[s.turn]
            s.bag.extend(rack)
            rack.clear()
            tally.note("new-letters", f"{self.names[s.turn]} takes new letters")
            self._end_turn(s, tally, passed=True)
        elif isinstance(action, EndTurn | Pass):
            self._end_turn(s, tally, passed=not s.laid and not s.bombs)
        elif isinstance(action, EndGame):
            self.finish(s, tally, "the last passer ended the game")
        elif isinstance(action, Resign):
            others = [p for p in range(s.players) if p != action.player]
            top = max(s.scores[p] for p in others)
            winners = tuple(p for p in others if s.scores[p] == top)
            s.outcome = Outcome(winners, f"{self.names[action.player]} resigned")
        for e in tally.events:
            s.scores[e.player] += e.points
        return tally

    def _place(self, s: State, action: PlaceTile, rng: random.Random, tally: Tally) -> None:
        i = cell_index(action.cell)
        assert i is not None
        letter, seat, board = action.letter.upper(), s.turn, s.board
        name = cell_name(i)
        snapshot = None if s.dirty else s.copy()
        s.laid += 1
        s.racks[seat].remove(letter)
        board.put(i, letter, seat)
        runs = " and ".join(board.text(run) for _, run in self.judge.runs(board, i))
        if not self.judge.has_partial_run(board, i):
            board.remove(i)
            tally.destroyed(i, letter, seat, f"{runs} is not part of a word")
            s.dirty = True
            s.placed.append(i)
            self._end_turn(s, tally, passed=False)
            return
        tally.note("placed", f"{letter} on {name} judged {runs}", (name,), runs=runs)
        s.placed.append(i)
        if snapshot is not None:
            s.undo.append(snapshot)
        kind = s.specials.pop(i, None)
        if kind is not None:
            s.dirty = True
            self._special(s, kind, name, rng, tally)
        settled = self.judge.settle(board)
        pay_settling(self.judge, board, s.paid, seat, settled, tally, "no longer in a word")
        if settled.destroyed or tally.completed:
            s.dirty = True
        s.placed = [c for c in s.placed if board.letters[c]]

    def _special(self, s: State, kind: str, name: str, rng: random.Random, tally: Tally) -> None:
        seat = s.turn
        if kind == BONUS:
            tally.score(
                "bonus", seat, s.bonus, f"bonus space {name}: +{s.bonus}", (name,), value=s.bonus
            )
            s.bonus += BONUS_RISE
        elif kind in DIRECTIONAL:
            self._pick_up(s, kind, name, tally)
        elif kind == MYSTERY:
            choice = MYSTERY_CHOICES[rng.randrange(len(MYSTERY_CHOICES))]
            if choice == "bonus":
                tally.score(
                    "bonus", seat, s.bonus, f"mystery {name}: the bonus value, +{s.bonus}",
                    (name,), value=s.bonus,
                )  # fmt: skip
            elif choice == "directional":
                self._pick_up(s, rng.choice(DIRECTIONAL), f"mystery {name}", tally)
            elif choice == "coloured":
                others = [p for p in range(s.players) if p != seat]
                self._coloured(s, rng.choice(others), f"mystery {name}", tally)
            else:
                tally.note("mystery", f"mystery {name}: nothing happens", (name,))
        else:
            owner = bomb_seat(kind)
            assert owner is not None
            if owner == seat:
                tally.score(
                    "coloured-bomb", seat, DEFUSED_POINTS,
                    f"own coloured bomb on {name} defused: +{DEFUSED_POINTS}", (name,),
                    defused=True, bomb=owner,
                )  # fmt: skip
            else:
                self._coloured(s, owner, name, tally)

    def _pick_up(self, s: State, kind: str, where: str, tally: Tally) -> None:
        tray = s.trays[s.turn]
        kept = len(tray) < TRAY_SIZE
        if kept:
            tray.append(kind)
        text = f"{kind} bomb picked up at {where}" + ("" if kept else " (the tray is full)")
        tally.score("pickup", s.turn, PICKUP_POINTS[kind], text, bomb=kind, kept=kept)

    def _coloured(self, s: State, owner: int, where: str, tally: Tally) -> None:
        board = s.board
        gone = [i for i in board.unstable() if board.owners[i] == owner]
        for i in gone:
            tally.destroyed(i, board.letters[i], owner, f"{self.names[owner]}'s coloured bomb")
            board.remove(i)
        forget_destroyed(s.paid, set(gone))
        tally.score(
            "coloured-bomb", s.turn, COLOURED_POINTS,
            f"{self.names[owner]}'s coloured bomb set off at {where}: +{COLOURED_POINTS}",
            defused=False, bomb=owner,
        )  # fmt: skip

    def _bomb(self, s: State, action: PlayBomb, tally: Tally) -> None:
        i = cell_index(action.cell)
        assert i is not None
        board = s.board
        s.trays[s.turn].remove(action.kind)
        s.bombs += 1
        s.dirty = True
        fire = sorted({j for axis in BOMB_AXES[action.kind] for j in line_of(i, axis)})
        gone = [j for j in fire if board.letters[j] and not board.stable[j]]
        tally.note(
            "bomb", f"{action.kind} bomb on {cell_name(i)}", (cell_name(i),), bomb=action.kind
        )
        for j in gone:
            tally.destroyed(j, board.letters[j], board.owners[j], f"{action.kind} bomb")
            board.remove(j)
        forget_destroyed(s.paid, set(gone))
        settled = self.judge.settle(board)
        pay_settling(self.judge, board, s.paid, s.turn, settled, tally, "no longer in a word")
        s.placed = [c for c in s.placed if board.letters[c]]

    # -- turns and the end ------------------------------------------------------------
    def _end_turn(self, s: State, tally: Tally, *, passed: bool) -> None:
        seat = s.turn
        if passed:
            s.passes += 1
            tally.note("pass", f"{self.names[seat]} passes ({s.passes} in a row)")
            if s.passes >= s.players:
                s.may_end = seat
        else:
            s.passes = 0
        rack = s.racks[seat]
        while len(rack) < RACK_SIZE and s.bag:
            rack.append(s.bag.pop(0))
        s.turn = (seat + 1) % s.players
        s.placed, s.laid, s.bombs, s.dirty, s.undo = [], 0, 0, False, []
        if not s.bag and not s.racks[s.turn]:
            self.finish(s, tally, f"the bag is empty and {self.names[s.turn]} has no tiles")

    def finish(self, s: State, tally: Tally, reason: str) -> None:
        """End the game: take the end penalties and name the winners."""
        board = s.board
        for seat in range(s.players):
            left = len(s.racks[seat])
            if left:
                tally.score(
                    "rack-penalty", seat, RACK_PENALTY * left,
                    f"{left} tiles left on {self.names[seat]}'s rack", count=left,
                )  # fmt: skip
            loose = sum(1 for i in board.unstable() if board.owners[i] == seat)
            if loose:
                tally.score(
                    "unstable-penalty", seat, UNSTABLE_PENALTY * loose,
                    f"{loose} unstable tiles of {self.names[seat]} on the board", count=loose,
                )  # fmt: skip
        final = list(s.scores)
        for e in tally.events:
            final[e.player] += e.points
        top = max(final)
        winners = tuple(p for p in range(s.players) if final[p] == top)
        s.outcome = Outcome(winners, reason, draw=len(winners) == s.players)
        tally.note("end", reason)
