"""The simulated hand for Double Take: lift, place, lift the captured, or decline."""

from __future__ import annotations

from collections.abc import Mapping

from games.core import Action
from games.double_take.game import Step as Move

from ..hand import Hand, Step
from .referee import DoubleTakeReferee


class DoubleTakeHand(Hand[DoubleTakeReferee]):
    def not_the_movers(
        self, verb: str, cells: list[str], labels: list[str], board: Mapping[str, str]
    ) -> str | None:
        """A move that begins by lifting (or sliding) the other side's piece."""
        if verb == "place":
            return None
        game = self.referee.game
        layout = game.layout()
        if set(board) != set(layout):
            return None  # a move under way: its captures lift the other side's pieces
        piece = layout.get(cells[0])
        if piece is None or piece.owner is None or piece.owner == game.to_move:
            return None
        return (
            f"{cells[0]} holds {game.seat_name(piece.owner)}'s piece, and it is "
            f"{game.seat_name(game.to_move)}'s move"
        )

    def steps(self, action: Action) -> list[Step]:
        if not isinstance(action, Move):
            return []
        game = self.referee.game
        colour = game.seat_name(game.to_move)
        steps: list[Step] = [("lift", action.frm), ("place", action.to, colour)]
        steps += [("lift", cell) for cell in action.captures]
        if not action.captures and game.sandwiched(action.frm, action.to):
            steps.append(("press", "ok"))  # decline the capture
        return steps


HAND = DoubleTakeHand
"""The game's simulated hand, as its kit finds it."""
