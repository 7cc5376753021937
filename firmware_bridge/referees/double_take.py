"""Double Take on an occupancy board: one piece moves, captured pieces are lifted.

A move commits when the board settles on a legal successor. A capture is
complete only once the sandwiched pieces are off the board; when a move is also
legal without capturing, the player lifts them or presses ok to decline. A move
that is legal only as a capture but leaves them standing is rejected on ok.
"""

from __future__ import annotations

from typing import Any

from games.core import Action, Pass, Resign, Verdict
from games.double_take import DoubleTake, Step

from ..events import ButtonEvent
from ..fixes import Fix
from ..recognition import Footprint, Kind, Recognition, recognise
from ..referee import Referee
from ..screens import Screen


def _cells(cells: tuple[str, ...] | list[str]) -> str:
    items = sorted(cells)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class DoubleTakeReferee(Referee):
    game: DoubleTake

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        self.vacated: set[str] = set()
        self.recognition: Recognition | None = None
        self.rejection = ""
        self.passed = ""

    # -- geometry -----------------------------------------------------------------
    def grid(self) -> tuple[tuple[str | None, ...], ...]:
        files = "abcdefgh"
        ranks = range(self.game.rows, 0, -1)
        return tuple(tuple(f"{f}{r}" for f in files) for r in ranks)

    # -- recognition --------------------------------------------------------------
    def footprints(self) -> list[Footprint]:
        out = []
        for action in self.game.legal_actions():
            if isinstance(action, Step):
                out.append(
                    Footprint(
                        action,
                        frozenset((action.frm, *action.captures)),
                        frozenset((action.to,)),
                    )
                )
        return out

    def on_board(self) -> None:
        if self.game.outcome is not None or self.session.restoring:
            return
        # A resumed game may stop where a stuck player's pass was not yet journaled;
        # the session cannot commit while its referee is being built, so it waits for
        # the board.
        self._auto_pass()
        layout = set(self.game.layout())
        board = set(self.session.observation)
        self.vacated |= layout - board
        rec = recognise(layout, board, self.footprints(), self.vacated)
        self.recognition = rec
        self.rejection = ""
        if rec.kind is Kind.COMPLETE and not rec.ambiguous:
            self._commit(rec.complete[0].action)
        elif rec.kind is Kind.COMPLETE and len(rec.complete) > 1:
            options = [(self.describe(fp.action), fp.action) for fp in rec.complete]
            self.open_menu("choose", "Which move?", options)
        elif rec.kind is Kind.ILLEGAL:
            self._reject(self._why(rec))

    def _why(self, rec: Recognition) -> str:
        game = self.game
        layout = game.layout()
        me = game.to_move
        mine = [c for c in rec.removed if layout[c].owner == me]
        theirs = [c for c in rec.removed if layout[c].owner != me]
        if len(rec.added) > 1 or len(mine) > 1:
            return "move one piece at a time"
        if len(mine) == 1 and len(rec.added) == 1:
            frm, to = mine[0], next(iter(rec.added))
            reason = game.explain(frm, to)
            if reason and not theirs:
                return reason
            taken = game.sandwiched(frm, to)
            wrong = sorted(set(theirs) - set(taken))
            if wrong:
                return f"{frm}→{to} does not capture {_cells(wrong)}"
            return reason or f"{frm}→{to} is not a legal move"
        if theirs and not mine and not rec.added:
            return f"it is {game.seat_name(me)}'s turn: put {_cells(theirs)} back"
        if rec.added and not rec.removed:
            return f"a piece was added on {_cells(list(rec.added))}"
        if len(theirs) == 1 and len(rec.added) == 1 and not mine:
            return f"it is {game.seat_name(me)}'s turn"
        return "the board does not show a legal move"

    def _reject(self, reason: str) -> None:
        self.rejection = reason
        self.session.reject(Verdict.reject(reason))

    def _commit(self, action: Action) -> None:
        verdict = self.session.commit(action)
        if not verdict.accepted:
            self._reject(verdict.reason)
            return
        self.vacated.clear()
        self.recognition = None
        self.passed = ""
        self._auto_pass()

    def _auto_pass(self) -> None:
        game = self.game
        if game.outcome is None and game.legal_actions() == [Pass()]:
            name = game.seat_name(game.to_move)
            self.session.commit(Pass())
            self.passed = f"{name.capitalize()} cannot move and passes."

    # -- buttons ------------------------------------------------------------------
    def on_game_button(self, event: ButtonEvent) -> None:
        rec = self.recognition
        if event.name != "ok" or rec is None or self.game.outcome is not None:
            return
        if rec.kind is Kind.COMPLETE and len(rec.complete) == 1:
            self._commit(rec.complete[0].action)
        elif rec.kind is Kind.PROGRESS and rec.added:
            waiting = [fp for fp in rec.progress if fp.places == rec.added]
            if waiting:
                step = waiting[0].action
                assert isinstance(step, Step)
                missing = sorted(set(step.captures) - rec.removed)
                self._reject(
                    f"{step.frm}→{step.to} is legal only as a capture: "
                    f"lift {_cells(missing)}, or move back"
                )

    def on_menu_choice(self, action: str, choice: Any) -> None:
        if action == "choose":
            self._commit(choice)
        else:
            super().on_menu_choice(action, choice)

    # -- screens ------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        if isinstance(action, Step):
            text = f"{action.frm}-{action.to}"
            if action.captures:
                text += " x" + ",".join(action.captures)
            return text
        if isinstance(action, Resign):
            return f"{self.game.seat_name(action.player)} resigns"
        if isinstance(action, Pass):
            return "pass"
        return action.type

    def header(self) -> tuple[str, str]:
        left = self.game.pieces_left()
        status = f"R{left[0]} G{left[1]}"
        if self.game.outcome is not None:
            return ("Game over", status)
        return (f"{self.game.seat_name(self.game.to_move).capitalize()} to move", status)

    def _captured_to_lift(self) -> list[str]:
        """The sandwiched pieces still standing once a capture-only move is made."""
        rec = self.recognition
        if rec is None or rec.kind is not Kind.PROGRESS:
            return []
        placed = [fp for fp in rec.progress if fp.places == rec.added]
        return sorted(placed[0].lifts - rec.removed) if placed else []

    def pending_fixes(self) -> list[Fix]:
        if self.rejection:
            return self.session.fixes()
        # A capture is complete only when the taken pieces are off the board.
        return [Fix("lift", cell, None, "captured") for cell in self._captured_to_lift()]

    def screen(self) -> Screen:
        title, status = self.header()
        if self.game.outcome is not None:
            result = self.result_screen()
            return Screen(title, status, result.lines, result.board)
        if self.menu is not None:
            return self.menu_screen()
        if self.rejection:
            fixes = self.session.fixes()
            if fixes:
                shown = self.fix_screen(title, fixes, "No: " + self.rejection)
                return Screen(title, status, shown.lines, shown.board, invert_body=False)
        rec = self.recognition
        lines: list[str] = []
        focus = None
        if rec is not None and rec.kind is Kind.COMPLETE and rec.progress:
            fp = rec.progress[0]
            missing = sorted(fp.lifts - rec.removed)
            lines = [f"Lift {_cells(missing)} to capture,", "or press ok."]
            focus = missing[0]
        elif rec is not None and rec.kind is Kind.PROGRESS:
            missing = self._captured_to_lift()
            if missing:
                lines = [f"Lift {_cells(missing)} (captured)."]
                focus = missing[0]
            else:
                lines = ["Put the piece down."]
        else:
            if self.passed:
                lines.append(self.passed)
            last = self.session.last_move
            if last:
                lines.append(f"Last: {last['text']}")
            lines.append("Move a piece.")
        return Screen(title, status, tuple(lines), self.board_map(focus))

    def extra_state(self) -> dict[str, Any]:
        return {"pieces_left": dict(zip(("red", "green"), self.game.pieces_left(), strict=True))}

    # -- simulation -----------------------------------------------------------------
    def hand(self, action: Action) -> list[tuple[str, ...]]:
        if not isinstance(action, Step):
            return []
        colour = self.game.seat_name(self.game.to_move)
        steps: list[tuple[str, ...]] = [("lift", action.frm), ("place", action.to, colour)]
        steps += [("lift", cell) for cell in action.captures]
        if not action.captures and self.game.sandwiched(action.frm, action.to):
            steps.append(("press", "ok"))  # decline the capture
        return steps
