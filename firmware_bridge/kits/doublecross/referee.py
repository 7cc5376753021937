"""DoubleCross on the RFID board: each tile judged as it settles, the rest on buttons.

How a game goes at the table:

- **Set-up.** The OLED lists where each special-space marker goes, a few a screen;
  ``ok`` shows the next ones (a game without special spaces skips this); a tile laid
  meanwhile is refused until it is lifted. Then it asks for the start word, tile by
  tile ("Put C on G8"), and play starts once the sensors read it in place.
- **Racks** are dealt by the companion from its own seeded bag, as in Crosslet: the
  OLED shows the rack of the player to move and, after each turn, names the tiles
  the player takes.
- **Lay a tile.** Each tile carries a tag enrolled as its letter. As soon as a tile
  settles on a cell it is judged and the OLED says what it made: a partial word, a
  complete word (the points and to whom, also to other players whose tiles were
  made stable), a special space's effect. Tiles laid together are judged one at a
  time in reading order.
- **Fixes.** A refused tile goes back to the rack: the OLED names it and play waits
  until it is lifted. A destroyed tile (the placed one, or tiles settling destroyed,
  or a coloured bomb's or a directional bomb's victims) is named by cell, one at a
  time with the map framing it, and must be lifted before play goes on.
- **ok** ends the turn; with nothing played it is a pass.
- **back** opens the turn menu: a directional bomb of the tray (``bomb ns`` ...),
  *new letters*, *undo last tile*, and *end the game* for the last of a round of
  passes. A bomb is aimed with the cursor: ``left``/``right`` walk the column, ``ok``;
  then the row, ``ok``; the map frames the cell. It goes off at once.
- **roll** shows the whole board's map (stable tiles filled, each player's unstable
  tiles in their pattern, special spaces as dots) or the words again.
- A long ``back`` offers to resign.
"""

from __future__ import annotations

from typing import Any

from games.core import Action, Piece, Verdict
from games.doublecross.game import (
    DoubleCross,
    EndGame,
    EndTurn,
    NewLetters,
    PlaceTile,
    PlayBomb,
    Undo,
)
from hardware.board import OCCUPIED

from ...referees.decisions import mover_of
from ...referees.events import ButtonEvent
from ...referees.facts import Facts
from ...referees.fixes import Fix
from ...referees.referee import Referee, TagReader, cells_seen
from .turn import (
    COLUMN_MENU,
    MARKERS_FIRST,
    ORDER,
    ROW_MENU,
    TURNS,
    Ask,
    Choice,
    DoubleCrossTurn,
    happened,
    new_turn,
    order,
    points_text,
    short,
    short_reason,
    tile_letter,
    turn_menu,
)
from .view import DoubleCrossView

__all__ = ["DoubleCrossReferee"]


class DoubleCrossReferee(Referee[DoubleCross]):
    view: DoubleCrossView

    turn: DoubleCrossTurn
    new_turn = staticmethod(new_turn)

    def __init__(
        self, game: DoubleCross, facts: Facts, turn: DoubleCrossTurn, view: DoubleCrossView
    ) -> None:
        super().__init__(game, facts, turn, view)
        self.tiles = TagReader(facts, tile_letter)

    def seen(self) -> dict[str, str]:
        """The settled board's game cells."""
        return cells_seen(self.facts.observation, ORDER)

    def wants_fixes(self) -> bool:
        return self.turn.wants_fixes()

    # -- tags -----------------------------------------------------------------------
    def letter(self, sensed: str) -> str | None:
        return self.tiles.read(sensed)

    def matches(self, piece: Piece, sensed: str) -> bool:
        return self.tiles.shows(sensed, piece.label)

    def strange_tile(self, cell: str) -> str:
        """Why the piece on ``cell`` is not a tile the referee can read."""
        sensed = self.facts.observation[cell]
        if self.facts.labels is None:
            return (
                "this board cannot read letters: DoubleCross needs tag readers "
                "(the rfid-15x15-pico profile)"
            )
        if sensed == OCCUPIED:
            return f"the tag on {cell} cannot be read: lift the tile and lay it again"
        label = self.facts.labels(sensed)
        if label is None:
            return f"an unknown piece on {cell}: enrol its tag with tabletop enrol"
        return f"{cell} holds {label}, not a letter tile"

    # -- the board ------------------------------------------------------------------
    def on_board(self) -> None:
        if self.facts.restoring:
            return
        game = self.game
        turn = self.turn
        layout = game.layout()
        seen = self.seen()
        shows = self.tiles.shows
        moved = sorted(
            (c for c, p in layout.items() if c not in seen or not shows(seen[c], p.label)),
            key=order,
        )
        added = sorted((c for c in seen if c not in layout), key=order)
        turn.problem = ""
        if not moved and not added:
            turn.after = ""
            return
        if game.outcome is not None or turn.after:
            return  # the fixes on the OLED say what to do
        if turn.setting_up() and added:
            turn.problem = MARKERS_FIRST
            self.refuse(turn.problem)
            return
        if moved:
            if not game.history and all(p.owner is None for p in layout.values()):
                turn.problem = f"lay the start word {game.start_word}"
            else:
                letters = " ".join(layout[c].label for c in moved)
                turn.problem = f"put {letters} back on {', '.join(moved)}"
            self.refuse(turn.problem)
            return
        cell = added[0]
        letter = self.letter(seen[cell])
        if letter is None:
            turn.problem = self.strange_tile(cell)
            self.refuse(turn.problem)
            return
        self._commit(PlaceTile(cell, letter))

    def _commit(self, action: Action) -> None:
        game = self.game
        mover = mover_of(game, action)
        if mover not in range(game.players):
            mover = game.to_move  # a seat that does not exist: the rules refuse it
        self.turn.before = (mover, game.rack(mover))
        self.turn.note = ""
        self.commit(action)

    def on_refused(self, action: Action, verdict: Verdict) -> None:
        turn = self.turn
        reason = short_reason(action, verdict.reason)
        if isinstance(action, PlaceTile):
            turn.after = reason
            turn.said = ""
            turn.destroyed = ()
        else:
            turn.note = reason
        self.refuse(verdict.reason)

    def after_commit(self, action: Action, verdict: Verdict) -> None:
        game = self.game
        turn = self.turn
        mover, rack = turn.before
        sep = ": " if isinstance(action, PlaceTile | PlayBomb) else " "
        turn.said = f"{short(mover)}{sep}{happened(action, game.last_notes)}"
        turn.points = tuple(verdict.points(game.players))
        turn.after = ""
        turn.bomb = ""
        turn.column = ""
        turn.dealt = None
        turn.destroyed = tuple(verdict.removed)
        if verdict.removed:
            lost = f", {points_text(turn.points)}" if any(turn.points) else ""
            turn.after = turn.said + lost
        if game.to_move != mover or isinstance(action, TURNS) or game.outcome is not None:
            if isinstance(action, PlaceTile):
                rack.remove(action.letter.upper())
            kept = [] if isinstance(action, NewLetters) else list(rack)
            taken = list(game.rack(mover))
            for letter in kept:
                if letter in taken:
                    taken.remove(letter)
            if taken and game.outcome is None:
                turn.dealt = (mover, taken)
        self.on_board()

    # -- buttons ------------------------------------------------------------------
    def on_game_button(self, event: ButtonEvent) -> None:
        turn = self.turn
        turn.note = ""
        if event.name == "roll":
            turn.map_shown = not turn.map_shown
        elif turn.setting_up():
            if event.name == "ok":
                turn.shown += len(turn.page())
                self.on_board()
            elif event.name == "back":
                turn.shown = max(0, turn.shown - len(turn.page()))
        elif event.name == "ok":
            if turn.wants_fixes():
                turn.note = "Fix the board first."
            else:
                self._commit(EndTurn())
        elif event.name == "back":
            options = turn_menu(self.game)
            self.open_menu(Ask.TURN, f"{short(self.game.to_move)}: turn menu", options)

    def open_menu(
        self, action: str, title: str, options: list[tuple[str, Any]], subject: str = ""
    ) -> None:
        if not options:
            self.turn.note = "Nothing to choose now: lay a tile or press ok."
            return
        super().open_menu(action, title, options, subject)

    def take_back(self) -> None:
        """DoubleCross's own undo rules stand: only the last tile of the turn, while the
        turn has completed, destroyed and triggered nothing (the engine's ``Undo``)."""
        verdict = self.game.judge(Undo())
        if verdict.accepted:
            self._commit_fixed(Undo())
        else:
            self.refuse(f"DoubleCross takes back only the last tile of a turn: {verdict.reason}")

    def on_menu_choice(self, action: str, choice: Any) -> None:
        turn = self.turn
        if action == Ask.TURN and choice == Choice.NEW_LETTERS:
            self._commit_fixed(NewLetters())
        elif action == Ask.TURN and choice == Choice.UNDO:
            self._commit_fixed(Undo())
        elif action == Ask.TURN and choice == Choice.END_GAME:
            self._commit_fixed(EndGame(self.game.may_end))
        elif action == Ask.TURN:
            turn.bomb = str(choice)
            self.open_menu(Ask.COLUMN, f"Aim {turn.bomb}", COLUMN_MENU, subject="H8")
        elif action == Ask.COLUMN:
            turn.column = str(choice)
            self.open_menu(Ask.ROW, f"Aim {turn.bomb}", ROW_MENU, subject=f"{choice}1")
        elif action == Ask.ROW and turn.bomb:
            if turn.wants_fixes():
                turn.note = "Fix the board first."
                return
            self._commit(PlayBomb(turn.bomb, f"{turn.column}{choice}"))
        else:
            super().on_menu_choice(action, choice)

    def on_menu_button(self, event: ButtonEvent) -> None:
        menu = self.menu
        if event.name == "back" and menu is not None and self.menu_action in (Ask.COLUMN, Ask.ROW):
            self.turn.bomb = ""
            self.turn.column = ""
        super().on_menu_button(event)

    def _commit_fixed(self, action: Action) -> None:
        """A turn-menu action that needs the board as the layout says."""
        if self.turn.wants_fixes():
            self.turn.note = "Fix the board first."
            return
        self._commit(action)

    def pending_fixes(self) -> list[Fix]:
        return self.board_fixes() if self.wants_fixes() else []


REFEREE = DoubleCrossReferee
"""The game's referee, as its kit finds it."""
