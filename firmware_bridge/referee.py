"""The base of every game's referee: turns board and button events into decisions.

A referee knows how pieces of its game are recognised on the board and what the
buttons mean in each phase of a turn; its view (``view.py``) draws the screens.
It is given its game and the table's facts; its handlers return decisions
(commit this action, reject with this reason) and the session carries them out,
then tells the referee what became of each commit (``after_commit``,
``on_refused``). A referee never calls into the session.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from enum import StrEnum
from typing import Any, Generic, TypeVar

from games.core import Action, Game, Piece, Resign, Verdict
from hardware.board import OCCUPIED

from .decisions import Commit, Confirm, Decision, Reject
from .events import ButtonEvent
from .facts import Facts
from .fixes import Fix, occupancy_matcher, reconcile
from .menu import Menu
from .view import View

G = TypeVar("G", bound=Game)


class Ask(StrEnum):
    """The menus every referee can open."""

    RESIGN = "resign"


class Referee(ABC, Generic[G]):
    """Game-specific handling of the table's events."""

    view: View[G]
    """What the table shows of this game; each referee builds its own."""

    def __init__(self, game: G, facts: Facts) -> None:
        self.game = game
        self.facts = facts
        self.menu: Menu | None = None
        self.menu_action: str = ""
        self.new_game_requested = False
        self._decisions: list[Decision] = []

    # -- deciding -------------------------------------------------------------------
    def commit(self, action: Action) -> None:
        """Decide to play ``action``; the session judges it and reports back."""
        self._decisions.append(Commit(action))

    def refuse(self, reason: str) -> None:
        """Decide that what the table tried is refused, for ``reason``."""
        self._decisions.append(Reject(reason))

    def confirm(self) -> None:
        """Decide that the table's answer was taken (no action is played)."""
        self._decisions.append(Confirm())

    def decisions(self) -> list[Decision]:
        """The decisions taken since the last call, first first."""
        out, self._decisions = self._decisions, []
        return out

    def after_commit(self, action: Action, verdict: Verdict) -> None:
        """``action`` was journaled and played (its verdict is ``verdict``)."""

    def on_refused(self, action: Action, verdict: Verdict) -> None:
        """The rules refused ``action``: by default the table is told why."""
        self.refuse(verdict.reason)

    # -- the board --------------------------------------------------------------------
    def matches(self, piece: Piece, sensed: str) -> bool:
        """Whether a sensed value shows ``piece``; occupancy boards see any piece."""
        return occupancy_matcher(piece, sensed)

    def sensed_label(self, sensed: str) -> str | None:
        """The label a sensed tag was enrolled as; None for an unknown tag or no tag."""
        if sensed == OCCUPIED or self.facts.labels is None:
            return None
        return self.facts.labels(sensed)

    def board_fixes(self) -> list[Fix]:
        """Fixes that make the game's cells match its layout.

        Cells the game does not use (rack slots, a scan pad) are the referee's own.
        """
        cells = self.game.cells()
        used = set(cells)
        return reconcile(
            self.game.layout(),
            {c: v for c, v in self.facts.observation.items() if c in used},
            cells,
            self.matches,
            self.facts.labels,
        )

    # -- events ---------------------------------------------------------------------
    @abstractmethod
    def on_board(self) -> None:
        """The settled board changed (``facts.observation``)."""

    def wants_ticks(self) -> bool:
        """Whether the loop should send ``Tick`` events now (an animation is running).

        Idle referees return False, so a waiting table costs nothing.
        """
        return False

    def on_tick(self, now: float) -> None:
        """Time passed; called only while ``wants_ticks()`` is True."""

    def on_button(self, event: ButtonEvent) -> None:
        if self.menu is not None:
            self.on_menu_button(event)
            return
        if self.game.outcome is not None:
            self.new_game_requested = event.name == "ok"
            return
        if event.name == "back" and event.long:
            player = self.game.to_move
            self.open_menu(
                Ask.RESIGN,
                f"{self.game.seat_name(player).capitalize()} resigns?",
                [("no, play on", False), ("yes, resign", True)],
            )
            return
        self.on_game_button(event)

    def on_game_button(self, event: ButtonEvent) -> None:
        """A button pressed while no menu is open."""

    def open_menu(
        self, action: str, title: str, options: list[tuple[str, Any]], subject: str = ""
    ) -> None:
        self.menu = Menu(title, options, subject)
        self.menu_action = action

    def on_menu_button(self, event: ButtonEvent) -> None:
        menu = self.menu
        assert menu is not None
        if event.name == "left":
            menu.move(-1)
        elif event.name == "right":
            menu.move(1)
        elif event.name == "back":
            self.menu = None
        elif event.name == "ok":
            self.menu = None
            self.on_menu_choice(self.menu_action, menu.choice)

    def on_menu_choice(self, action: str, choice: Any) -> None:
        if action == Ask.RESIGN and choice:
            self.commit(Resign(self.game.to_move))

    # -- what the board must do ----------------------------------------------------------
    def wants_fixes(self) -> bool:
        """Whether the board must be fixed now (the fixes appear in the state)."""
        return False

    def pending_fixes(self) -> list[Fix]:
        """The fixes the table must carry out now, first one first."""
        return self.board_fixes() if self.wants_fixes() else []
