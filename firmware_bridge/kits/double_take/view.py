"""What the OLED shows of a Double Take game."""

from __future__ import annotations

from functools import cache
from typing import Any

from games.core import Action, Pass
from games.double_take.game import DoubleTake, Step

from ...referees.fixes import Fix, FixAction
from ...referees.recognition import Kind
from ...referees.view import View
from ...screen.screens import Screen
from .turn import DoubleTakeTurn


@cache
def _grid(rows: int) -> tuple[tuple[str | None, ...], ...]:
    """The points of a board of ``rows`` ranks, the far rank first."""
    return tuple(tuple(f"{f}{r}" for f in "abcdefgh") for r in range(rows, 0, -1))


class DoubleTakeView(View[DoubleTake]):
    turn: DoubleTakeTurn

    def grid(self) -> tuple[tuple[str | None, ...], ...]:
        return _grid(self.game.rows)

    def describe(self, action: Action) -> str:
        if isinstance(action, Step):
            text = f"{action.frm}-{action.to}"
            if action.captures:
                text += " x" + ",".join(action.captures)
            return text
        if isinstance(action, Pass):
            return "pass"
        return super().describe(action)

    def instruct(self, action: Action) -> str:
        if isinstance(action, Step):
            text = f"{action.frm} to {action.to}"
            if action.captures:
                text += ", lift " + " and ".join(action.captures)
            return text
        return super().instruct(action)

    def header(self) -> tuple[str, str]:
        if self.game.outcome is not None:
            return ("Game over", "")
        return (f"{self.game.seat_name(self.game.to_move).capitalize()} to move", "")

    def fix_text(self, fix: Fix) -> str:
        """A fix in few words, to leave the map and both scores room: ``Lift a4``."""
        if fix.action is FixAction.LIFT:
            return f"Lift {fix.cell}"
        owner = fix.piece.owner if fix.piece is not None else None
        who = "a piece" if owner is None else self.game.seat_name(owner)
        return f"Put {who} on {fix.cell}"

    def scores(self) -> tuple[str, ...]:
        """Each seat's score, its pieces on its far row (four win), the first labelled:
        ``Far row: Red 2``, ``Green 0``."""
        names = [self.game.seat_name(p).capitalize() for p in range(2)]
        parts = [f"{n} {k}" for n, k in zip(names, self.game.scores(), strict=True)]
        return (f"Far row: {parts[0]}", *parts[1:])

    def left_line(self) -> str:
        """The pieces each seat has left on the board."""
        left = self.game.pieces_left()
        names = (self.game.seat_name(p).capitalize() for p in range(len(left)))
        return "Left: " + ", ".join(f"{n} {k}" for n, k in zip(names, left, strict=True))

    def pass_line(self) -> str:
        """Who passed, said when a run of passes starts, not again at every turn of it."""
        history = self.game.history
        if not history or not isinstance(history[-1], Pass):
            return ""
        if len(history) >= 3 and isinstance(history[-3], Pass):
            return ""
        passer = self.game.seat_name(1 - self.game.to_move).capitalize()
        return f"{passer} cannot move: passes"

    def last_line(self) -> str:
        """The last move made on the board (a pass is said by ``pass_line``)."""
        for action in reversed(self.game.history):
            if isinstance(action, Step):
                return f"Last: {self.describe(action)}"
        return ""

    def screen(self) -> Screen:
        title, status = self.header()
        turn = self.turn
        scores = self.scores()
        if self.game.outcome is not None:
            result = self.result_screen()
            ended = (*result.lines, self.left_line())
            return Screen(title, status, ended, result.board, prompt=result.prompt, scores=scores)
        if self.facts.prompt.menu is not None:
            return self.menu_screen()
        if turn.rejection:
            fixes = self.facts.board_fixes
            if fixes:
                return self.fix_screen(title, fixes, "No: " + turn.rejection)
        rec = turn.recognition
        lines: list[str] = []
        focus: tuple[str, ...] = ()
        if rec is not None and rec.kind is Kind.COMPLETE and rec.progress:
            fp = rec.progress[0]
            missing = sorted(fp.lifts - rec.removed)
            prompt = f"Lift {' '.join(missing)} to capture, or ok: no capture"
            focus = tuple(missing)
        elif rec is not None and rec.kind is Kind.PROGRESS:
            missing = turn.captured_to_lift()
            if missing:
                prompt = f"Lift {' '.join(missing)}: captured"
                focus = tuple(missing)
            else:
                prompt = "Put the piece down."
        else:
            lines = [self.pass_line() or self.last_line(), self.left_line()]
            prompt = "Move a piece."
        board = self.board_map(focus or None)
        return Screen(title, status, tuple(lines), board, prompt=prompt, scores=scores)

    def extra_state(self) -> dict[str, Any]:
        return {"pieces_left": dict(zip(("red", "green"), self.game.pieces_left(), strict=True))}


VIEW = DoubleTakeView
"""The game's view, as its kit finds it."""
