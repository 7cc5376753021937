"""What the OLED shows of a Double Take game."""

from __future__ import annotations

from typing import Any

from games.core import Action, Pass
from games.double_take import DoubleTake, Step

from ..facts import Facts
from ..recognition import Kind
from ..screens import Screen
from ..view import Controls, View
from .double_take_turn import DoubleTakeTurn, cells_text


class DoubleTakeView(View[DoubleTake]):
    def __init__(
        self, game: DoubleTake, facts: Facts, controls: Controls, turn: DoubleTakeTurn
    ) -> None:
        super().__init__(game, facts, controls)
        self.turn = turn

    def grid(self) -> tuple[tuple[str | None, ...], ...]:
        files = "abcdefgh"
        ranks = range(self.game.rows, 0, -1)
        return tuple(tuple(f"{f}{r}" for f in files) for r in ranks)

    def describe(self, action: Action) -> str:
        if isinstance(action, Step):
            text = f"{action.frm}-{action.to}"
            if action.captures:
                text += " x" + ",".join(action.captures)
            return text
        if isinstance(action, Pass):
            return "pass"
        return super().describe(action)

    def header(self) -> tuple[str, str]:
        left = self.game.pieces_left()
        status = f"R{left[0]} G{left[1]}"
        if self.game.outcome is not None:
            return ("Game over", status)
        return (f"{self.game.seat_name(self.game.to_move).capitalize()} to move", status)

    def screen(self) -> Screen:
        title, status = self.header()
        turn = self.turn
        if self.game.outcome is not None:
            result = self.result_screen()
            return Screen(title, status, result.lines, result.board)
        if self.controls.menu is not None:
            return self.menu_screen()
        if turn.rejection:
            fixes = self.controls.board_fixes()
            if fixes:
                shown = self.fix_screen(title, fixes, "No: " + turn.rejection)
                return Screen(title, status, shown.lines, shown.board, invert_body=False)
        rec = turn.recognition
        lines: list[str] = []
        focus = None
        if rec is not None and rec.kind is Kind.COMPLETE and rec.progress:
            fp = rec.progress[0]
            missing = sorted(fp.lifts - rec.removed)
            lines = [f"Lift {cells_text(missing)} to capture,", "or press ok."]
            focus = missing[0]
        elif rec is not None and rec.kind is Kind.PROGRESS:
            missing = turn.captured_to_lift()
            if missing:
                lines = [f"Lift {cells_text(missing)} (captured)."]
                focus = missing[0]
            else:
                lines = ["Put the piece down."]
        else:
            if turn.passed:
                lines.append(turn.passed)
            last = self.facts.last
            if last:
                lines.append(f"Last: {last.text}")
            lines.append("Move a piece.")
        return Screen(title, status, tuple(lines), self.board_map(focus))

    def extra_state(self) -> dict[str, Any]:
        return {"pieces_left": dict(zip(("red", "green"), self.game.pieces_left(), strict=True))}
