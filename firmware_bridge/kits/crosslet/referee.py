"""Crosslet on the RFID board: tiles read by tag, the turn judged on ``ok``, the rest on buttons.
How a turn goes at the table:

- **Whose bag.** The game option ``racks`` chooses (``games.crosslet.game``):

  - ``"dealt"`` (the default on a board without rack cells): the companion deals
    from its own seeded bag: after every turn the OLED names the tiles taken and
    shows the rack of the player to move (racks are open in Crosslet). It knows
    every rack: it gives hints, plays computer seats and counts the racks left.
  - ``"table"``: the players draw from the table's own bag ("P1: draw 3 tiles").
    Without rack cells the companion knows only how many tiles each rack holds; at
    the end each player in turn lays the tiles left on empty cells and presses
    ``ok``; they are read (``RevealRack``) and cleared off before the result.
  - **Rack cells** (a profile with ``[racks]``, e.g. ``rfid-15x15-racks-pico``): the
    referee switches a new game to the table's bag (``TableBag``, unless the game
    was started with ``racks = "dealt"``). Whenever a seat's rack cells settle
    holding as many tiles as its rack, it tells the engine (``SetRack``: "P2 rack
    seen"), so hints and computer seats work, and the count at the end reads the
    racks from their cells (those of the profile the game was started on). Rack
    cells never count as laid tiles.
- **Lay, then ok.** Each tile carries a tag enrolled as its letter (``"E"``) or as
  ``"?"`` for a blank. The player lays the turn's tiles, anywhere, and presses
  ``ok``; the engine judges the whole placement. Accepted: the words with their
  points and the new total. Refused: the rules' reason (not a word, not joined, off
  the centre, not on the rack, ...) and the fixes that take the tiles back, one at
  a time on a map; or the player changes the tiles and presses ``ok`` again.
- **A blank** is asked about as soon as it is laid: ``left``/``right`` walk A–Z,
  ``ok`` names it, ``back`` leaves it unnamed until the next ``ok``.
- **Hint**: a long press of ``ok`` shows the generator's best single-line placement
  for the rack, found off the loop's thread where the table has one.
- **Menu**: a short press of ``back`` offers *pass*, *exchange laid* and *hint*.
  To exchange, the player first lays the tiles to give back on any empty cells, then
  chooses *exchange laid*; the OLED asks to put them in the bag and names the new
  ones. ``roll`` only reminds of the buttons; a long ``back`` offers to resign.

A board that senses occupancy only cannot tell the letters: the placement is refused
naming the RFID board. A tag never enrolled is shown as unknown, never guessed.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import Any

from games.core import Action, Pass, Piece, Verdict
from games.crosslet.board import BLANK
from games.crosslet.game import (
    Crosslet,
    Exchange,
    ExchangeCount,
    PlaceTiles,
    RevealRack,
    SetRack,
    TableBag,
)

from ...referees.events import ButtonEvent
from ...referees.facts import Facts
from ...referees.fixes import Fix
from ...referees.referee import HintThinking, Referee, TagReader, cells_seen
from .turn import (
    LETTERS,
    ORDER,
    TURN_MENU,
    TURNS,
    CrossletTurn,
    label_letter,
    new_turn,
    order,
    short,
    spell,
    strange_tile,
    taken_tiles,
    tile_letter,
)
from .view import CrossletView

__all__ = ["CrossletReferee", "tile_letter"]


class Ask(StrEnum):
    BLANK = "blank"
    """The letter a laid blank stands for."""
    TURN = "turn"
    """Pass, exchange or a hint."""


class CrossletReferee(Referee[Crosslet]):
    view: CrossletView

    turn: CrossletTurn
    new_turn = staticmethod(new_turn)

    def __init__(
        self, game: Crosslet, facts: Facts, turn: CrossletTurn, view: CrossletView
    ) -> None:
        super().__init__(game, facts, turn, view)
        self.tiles = TagReader(facts, tile_letter)
        self.rack_cells = view.rack_cells
        """Each seat's rack cells, from the profile (read once, by the view)."""

    def seen(self) -> dict[str, str]:
        """The settled board's game cells: rack cells and spare sensors left out."""
        return cells_seen(self.facts.observation, ORDER)

    def wants_fixes(self) -> bool:
        return self.turn.wants_fixes()

    @property
    def table(self) -> bool:
        """Whether the players draw from the table's own bag."""
        return self.game.racks_mode == "table"

    # -- tags -----------------------------------------------------------------------
    def letter(self, sensed: str) -> str | None:
        """The tile a sensed tag shows; None for an unknown tag or an untagged piece."""
        return self.tiles.read(sensed)

    def matches(self, piece: Piece, sensed: str) -> bool:
        return self.tiles.shows(sensed, label_letter(piece.label))

    # -- the board ------------------------------------------------------------------
    def on_board(self) -> None:
        if self.facts.restoring:
            return
        if self._wants_table_bag():
            # No turn and no words on the screen; the board is read again once it is played.
            self.commit(TableBag())
            return
        self.turn.skip.clear()
        if not self.read_racks():
            self._judge_board()

    def _judge_board(self) -> None:
        """Read the tiles laid on the game's cells (the racks are read first)."""
        game = self.game
        turn = self.turn
        if game.outcome is not None:
            if turn.clearing and not self.board_fixes():
                turn.clearing = ""
            return
        turn.problem = ""
        turn.note = ""
        turn.laid = {}
        layout = game.layout()
        seen = self.seen()
        shows = self.tiles.shows
        moved = sorted(
            (
                c
                for c, p in layout.items()
                if c not in seen or not shows(seen[c], label_letter(p.label))
            ),
            key=order,
        )
        added = sorted((c for c in seen if c not in layout), key=order)
        if not moved and not added:
            turn.rejection = ""
            turn.clearing = ""
            turn.blanks.clear()
            self._forget_blank_menu()
            return
        if moved:
            tiles = " ".join(
                "the blank" if layout[c].label == BLANK else layout[c].label for c in moved
            )
            self._problem(f"put {tiles} back on {', '.join(moved)}")
            return
        if turn.clearing:
            return
        for cell in added:
            letter = self.letter(seen[cell])
            if letter is None:
                self._problem(strange_tile(self.facts, cell))
                return
            turn.laid[cell] = letter
        turn.blanks = {c: v for c, v in turn.blanks.items() if turn.laid.get(c) == BLANK}
        self._forget_blank_menu()
        if not game.counting:
            # A blank laid out for the count stands for no letter.
            self._ask_blank()

    # -- racks ----------------------------------------------------------------------
    def read_racks(self) -> bool:
        """Tell the engine the first rack its cells show in full (or reveal it for the
        count); whether one is told. The next is read once this one is played."""
        game = self.game
        if not self.table or game.outcome is not None:
            return False
        seen = self.facts.observation
        for seat, cells in self.rack_cells.items():
            if seat in self.turn.skip:
                continue
            on = [c for c in cells if c in seen]
            letters = [self.letter(seen[c]) for c in on]
            strange = next((c for c, v in zip(on, letters, strict=True) if v is None), None)
            if strange is not None:
                self.turn.rack_note = f"{short(seat)} rack: {strange_tile(self.facts, strange)}"
                continue
            tiles = sorted((v for v in letters if v is not None), key=lambda t: (t == BLANK, t))
            if len(tiles) != game.rack_size(seat):
                continue  # being drawn, or being laid out
            if game.rack_known(seat) and Counter(tiles) == Counter(game.rack(seat)):
                continue
            if game.counting:
                if seat not in game.waiting_for:
                    continue
                self.commit(RevealRack(seat, tuple(tiles)))
            else:
                self.commit(SetRack(seat, tuple(tiles)))
            return True
        return False

    def _wants_table_bag(self) -> bool:
        """A new game on a board with rack cells plays from the table's bag, unless the
        game was started with racks = "dealt" on purpose."""
        game = self.game
        return (
            bool(self.rack_cells)
            and game.racks_mode == "dealt"
            and not game.history
            and "racks" not in game.options
        )

    def _forget_blank_menu(self) -> None:
        turn = self.turn
        open_ = self.menu is not None and self.menu_action == Ask.BLANK
        if open_ and (turn.laid.get(turn.asking) != BLANK or turn.asking in turn.blanks):
            self.menu = None

    def _ask_blank(self) -> bool:
        """Ask for the first unnamed blank in reading order; whether one is asked.

        Tiles laid together may settle one after another: a blank settling before
        one earlier in reading order is asked about after it, whatever came first.
        """
        turn = self.turn
        for cell, letter in turn.laid.items():
            if letter == BLANK and cell not in turn.blanks:
                asked = self.menu is not None and self.menu_action == Ask.BLANK
                if asked and turn.asking == cell:
                    return True
                turn.asking = cell
                options = [(ch, ch) for ch in LETTERS]
                self.open_menu(Ask.BLANK, f"Blank on {cell}", options, subject=cell)
                return True
        return self.menu is not None and self.menu_action == Ask.BLANK

    def _problem(self, reason: str) -> None:
        self.turn.problem = reason
        self.refuse(reason)

    def _commit(self, action: Action) -> None:
        game = self.game
        mover = game.to_move
        self.turn.before = (mover, game.rack(mover), game.rack_size(mover))
        self.commit(action)

    def on_refused(self, action: Action, verdict: Verdict) -> None:
        turn = self.turn
        if isinstance(action, SetRack | RevealRack) and action is not turn.submitted:
            turn.rack_note = f"{short(action.player)} rack: {verdict.reason}"
            self.refuse(verdict.reason)
            turn.skip.add(action.player)
            if not self.read_racks():
                self._judge_board()
            return
        turn.submitted = None
        turn.rejection = verdict.reason
        self.refuse(verdict.reason)

    def after_commit(self, action: Action, verdict: Verdict) -> None:
        if isinstance(action, TableBag):
            self.on_board()
        elif isinstance(action, SetRack | RevealRack) and action is not self.turn.submitted:
            self._rack_seen(action)
        else:
            self._turn_played(action)

    def _rack_seen(self, action: SetRack | RevealRack) -> None:
        turn = self.turn
        turn.rack_seen = (action.player, list(action.letters))
        turn.rack_note = ""
        if turn.drawn is not None and turn.drawn[0] == action.player:
            turn.drawn = None
        if not self.read_racks():
            self._judge_board()

    def _turn_played(self, action: Action) -> None:
        game = self.game
        turn = self.turn
        mover, before, size = turn.before
        turn.submitted = None
        turn.rejection = ""
        turn.note = ""
        turn.hint = None
        turn.hint_asked = turn.map_shown = False
        turn.blanks.clear()
        if isinstance(action, TURNS):
            turn.last_turn = self.facts.last
            turn.rack_seen = None
        used: list[str] = []
        if isinstance(action, PlaceTiles):
            used = [letter.upper() for _, letter in action.tiles]
        elif isinstance(action, Exchange):
            used = [letter.upper() for letter in action.letters]
            turn.clearing = f"Put {spell(used)} in the bag."
        elif isinstance(action, RevealRack):
            turn.clearing = f"Clear {short(action.player)}'s tiles off."
        if turn.laid and not isinstance(action, PlaceTiles | Exchange | RevealRack):
            turn.clearing = "Take the laid tiles back."
        turn.dealt = None
        turn.drawn = None
        if self.table:
            count = action.count if isinstance(action, ExchangeCount) else len(used)
            draws = game.rack_size(mover) - (size - count)
            if isinstance(action, TURNS) and draws > 0:
                turn.drawn = (mover, draws)
        else:
            taken = taken_tiles(before, used, game.rack(mover))
            turn.dealt = (mover, taken) if taken else None
        self.on_board()

    # -- buttons ------------------------------------------------------------------
    def on_game_button(self, event: ButtonEvent) -> None:
        turn = self.turn
        turn.note = ""
        if event.name == "ok" and event.long:
            self.show_hint()
        elif event.name == "ok":
            self.submit()
        elif event.name == "back" and self.game.counting:
            turn.note = "Lay your tiles left on the board, then ok."
        elif event.name == "back":
            self.open_menu(Ask.TURN, f"{short(self.game.to_move)}: pass, exchange?", TURN_MENU)
        elif event.name == "roll":
            turn.map_shown = not turn.map_shown

    def submit(self) -> None:
        """Judge the tiles laid this turn (``ok``)."""
        turn = self.turn
        if turn.problem or turn.clearing:
            turn.note = "Fix the board first."
            return
        if not turn.laid:
            turn.note = "Lay tiles, then press ok."
            return
        if self.game.counting:
            reveal = RevealRack(self.game.to_move, tuple(turn.laid.values()))
            self.turn.submitted = reveal
            self._commit(reveal)
            return
        if self._ask_blank():
            return
        self._commit(turn.placement())

    def show_hint(self) -> None:
        """The word and its points, thought on the table's worker (``facts.think_hint``)."""
        if self.game.counting:
            self.turn.note = "No hints while the racks are counted."
            return
        think = self.facts.think_hint
        try:
            hint = self.game.hint() if think is None else think(self.game, self.game.hint)
        except HintThinking:  # shown when it comes (HintCame)
            return
        except ValueError:  # no placement fits the rack
            hint = None
        self.turn.hint = hint if isinstance(hint, PlaceTiles) else None
        self.turn.hint_asked = True

    def hinted(self) -> Action | None:
        return self.turn.hint if self.turn.hint_asked and not self.turn.laid else None

    def on_menu_choice(self, action: str, choice: Any) -> None:
        turn = self.turn
        if action == Ask.BLANK:
            turn.blanks[turn.asking] = str(choice)
            self._ask_blank()
        elif action == Ask.TURN and choice == "pass":
            self._commit(Pass())
        elif action == Ask.TURN and choice == "exchange":
            if turn.problem or turn.clearing:
                turn.note = "Fix the board first."
            elif not turn.laid:
                turn.note = "Lay the tiles to exchange on the board, then choose exchange."
            else:
                self._commit(Exchange(tuple(turn.laid.values())))
        elif action == Ask.TURN and choice == "hint":
            self.show_hint()
        else:
            super().on_menu_choice(action, choice)

    def pending_fixes(self) -> list[Fix]:
        return self.board_fixes() if self.wants_fixes() else []


REFEREE = CrossletReferee
"""The game's referee, as its kit finds it."""
