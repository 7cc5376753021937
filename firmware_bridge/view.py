"""The base of every game's view: what the OLED shows and the game's part of the state.

A view reads the game, the table's facts and its referee's turn state; it changes
nothing. The session asks it for the screen, the words for a played action and the
``--json`` extras, and only when someone listens for the extras.
"""

from __future__ import annotations

from typing import Any, Generic, Protocol, TypeVar

from games.core import Action, Game, Piece, Resign

from .facts import Facts
from .fixes import Fix
from .menu import Menu
from .screens import BoardMap, Mark, Screen, window

G = TypeVar("G", bound=Game)

WINDOW_ROWS = 5
WINDOW_COLUMNS = 3
"""The window of a large board that a map shows around the cell a fix names."""


class Controls(Protocol):
    """What a view may ask of its referee: the open menu and the fixes it waits for."""

    @property
    def menu(self) -> Menu | None: ...

    def board_fixes(self) -> list[Fix]: ...

    def pending_fixes(self) -> list[Fix]: ...


class View(Generic[G]):
    """Game-specific screens and state, read from the game and the turn."""

    def __init__(self, game: G, facts: Facts, controls: Controls) -> None:
        self.game = game
        self.facts = facts
        self.controls = controls

    # -- the map --------------------------------------------------------------------
    def grid(self) -> tuple[tuple[str | None, ...], ...]:
        """The board's cells as the station sees them, top row first."""
        raise NotImplementedError

    def mark(self, piece: Piece) -> Mark:
        return Mark.SOLID if piece.owner in (0, None) else Mark.HOLLOW

    def board_map(self, focus: str | None = None) -> BoardMap:
        marks = {cell: self.mark(p) for cell, p in self.game.layout().items()}
        return BoardMap(self.grid(), marks, focus)

    def window_map(self, focus: str | None = None) -> BoardMap:
        """A window of a large board around ``focus``: the game's pieces solid, anything
        else the sensors see on the game's cells outlined."""
        grid = window(self.grid(), focus, WINDOW_ROWS, WINDOW_COLUMNS)
        cells = set(self.game.cells())
        marks = dict.fromkeys(self.game.layout(), Mark.SOLID)
        for cell in self.facts.observation:
            if cell in cells:
                marks.setdefault(cell, Mark.HOLLOW)
        return BoardMap(grid, marks, focus)

    # -- words ----------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        """A short sentence for a played action, for the screen and the transcript."""
        if isinstance(action, Resign):
            return f"{self.game.seat_name(action.player)} resigns"
        return action.type

    def header(self) -> tuple[str, str]:
        game = self.game
        if game.outcome is not None:
            return ("Game over", "")
        return (f"{game.seat_name(game.to_move).capitalize()} to move", "")

    # -- screens ----------------------------------------------------------------------
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

    def menu_screen(self) -> Screen:
        menu = self.controls.menu
        assert menu is not None
        return Screen(menu.title, "", menu.lines())

    def screen(self) -> Screen:
        """What the OLED shows now (the session adds link trouble and set-up)."""
        raise NotImplementedError

    def extra_state(self) -> dict[str, Any]:
        """Game-specific facts for the ``--json`` stream."""
        return {}
