"""The simulated hand for Double Double Dominoes: lay both halves, press the buttons, count."""

from __future__ import annotations

from collections.abc import Mapping

from games.core import Action
from games.dominoes.game import Discard, Draw, EndTurn, Place

from ..hand import Hand, Step
from .count import LONG_STEP, free_pairs
from .referee import DominoesReferee
from .turn import discards, parse_half, tied

SWEEP_WAIT_S = 0.3
"""How long a simulated hand waits after laying a domino on an RFID sweep board."""


class DominoesHand(Hand[DominoesReferee]):
    def piece_labels(self, cells: list[str], piece: str) -> list[str]:
        pips = piece.split("-")
        if len(cells) == 1 and len(pips) == 2 and all(pip.isdigit() for pip in pips):
            raise ValueError(
                f"'place {cells[0]} {piece}' names one cell: lay a domino on the two cells it "
                f"covers ('place H8,H9 {piece}') or one half ('place {cells[0]} {piece}:{pips[0]}')"
            )
        if len(cells) == 1:
            return [piece]  # one half ("6-3:6"), or a stray piece whose tag is no half
        labels = [f"{piece}:{pip}" for pip in pips]
        if len(cells) != 2 or len(pips) != 2 or not all(map(parse_half, labels)):
            raise ValueError(
                f"a domino is laid on two cells as 'place H8,H9 6-3', not {','.join(cells)} {piece}"
            )
        return labels

    def not_the_movers(
        self, verb: str, cells: list[str], labels: list[str], board: Mapping[str, str]
    ) -> str | None:
        """A domino the mover does not hold."""
        if verb != "place":
            return None
        game = self.referee.game
        hand = [d.key() for d in game.hand(game.to_move)]
        for label in labels:
            half = parse_half(label)
            if half is not None and half[0] not in hand:
                held = " ".join(str(d) for d in sorted(hand)) or "nothing"
                return (
                    f"{game.seat_name(game.to_move)} does not hold {half[0]} "
                    f"(the hand holds {held})"
                )
        return None

    def steps(self, action: Action) -> list[Step]:
        return self._action_steps(action) + self._count_steps(action)

    def _action_steps(self, action: Action) -> list[Step]:
        if isinstance(action, Draw):
            return [("press", "roll")]
        if isinstance(action, Place):
            domino = f"{action.domino_a}-{action.domino_b}"
            cells = f"{action.cell_a},{action.cell_b}"
            # A reader sweep reads each cell twice before the host's settle window starts.
            return [("place", cells, domino), ("wait", str(SWEEP_WAIT_S))]
        if isinstance(action, EndTurn):
            return [("press", "ok")]
        if isinstance(action, Discard):
            options = discards(self.referee.game)
            index = options.index(action) if action in options else 0
            steps: list[Step] = [("press", "right")] * index
            return [*steps, ("press", "ok")]
        return []

    def _count_steps(self, action: Action) -> list[Step]:
        """The count at a tie, when ``action`` ends the game in one: each tied player
        lays the hand, presses ok and lifts it again (or enters the total)."""
        after = self.referee.game.copy()
        if not after.judge(action).accepted:
            return []
        after.apply(action)
        if after.outcome is None:
            return []
        seats = tied(after)
        if len(seats) < 2:
            return []
        by_tags = self.referee.reads_tags()
        steps: list[Step] = []
        for seat in seats:
            hand = sorted(after.hand(seat))
            pairs = free_pairs(after.layout(), len(hand)) if by_tags else []
            if by_tags and len(pairs) == len(hand):
                for domino, (a, b) in zip(hand, pairs, strict=True):
                    steps += [("place", f"{a},{b}", str(domino)), ("wait", str(SWEEP_WAIT_S))]
                steps.append(("press", "ok"))
                steps += [("lift", cell) for pair in pairs for cell in pair]
                steps.append(("wait", str(SWEEP_WAIT_S)))  # the last lift settles too
                continue
            if by_tags:
                steps.append(("press", "back"))  # no room to lay it: count on the buttons
            total = sum(d.pips for d in hand)
            steps += [("hold", "right")] * (total // LONG_STEP)
            steps += [("press", "right")] * (total % LONG_STEP)
            steps.append(("press", "ok"))
        return steps


HAND = DominoesHand
"""The game's simulated hand, as its kit finds it."""
