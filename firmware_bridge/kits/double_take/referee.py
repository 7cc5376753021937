"""Double Take on an occupancy board: one piece moves, captured pieces are lifted.

A move commits when the board settles on a legal successor. A capture is
complete only once the sandwiched pieces are off the board; when a move is also
legal without capturing, the player lifts them or presses ok to decline. A move
that is legal only as a capture but leaves them standing is rejected on ok.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from games.core import Action, Pass, Verdict
from games.double_take.game import DoubleTake, Step

from ...referees.events import ButtonEvent
from ...referees.facts import Facts
from ...referees.fixes import Fix, FixAction
from ...referees.recognition import Footprint, Kind, Recognition, recognise
from ...referees.referee import Referee
from .turn import DoubleTakeTurn, cells_text, new_turn
from .view import DoubleTakeView


class Ask(StrEnum):
    CHOOSE = "choose"
    """Which of several moves the board shows."""


class DoubleTakeReferee(Referee[DoubleTake]):
    view: DoubleTakeView

    turn: DoubleTakeTurn
    new_turn = staticmethod(new_turn)

    def __init__(
        self, game: DoubleTake, facts: Facts, turn: DoubleTakeTurn, view: DoubleTakeView
    ) -> None:
        super().__init__(game, facts, turn, view)
        self._footprints: tuple[tuple[Step, ...], list[Footprint]] = ((), [])

    # -- recognition --------------------------------------------------------------
    def footprints(self) -> list[Footprint]:
        """The footprint of every legal step, built once per position (a memo of the
        game's legal steps, not a state)."""
        game = self.game
        steps = game.legal_steps() if game.outcome is None else ()
        if steps is not self._footprints[0]:
            prints = [
                Footprint(step, frozenset((step.frm, *step.captures)), frozenset((step.to,)))
                for step in steps
            ]
            self._footprints = (steps, prints)
        return list(self._footprints[1])

    def on_board(self) -> None:
        if self.game.outcome is not None or self.facts.restoring:
            return
        # A resumed game may stop where a stuck player's pass was not yet journaled.
        if self._auto_pass():
            return
        turn = self.turn
        layout = set(self.game.layout())
        board = set(self.facts.observation)
        turn.vacated |= layout - board
        rec = recognise(layout, board, self.footprints(), turn.vacated)
        turn.recognition = rec
        turn.rejection = ""
        if rec.kind is Kind.COMPLETE and not rec.ambiguous:
            self.commit(rec.complete[0].action)
        elif rec.kind is Kind.COMPLETE and len(rec.complete) > 1:
            options = [(self.view.describe(fp.action), fp.action) for fp in rec.complete]
            self.open_menu(Ask.CHOOSE, "Which move?", options)
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
            # Legal with its captures or without them: the trouble is elsewhere.
            judged = game.judge(Step(frm, to, game.sandwiched(frm, to)))
            legal = judged.accepted or game.judge(Step(frm, to)).accepted
            reason = "" if legal else judged.reason
            if reason and not theirs:
                return reason
            taken = game.sandwiched(frm, to)
            wrong = sorted(set(theirs) - set(taken))
            if wrong:
                return f"{frm}-{to} does not capture {cells_text(wrong)}"
            return reason or f"{frm}-{to} is not a legal move"
        if theirs and not mine and not rec.added:
            return f"it is {game.seat_name(me)}'s turn: put {cells_text(theirs)} back"
        if rec.added and not rec.removed:
            return f"a piece was added on {cells_text(list(rec.added))}"
        if len(theirs) == 1 and len(rec.added) == 1 and not mine:
            return f"it is {game.seat_name(me)}'s turn"
        return "the board does not show a legal move"

    def _reject(self, reason: str) -> None:
        self.turn.rejection = reason
        self.refuse(reason)

    def on_refused(self, action: Action, verdict: Verdict) -> None:
        self._reject(verdict.reason)

    def after_commit(self, action: Action, verdict: Verdict) -> None:
        if isinstance(action, Pass):
            return
        turn = self.turn
        turn.vacated.clear()
        turn.recognition = None
        turn.passed = ""
        self._auto_pass()

    def automatic(self, action: Action) -> bool:
        return isinstance(action, Pass)  # only a player who cannot move passes

    def _auto_pass(self) -> bool:
        """A player with no move passes at once; whether one does."""
        game = self.game
        if game.outcome is None and game.legal_actions() == [Pass()]:
            name = game.seat_name(game.to_move)
            self.commit(Pass())
            self.turn.passed = f"{name.capitalize()} cannot move and passes."
            return True
        return False

    # -- buttons ------------------------------------------------------------------
    def on_game_button(self, event: ButtonEvent) -> None:
        rec = self.turn.recognition
        if event.name != "ok" or rec is None or self.game.outcome is not None:
            return
        if rec.kind is Kind.COMPLETE and len(rec.complete) == 1:
            self.commit(rec.complete[0].action)
        elif rec.kind is Kind.PROGRESS and rec.added:
            waiting = [fp for fp in rec.progress if fp.places == rec.added]
            if waiting:
                step = waiting[0].action
                assert isinstance(step, Step)
                missing = sorted(set(step.captures) - rec.removed)
                self._reject(
                    f"{step.frm}-{step.to} is legal only as a capture: "
                    f"lift {cells_text(missing)}, or move back"
                )

    def on_menu_choice(self, action: str, choice: Any) -> None:
        if action == Ask.CHOOSE:
            self.commit(choice)
        else:
            super().on_menu_choice(action, choice)

    # -- what the board must do ---------------------------------------------------
    def pending_fixes(self) -> list[Fix]:
        if self.turn.rejection:
            return self.board_fixes()
        # A capture is complete only when the taken pieces are off the board.
        captured = self.turn.captured_to_lift()
        return [Fix(FixAction.LIFT, cell, None, "captured") for cell in captured]


REFEREE = DoubleTakeReferee
"""The game's referee, as its kit finds it."""
