"""The base of every game's referee: turns board and button events into actions.

A referee knows how its game looks on the board (which cells, how pieces are
recognised, what the map looks like) and what the buttons mean in each phase.
The session gives it the game, the settled board and ``commit``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from games.core import Action, Piece, Resign
from hardware.board import OCCUPIED

from .events import ButtonEvent
from .fixes import Fix, occupancy_matcher
from .screens import BoardMap, Screen

if TYPE_CHECKING:
    from .session import Session


class Menu:
    """A short list answered with left/right and ok (back cancels)."""

    def __init__(self, title: str, options: list[tuple[str, Any]]) -> None:
        self.title = title
        self.options = options
        self.index = 0

    def move(self, step: int) -> None:
        self.index = (self.index + step) % len(self.options)

    @property
    def choice(self) -> Any:
        return self.options[self.index][1]

    def lines(self) -> tuple[str, ...]:
        label = self.options[self.index][0]
        return (f"< {label} >", "ok: choose  back: cancel")


class Referee(ABC):
    """Game-specific handling of the table's events."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.menu: Menu | None = None
        self.menu_action: str = ""
        self.new_game_requested = False

    @property
    def game(self) -> Any:
        return self.session.game

    # -- board geometry -----------------------------------------------------------
    @abstractmethod
    def grid(self) -> tuple[tuple[str | None, ...], ...]:
        """The board's cells as the station sees them, top row first."""

    def mark(self, piece: Piece) -> str:
        return "solid" if piece.owner in (0, None) else "hollow"

    def matches(self, piece: Piece, sensed: str) -> bool:
        """Whether a sensed value shows ``piece``; occupancy boards see any piece."""
        return occupancy_matcher(piece, sensed)

    def sensed_label(self, sensed: str) -> str | None:
        """The label a sensed tag was enrolled as; None for an unknown tag or no tag."""
        if sensed == OCCUPIED or self.session.labels is None:
            return None
        return self.session.labels(sensed)

    def board_map(self, focus: str | None = None) -> BoardMap:
        marks = {cell: self.mark(p) for cell, p in self.game.layout().items()}
        return BoardMap(self.grid(), marks, focus)

    # -- events ---------------------------------------------------------------------
    @abstractmethod
    def on_board(self) -> None:
        """The settled board changed (``session.observation``)."""

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
                "resign",
                f"{self.game.seat_name(player).capitalize()} resigns?",
                [("no, play on", False), ("yes, resign", True)],
            )
            return
        self.on_game_button(event)

    def on_game_button(self, event: ButtonEvent) -> None:
        """A button pressed while no menu is open."""

    def open_menu(self, action: str, title: str, options: list[tuple[str, Any]]) -> None:
        self.menu = Menu(title, options)
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
        if action == "resign" and choice:
            self.session.commit(Resign(self.game.to_move))

    # -- what to show -----------------------------------------------------------------
    def describe(self, action: Action) -> str:
        """A short sentence for a played action, for the screen and the transcript."""
        return action.type

    def header(self) -> tuple[str, str]:
        game = self.game
        if game.outcome is not None:
            return ("Game over", "")
        return (f"{game.seat_name(game.to_move).capitalize()} to move", "")

    def fix_screen(self, title: str, fixes: list[Fix], reason: str = "") -> Screen:
        first = fixes[0]
        lines = [reason] if reason else []
        count = f" (1/{len(fixes)})" if len(fixes) > 1 else ""
        lines.append(first.text() + count)
        return Screen(title, "", tuple(lines), self.board_map(first.cell))

    def result_screen(self) -> Screen:
        outcome = self.game.outcome
        assert outcome is not None
        if outcome.draw:
            first = "Draw"
        else:
            names = " and ".join(self.game.seat_name(p).capitalize() for p in outcome.winners)
            first = f"{names} wins"
        return Screen("Game over", "", (first, outcome.reason), self.board_map())

    @abstractmethod
    def screen(self) -> Screen:
        """What the OLED shows now (the session adds link trouble and set-up)."""

    def menu_screen(self) -> Screen:
        assert self.menu is not None
        return Screen(self.menu.title, "", self.menu.lines())

    def wants_fixes(self) -> bool:
        """Whether the board must be fixed now (the fixes appear in the state)."""
        return False

    def pending_fixes(self) -> list[Fix]:
        """The fixes the table must carry out now, first one first."""
        return self.session.fixes() if self.wants_fixes() else []

    def extra_state(self) -> dict[str, Any]:
        """Game-specific facts for the ``--json`` stream."""
        return {}

    # -- simulation -----------------------------------------------------------------
    def piece_labels(self, cells: list[str], piece: str) -> list[str]:
        """What each cell's tag says when a script lays ``piece`` on ``cells``.

        One piece on one cell by default; a domino's referee splits ``6-3`` over two.
        """
        return [piece] * len(cells)

    def hand(self, action: Action) -> list[tuple[str, ...]]:
        """The physical steps (script lines) that carry ``action`` out on the board."""
        return []
