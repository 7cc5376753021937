"""Double Double Dominoes on the RFID board: halves read by tag, the rest on buttons.

How a turn goes at the table:

- **The companion deals.** It cannot see a hidden hand, so it deals like a dealer
  from its own seeded boneyard: the OLED names every domino a player takes (the
  draw that starts a turn, the refill to three at its end) and shows the hand of the
  player to move. The players take the named dominoes from the face-up stock.
- **Draw**: ``roll`` takes the turn's domino from the boneyard.
- **Lay**: each half of a domino carries a tag enrolled as ``"6-3:6"`` (the domino,
  then the pip on that half; ``"3-6:6"`` and ``"6-3 half 6"`` mean the same). Two
  newly settled neighbouring cells holding the two halves of one domino are one
  placement; a legal one is played at once, an illegal one is refused with the
  rules' reason and the fixes that undo it.
- **Chain**: after a double the OLED offers the chain: lay another domino beside it,
  or press ``ok`` to end the turn.
- **Discard**: when nothing fits, ``left``/``right`` pick a domino of the hand and
  ``ok`` puts it in the pit.
- **Scores**: every screen shows each player's score and the pips of the track
  space their score piece stands on; the last move names who gained the +3.
- **End**: the boneyard count is on the header, so the table knows when the last
  domino is drawn.
- **Tie**: when the game ends on a points tie, the OLED asks each tied player in
  turn to lay the hand on empty cells and press ``ok``; the tags give the halves and
  the companion shows the sum, or names plainly how the hand differs from the one it
  dealt. Then the hand comes off again, and the result names the winner on pips.
  Without tag readers (or after ``back``) the player enters the pip total instead:
  ``left``/``right`` one pip, held five, ``ok`` to confirm. The engine has decided
  the tie from the dealt hands; the count must agree with it.

A tag that was never enrolled is shown as unknown, never guessed: the fix is to lift
it, and the OLED says to enrol it. On a board that senses only occupancy the two
cells are matched against the hand, and the buttons pick when several dominoes fit.
There is no resigning: a long ``back`` does nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from games.core import Action, Layout, Piece, Verdict
from games.dominoes.board import NEIGHBOURS, cell_index
from games.dominoes.game import Dominoes, Draw, EndTurn, Place
from hardware.board import OCCUPIED

from ...referees.events import ButtonEvent
from ...referees.facts import Facts
from ...referees.referee import Referee, TagReader
from .count import LAY, LIFT, TieCount, mismatch, pair_halves
from .turn import (
    DominoesTurn,
    discards,
    new_turn,
    normalise_half,
    parse_half,
    short,
    span,
    tied,
)
from .view import DominoesView

__all__ = ["DominoesReferee", "normalise_half", "parse_half"]


class Ask(StrEnum):
    CHOOSE = "choose"
    """Which domino of the hand two occupied cells show."""


class DominoesReferee(Referee[Dominoes]):
    view: DominoesView

    turn: DominoesTurn
    new_turn = staticmethod(new_turn)

    def __init__(
        self, game: Dominoes, facts: Facts, turn: DominoesTurn, view: DominoesView
    ) -> None:
        super().__init__(game, facts, turn, view)
        self._halves = TagReader(facts, normalise_half)
        self._kept: dict[str, tuple[str, str]] = {}
        """A memo, not a state: cell → (the label of the half laid there, what was
        sensed there) when the two were seen to agree, for the tag table of
        ``_read_by`` (a half and a tag that agreed agree again under the same table)."""
        self._read_by: object = None

    # -- tags -----------------------------------------------------------------------
    def _label(self, sensed: str) -> str | None:
        """The normalised half a tag shows; None for an unknown tag or an untagged piece.

        Every laid half is read again on every event, so a tag's half is looked up
        once (``TagReader``); a tag not known as a half is looked up each time, as it
        may be enrolled later.
        """
        return self._halves.read(sensed)

    def _same_table(self) -> None:
        """Forget the cells seen to agree with another tag table than the facts' one now."""
        labels = self.facts.labels
        if labels is not self._read_by:
            self._kept.clear()
            self._read_by = labels

    def _moved(self, layout: Layout, seen: Mapping[str, str]) -> list[str]:
        """The laid cells that do not show their half, in layout order.

        A cell that showed its half with the same tag last time is not read again.
        """
        self._same_table()
        kept = self._kept
        moved = []
        for cell, piece in layout.items():
            sensed = seen.get(cell)
            if sensed is None:
                moved.append(cell)
            elif kept.get(cell) != (piece.label, sensed):
                if self.matches(piece, sensed):
                    kept[cell] = (piece.label, sensed)
                else:
                    moved.append(cell)
        return moved

    def matches(self, piece: Piece, sensed: str) -> bool:
        if sensed == OCCUPIED:
            # A piece whose tag is not read (or a board without readers): no telling.
            return True
        return self._label(sensed) == normalise_half(piece.label)

    def reads_tags(self) -> bool:
        """Whether the board reads tags: it shows one somewhere (a tag-less board never)."""
        seen = self.facts.observation.values()
        return self.facts.labels is not None and any(s != OCCUPIED for s in seen)

    # -- the board ------------------------------------------------------------------
    def on_board(self) -> None:
        game = self.game
        turn = self.turn
        if self.menu_action == Ask.CHOOSE and self.facts.observation != turn.chooser_board:
            # The dominoes it asked about have moved: the answer would be a false move.
            self.menu = None
        if turn.counting():
            self._count_board()
            return
        if game.outcome is not None or self.facts.restoring:
            return
        turn.rejection = ""
        turn.waiting = ""
        layout = game.layout()
        seen = self.facts.observation
        moved = self._moved(layout, seen)
        if moved:
            names = sorted({layout[c].label.split(":")[0] for c in moved})
            self._reject(f"put {' and '.join(names)} back on {span(moved)}")
            return
        added = sorted((c for c in seen if c not in layout), key=cell_index)
        if not added:
            return
        # Only a board that has never shown a tag is read by occupancy and the hand.
        tagless = all(sensed == OCCUPIED for sensed in seen.values())
        if not tagless:
            strange = self._strange(added)
            if strange:
                self._reject(strange)
                return
            unread = [c for c in added if seen[c] == OCCUPIED]
            if unread:
                turn.waiting = f"Reading the tag on {unread[0]}: if this stays, lay it again."
                return
        if len(added) > 2:
            self._reject("lay one domino at a time")
            return
        if game.phase not in ("play", "chain"):
            reason = game.judge(Place(0, 0, "H8", "H9")).reason
            if game.phase == "draw":
                reason += ": press roll"
            self._reject(reason)
            return
        if len(added) == 1:
            half = self._label(seen[added[0]])
            of = f" of {half.split(':')[0]}" if half else ""
            turn.waiting = f"Lay the other half{of} beside {added[0]}."
        elif tagless:
            self._by_occupancy(added)
        else:
            self._by_tags(added)

    def _strange(self, cells: list[str]) -> str:
        """Why a tag on ``cells`` shows no domino half; "" if none is strange."""
        labels = self.facts.labels
        for cell in cells:
            sensed = self.facts.observation[cell]
            if sensed == OCCUPIED or self._label(sensed) is not None:
                continue
            label = labels(sensed) if labels is not None else None
            if label is None:
                return f"an unknown piece on {cell}: enrol its tag with tabletop enrol"
            return f"{cell} holds {label}, not a domino half"
        return ""

    def _by_tags(self, cells: list[str]) -> None:
        seen = self.facts.observation
        halves = [parse_half(self._label(seen[c]) or "") for c in cells]
        one, two = halves
        assert one is not None and two is not None
        if one[0] != two[0] or sorted((one[1], two[1])) != [one[0].a, one[0].b]:
            self._reject(
                f"{cells[0]} and {cells[1]} hold halves of two dominoes "
                f"({one[0]} and {two[0]}): lay both halves of one"
            )
            return
        # The session judges the placement; a refusal comes back as on_refused.
        self._commit(Place(one[1], two[1], cells[0], cells[1]))

    def _by_occupancy(self, cells: list[str]) -> None:
        if cell_index(cells[1]) not in NEIGHBOURS[cell_index(cells[0])]:
            self._reject(f"{cells[0]} and {cells[1]} are not next to each other")
            return
        fits = [
            p
            for p in self.game.legal_actions()
            if isinstance(p, Place) and {p.cell_a, p.cell_b} == set(cells)
        ]
        if not fits:
            self._reject(f"no domino in your hand fits on {span(cells)}")
        elif len(fits) == 1:
            self._commit(fits[0])
        else:
            options = [(self.view.placed(p), p) for p in fits]
            self.turn.chooser_board = dict(self.facts.observation)
            self.open_menu(Ask.CHOOSE, "Which domino?", options)

    def _reject(self, reason: str) -> None:
        self.turn.rejection = reason
        self.refuse(reason)

    def before_play(self) -> None:
        """The mover's hand before the action, for the dominoes it then takes."""
        self.turn.mover = self.game.to_move
        self.turn.before = self.game.hand(self.game.to_move)

    def _commit(self, action: Action) -> None:
        self.before_play()
        self.commit(action)

    def on_refused(self, action: Action, verdict: Verdict) -> None:
        self._reject(verdict.reason)

    def after_commit(self, action: Action, verdict: Verdict) -> None:
        game = self.game
        turn = self.turn
        turn.cursor = 0
        turn.note = ""
        turn.map_shown = False
        taken = turn.taken(game, action)
        turn.dealt = (turn.mover, taken) if taken else None
        if game.outcome is not None:
            seats = tied(game)
            if len(seats) > 1:
                turn.rejection = ""
                turn.waiting = ""
                turn.count = TieCount(seats, by_tags=self.reads_tags())
            return
        # The board may already hold the next domino (laid before roll was pressed).
        self.on_board()

    # -- buttons ------------------------------------------------------------------
    def on_button(self, event: ButtonEvent) -> None:
        if self.turn.counting():
            self._count_button(event)
            return
        super().on_button(event)

    def allows_resign(self) -> bool:
        return False

    def on_game_button(self, event: ButtonEvent) -> None:
        game = self.game
        turn = self.turn
        phase = game.phase
        turn.note = ""
        layout = game.layout()
        unjudged = any(cell not in layout for cell in self.facts.observation)
        if event.name == "ok" and phase in ("play", "chain") and unjudged:
            # Ok with a domino lying there asks again (after a chooser was cancelled).
            self.on_board()
        elif phase == "draw" and event.name == "roll":
            self._commit(Draw())
        elif event.name == "roll":
            turn.map_shown = not turn.map_shown
        elif phase == "discard":
            options = discards(game)
            if event.name in ("left", "right"):
                step = 1 if event.name == "right" else -1
                turn.cursor = (turn.cursor + step) % len(options)
            elif event.name == "ok":
                self._commit(options[turn.cursor % len(options)])
        elif phase == "chain":
            if event.name == "ok":
                self._commit(EndTurn())
        elif phase == "play" and event.name == "ok":
            turn.note = "A domino fits: lay one."

    def on_menu_choice(self, action: str, choice: Any) -> None:
        if action == Ask.CHOOSE:
            self._commit(choice)
        else:
            super().on_menu_choice(action, choice)

    # -- the count at a tie ---------------------------------------------------------
    def _count_board(self) -> None:
        count = self.turn.count
        assert count is not None
        if count.stage == LIFT and not self.board_fixes():
            count.next_seat()

    def _count_button(self, event: ButtonEvent) -> None:
        count = self.turn.count
        assert count is not None
        name = event.name
        if count.stage == LAY:
            if name == "ok":
                self._read_hand()
            elif name == "back":
                count.by_buttons()
        elif count.stage == LIFT:
            self._count_board()
        elif name in ("left", "right"):
            count.step(name == "right", event.long)
        elif name == "ok":
            dealt = sum(d.pips for d in self.game.hand(count.seat))
            if count.entry == dealt:
                count.take(dealt)
                self.confirm()
            else:
                who = short(count.seat)
                self._refuse_count(
                    f"{who}'s hand should hold {dealt} pips, not {count.entry}: count again"
                )

    def _refuse_count(self, problem: str, laid: int | None = None) -> None:
        assert self.turn.count is not None
        self.turn.count.refuse(problem, laid)
        self.refuse(problem)

    def _read_hand(self) -> None:
        """Read the hand laid on the board, check it against the deal and take its sum."""
        count = self.turn.count
        assert count is not None
        game = self.game
        layout = game.layout()
        seen = self.facts.observation
        moved = self._moved(layout, seen)
        if moved:
            names = sorted({layout[c].label.split(":")[0] for c in moved})
            self._refuse_count(f"put {' and '.join(names)} back on {span(moved)} first")
            return
        added = sorted((c for c in seen if c not in layout), key=cell_index)
        strange = self._strange(added)
        unread = [c for c in added if seen[c] == OCCUPIED]
        if strange:
            self._refuse_count(strange)
            return
        if unread:
            self._refuse_count(f"the tag on {unread[0]} is not read: lay it again")
            return
        halves = [parse_half(self._label(seen[c]) or "") for c in added]
        whole, alone = pair_halves(h for h in halves if h is not None)
        if alone:
            self._refuse_count(f"only one half of {alone[0]} is read: lay it again")
            return
        pips = sum(d.pips for d in whole)
        wrong = mismatch(short(count.seat), game.hand(count.seat), whole)
        if wrong:
            self._refuse_count(wrong, pips)
            return
        count.take(pips)
        self.confirm()
        self._count_board()  # an empty hand has nothing to lift

    # -- what the board must do -----------------------------------------------------
    def wants_fixes(self) -> bool:
        count = self.turn.count
        lifting = self.turn.counting() and count is not None and count.stage == LIFT
        return bool(self.turn.rejection) or lifting


REFEREE = DominoesReferee
"""The game's referee, as its kit finds it."""
