"""The base of every game's view: what the OLED shows and the game's part of the state.

A view reads the game, the table's facts and its referee's turn state; it changes
nothing. Its referee asks it, as it rules on an event, for the screen, the words for
a played action, the lights and the ``--json`` extras (:mod:`.ruling`); a reader of
the journal asks it for the words of each action.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar, Generic, TypeVar

from games.core import Action, Game, Piece, Resign

from ..screen.layout import fits_bar
from ..screen.screens import BoardMap, Mark, Screen, seat_mark, window
from .facts import Facts
from .fixes import Fix
from .light_cells import Lit, Moved, fix_colour

G = TypeVar("G", bound=Game)

WINDOW_ROWS = 5
WINDOW_COLUMNS = 3
"""The window of a large board that a map shows around the cell a fix names."""
NEW_GAME = "ok: new game"
"""What the game-over screen asks: ok opens the start menu on the same game."""


class View(Generic[G]):
    """Game-specific screens and state, read from the game and the turn."""

    def __init__(self, game: G, facts: Facts, turn: Any = None) -> None:
        self.game = game
        self.facts = facts
        self.turn = turn
        """The referee's turn state (each game's ``turn.py``), read, never written."""

    # -- the map --------------------------------------------------------------------
    def grid(self) -> tuple[tuple[str | None, ...], ...]:
        """The board's cells as the station sees them, top row first."""
        raise NotImplementedError

    def mark(self, piece: Piece) -> Mark:
        """Each seat's pieces in a pattern of their own, the same all game."""
        return seat_mark(piece.owner)

    def board_map(self, focus: str | tuple[str, ...] | None = None) -> BoardMap:
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
            return "resigns"
        return action.type

    def scores(self) -> tuple[str, ...]:
        """Each seat's score, one item a seat: the screen never splits one."""
        game = self.game
        return tuple(f"{game.seat_name(p).capitalize()} {s}" for p, s in enumerate(game.scores()))

    @staticmethod
    def fit_title(titles: tuple[str, ...], status: str) -> str:
        """The first of ``titles`` that fits the bar beside ``status`` (else the last)."""
        for title in titles:
            if fits_bar(title, " " + status):
                return title
        return titles[-1]

    def story(self, action: Action) -> str:
        """A played action as the game's story tells it (the transcript, ``export
        --text``): the screen's words and what else it did that a screen has no room for."""
        return self.describe(action)

    def opening(self) -> tuple[str, ...]:
        """What a reader of the game's story needs before its first move (the start
        word, the special spaces), one line an item; most games need nothing."""
        return ()

    def instruct(self, action: Action) -> str:
        """What the table does to carry ``action`` out, before it is played: a computer
        seat's move or a hint ("c3 to c5, lift b5")."""
        if isinstance(action, Resign):
            return "resign (hold back)"
        return self.describe(action)

    def first_things(self) -> bool:
        """Whether the game has something to show before the board is set up (the
        markers of DoubleCross's special spaces): the table shows it first."""
        return False

    def header(self) -> tuple[str, str]:
        game = self.game
        if game.outcome is not None:
            return ("Game over", "")
        return (f"{game.seat_name(game.to_move).capitalize()} to move", "")

    # -- screens ----------------------------------------------------------------------
    def fix_screen(self, title: str, fixes: list[Fix], reason: str = "") -> Screen:
        first = fixes[0]
        lines = (reason,) if reason else ()
        count = f" (1/{len(fixes)})" if len(fixes) > 1 else ""
        prompt = self.fix_text(first) + count
        board = self.board_map(first.cell)
        return Screen(title, "", lines, board, prompt=prompt, scores=self.scores())

    def fix_text(self, fix: Fix) -> str:
        """A fix in a player's words."""
        return fix.text()

    def result_screen(self) -> Screen:
        outcome = self.game.outcome
        assert outcome is not None
        if outcome.draw:
            first = "Draw"
        else:
            names = " and ".join(self.game.seat_name(p).capitalize() for p in outcome.winners)
            first = f"{names} wins"
        reason = outcome.reason[:1].upper() + outcome.reason[1:]
        board = self.board_map()
        lines = (first, reason)
        return Screen("Game over", "", lines, board, prompt=NEW_GAME, scores=self.scores())

    def menu_screen(self) -> Screen:
        menu = self.facts.prompt.menu
        assert menu is not None
        choice, *keys = menu.lines()
        return Screen(menu.title, "", (choice,), prompt=" ".join(keys), scores=self.scores())

    def screen(self) -> Screen:
        """What the OLED shows now (the session adds link trouble and set-up)."""
        raise NotImplementedError

    def extra_state(self) -> dict[str, Any]:
        """Game-specific facts for the ``--json`` stream."""
        return {}

    # -- the lights under the squares (lights.py) -------------------------------------
    def move_cells(self, action: Action, moved: Moved) -> Moved:
        """The cells of ``action`` as the layouts around it show them, with what they
        miss (a rack slot a tile comes from); by default as they are."""
        return moved

    def fix_colour(self, fix: Fix, first: bool) -> str:
        """The colour that lights ``fix`` (``first``: the one asked first)."""
        return fix_colour(fix, first)

    def lights(self, hint: Action | None) -> Lit:
        """The game's own lights from its turn (``hint``: the hint shown, if any);
        by default none."""
        return {}


@functools.cache
def lettered_grid(columns: str, size: int) -> tuple[tuple[str | None, ...], ...]:
    """The cells of a board named by column letter and row number, row 1 first."""
    return tuple(tuple(f"{c}{r}" for c in columns) for r in range(1, size + 1))


class LetteredBoardView(View[G]):
    """A view of a large lettered board (the 15×15 ones): its map is a window around
    the cell in focus, the game's pieces solid."""

    columns: ClassVar[str]
    size: ClassVar[int]

    def grid(self) -> tuple[tuple[str | None, ...], ...]:
        return lettered_grid(self.columns, self.size)

    def board_map(self, focus: str | tuple[str, ...] | None = None) -> BoardMap:
        return self.window_map(focus if not isinstance(focus, tuple) else focus[0])
