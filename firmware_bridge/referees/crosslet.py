"""Crosslet on the RFID board: tiles read by tag, the turn judged on ``ok``, the rest on buttons.

How a turn goes at the table:

- **Whose bag.** The game option ``racks`` chooses (``games.crosslet``):

  - ``"dealt"`` (the default on a board without rack cells): the companion deals
    from its own seeded bag like a dealer: after every turn the OLED names the
    tiles the player takes, and it always shows the rack of the player to move
    (racks are open in Crosslet). It knows every rack: it gives hints, plays
    computer seats and takes the racks left at the end off the scores itself.
  - ``"table"``: the players draw from the table's own bag; after every turn the
    OLED says how many tiles to draw ("P1: draw 3 tiles"). Without rack cells the
    companion knows only how many tiles each rack holds; at the end it asks each
    player in turn to lay the tiles left on any empty cells and press ``ok``, reads
    them (``RevealRack``), has them cleared off, then shows the result.
  - **Rack cells** (a profile with ``[racks]``, e.g. ``rfid-15x15-racks-pico``): the
    referee switches a new game to the table's bag (``TableBag``, unless the game
    was started with ``racks = "dealt"``). Whenever a seat's rack cells settle
    holding as many tiles as its rack, it tells the engine (``SetRack``: "P2 rack
    seen"), so hints and computer seats work, and the count at the end reads the
    racks from their cells. Rack cells never count as laid tiles.

  The rack cells come from the profile the game was started on (its name in the
  journal); a profile that cannot be loaded by that name is taken to have none.
- **Lay, then ok.** Each tile carries a tag enrolled as its letter (``"E"``) or as
  ``"?"`` for a blank. The player lays the turn's tiles, anywhere, and presses
  ``ok``; the engine judges the whole placement. Accepted: the words with their
  points and the new total. Refused: the rules' reason (a word that is not a word,
  tiles not joined to the board, a first move off the centre, a tile not on the
  rack, ...) and the fixes that take the tiles back, one at a time on a map; the
  player may also change the tiles and press ``ok`` again.
- **A blank** is asked about as soon as it is laid: ``left``/``right`` walk A–Z,
  ``ok`` names it, ``back`` leaves it unnamed until the next ``ok``.
- **Hint**: a long press of ``ok`` shows the generator's best single-line placement
  for the rack.
- **Menu**: a short press of ``back`` offers *pass*, *exchange laid* and *hint*.
  To exchange, the player first lays the tiles to give back on any empty cells (the
  tags say which they are), then chooses *exchange laid*; the OLED then asks to put
  them in the bag and names the new ones. ``roll`` only reminds of the buttons; a
  long ``back`` offers to resign.

A board that senses occupancy only cannot tell the letters: the placement is refused
with a message naming the RFID board. A tag that was never enrolled is shown as
unknown, never guessed.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.core import Action, Pass, Piece, Resign, Verdict
from games.crosslet import (
    Crosslet,
    Exchange,
    ExchangeCount,
    PlaceTiles,
    RevealRack,
    SetRack,
    TableBag,
)
from games.crosslet_board import (
    ALL_CELLS,
    ALL_TILES_BONUS,
    BLANK,
    COLUMNS,
    RACK_SIZE,
    SIZE,
    TILE_COUNTS,
    FormedWord,
    formed_words,
    rack_points,
)
from hardware.board import OCCUPIED
from wiring.errors import ProfileError
from wiring.loader import load_profile

from ..events import ButtonEvent
from ..fixes import Fix
from ..referee import Referee
from ..screens import BoardMap, Screen, window

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

TURN_MENU: list[tuple[str, Any]] = [
    ("pass", "pass"),
    ("exchange laid", "exchange"),
    ("hint", "hint"),
]
"""The short ``back`` menu, in the order ``right`` walks it."""

MAP_COLUMNS = 3
MAP_ROWS = 5
"""The window of the board a fix screen maps around the cell it names."""

SWEEP_WAIT_S = 0.3
"""How long a simulated hand waits after laying tiles, for the RFID sweep to read them."""

_ORDER = {cell: i for i, cell in enumerate(ALL_CELLS)}
_TURNS = (PlaceTiles, Exchange, ExchangeCount, Pass, Resign)
"""The actions that are a player's turn (the others only tell the engine about racks)."""
_TURN_TYPES = frozenset(t.type for t in _TURNS)


def tile_letter(label: str) -> str | None:
    """The tile a tag's label names: ``"A"``–``"Z"``, ``"?"`` for a blank; None otherwise."""
    text = label.strip().upper()
    if text in (BLANK, "BLANK"):
        return BLANK
    if len(text) == 1 and text in LETTERS:
        return text
    return None


def _short(seat: int) -> str:
    return f"P{seat + 1}"


def _order(cell: str) -> int:
    return _ORDER.get(cell, len(_ORDER))


def _spell(tiles: list[str]) -> str:
    return " ".join(sorted(tiles, key=lambda t: (t == BLANK, t)))


def _words_text(words: list[FormedWord], tiles: int) -> str:
    parts = [f"{w.word} {w.points}" for w in words]
    if tiles == RACK_SIZE:
        parts.append(f"all 7 +{ALL_TILES_BONUS}")
    return ", ".join(parts)


def _points(words: list[FormedWord], tiles: int) -> int:
    return sum(w.points for w in words) + (ALL_TILES_BONUS if tiles == RACK_SIZE else 0)


def _tiles(n: int) -> str:
    return f"{n} tile{'s' if n != 1 else ''}"


def profile_racks(session: Any) -> dict[int, tuple[str, ...]]:
    """The rack cells, by seat, of the board's profile.

    The session's own profile when it has one; else the profile named in the journal.
    """
    if session.profile is not None:
        return dict(session.profile.racks)
    try:
        name = session.journal.game(session.game_id).profile
        return dict(load_profile(name).racks)
    except ProfileError:
        return {}


class CrossletReferee(Referee):
    game: Crosslet

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        self.rejection = ""
        """Why the last ``ok`` (or exchange) was refused; kept until the board is clear."""
        self.problem = ""
        """What is wrong with the board itself (a tile moved, a tag not a letter)."""
        self.clearing = ""
        """What to do with tiles left on the board after a pass or an exchange."""
        self.note = ""
        """A hint after a button that means nothing now."""
        self.laid: dict[str, str] = {}
        """The tiles laid this turn, in board order: cell → letter, ``"?"`` for a blank."""
        self.blanks: dict[str, str] = {}
        """The letter named for each laid blank, by cell."""
        self.asking = ""
        """The blank's cell the open letter menu asks about."""
        self.hint: PlaceTiles | None = None
        self.hint_asked = False
        self.dealt: tuple[int, list[str]] | None = None
        """Who took which tiles from the bag with the last action (dealt racks)."""
        self.drawn: tuple[int, int] | None = None
        """Who draws how many tiles from the table's bag after the last action."""
        self.rack_seen: tuple[int, list[str]] | None = None
        """The last rack the rack cells showed the engine."""
        self.rack_note = ""
        """Why a rack on its cells was not taken (a tile it cannot hold, a strange tag)."""
        self.last_turn: dict[str, Any] | None = None
        """The last turn played (the session's last move may be a rack being seen)."""
        racks = profile_racks(session)
        self.rack_cells: dict[int, tuple[str, ...]] = {
            seat: cells for seat, cells in racks.items() if seat < self.game.players
        }
        """Each seat's rack cells, from the profile."""
        self.rack_of = {cell: seat for seat, cells in self.rack_cells.items() for cell in cells}
        self._hand_rng: random.Random | None = None

    # -- geometry -----------------------------------------------------------------
    def grid(self) -> tuple[tuple[str | None, ...], ...]:
        return tuple(tuple(f"{c}{r}" for c in COLUMNS) for r in range(1, SIZE + 1))

    def mark(self, piece: Piece) -> str:
        return "solid"

    def board_map(self, focus: str | None = None) -> BoardMap:
        grid = window(self.grid(), focus, MAP_ROWS, MAP_COLUMNS)
        marks = dict.fromkeys(self.game.layout(), "solid")
        for cell in self.seen():
            marks.setdefault(cell, "hollow")
        return BoardMap(grid, marks, focus)

    def seen(self) -> dict[str, str]:
        """The settled board's game cells: rack cells and spare sensors left out."""
        return {c: v for c, v in self.session.observation.items() if c in _ORDER}

    def board_fixes(self) -> list[Fix]:
        """What must change on the game's cells so they match the layout."""
        return self.session.fixes()

    def pending_fixes(self) -> list[Fix]:
        return self.board_fixes() if self.wants_fixes() else []

    @property
    def table(self) -> bool:
        """Whether the players draw from the table's own bag."""
        return self.game.racks_mode == "table"

    # -- tags -----------------------------------------------------------------------
    def _letter(self, sensed: str) -> str | None:
        """The tile a sensed tag shows; None for an unknown tag or an untagged piece."""
        label = self.sensed_label(sensed)
        return None if label is None else tile_letter(label)

    def matches(self, piece: Piece, sensed: str) -> bool:
        if sensed == OCCUPIED:
            # A board without tag readers cannot tell one tile from another.
            return self.session.labels is None
        return self._letter(sensed) == tile_letter(piece.label)

    def _strange(self, cell: str) -> str:
        """Why the piece on ``cell`` is not a tile the referee can read."""
        sensed = self.session.observation[cell]
        labels = self.session.labels
        if labels is None:
            return (
                "this board cannot read letters: Crosslet needs tag readers "
                "(the rfid-15x15-pico profile)"
            )
        if sensed == OCCUPIED:
            return f"the tag on {cell} cannot be read: lift the tile and lay it again"
        label = labels(sensed)
        if label is None:
            return f"an unknown piece on {cell}: enrol its tag with tabletop enrol"
        return f"{cell} holds {label}, not a letter tile"

    # -- the board ------------------------------------------------------------------
    def on_board(self) -> None:
        game = self.game
        session = self.session
        if session.restoring:
            return
        if self._wants_table_bag():
            self._commit_quiet(TableBag())
        self.read_racks()
        if game.outcome is not None:
            if self.clearing and not self.board_fixes():
                self.clearing = ""
            return
        self.problem = ""
        self.note = ""
        self.laid = {}
        layout = game.layout()
        seen = self.seen()
        moved = sorted(
            (c for c, p in layout.items() if c not in seen or not self.matches(p, seen[c])),
            key=_order,
        )
        added = sorted((c for c in seen if c not in layout), key=_order)
        if not moved and not added:
            self.rejection = ""
            self.clearing = ""
            self.blanks.clear()
            self._forget_blank_menu()
            return
        if moved:
            tiles = " ".join(
                "the blank" if layout[c].label == BLANK else layout[c].label for c in moved
            )
            self._problem(f"put {tiles} back on {', '.join(moved)}")
            return
        if self.clearing:
            return
        for cell in added:
            letter = self._letter(seen[cell])
            if letter is None:
                self._problem(self._strange(cell))
                return
            self.laid[cell] = letter
        self.blanks = {c: v for c, v in self.blanks.items() if self.laid.get(c) == BLANK}
        self._forget_blank_menu()
        if not game.counting:
            # A blank laid out for the count stands for no letter.
            self._ask_blank()

    # -- racks ----------------------------------------------------------------------
    def read_racks(self) -> None:
        """Tell the engine each rack its cells show in full (or reveal it for the count)."""
        game = self.game
        if not self.table or game.outcome is not None:
            return
        seen = self.session.observation
        for seat, cells in self.rack_cells.items():
            on = [c for c in cells if c in seen]
            letters = [self._letter(seen[c]) for c in on]
            strange = next((c for c, v in zip(on, letters, strict=True) if v is None), None)
            if strange is not None:
                self.rack_note = f"{_short(seat)} rack: {self._strange(strange)}"
                continue
            tiles = sorted((v for v in letters if v is not None), key=lambda t: (t == BLANK, t))
            if len(tiles) != game.rack_size(seat):
                continue  # being drawn, or being laid out
            if game.rack_known(seat) and Counter(tiles) == Counter(game.rack(seat)):
                continue
            if game.counting:
                if seat not in game.waiting_for:
                    continue
                action: Action = RevealRack(seat, tuple(tiles))
            else:
                action = SetRack(seat, tuple(tiles))
            verdict = self.session.commit(action)
            if verdict.accepted:
                self.rack_seen = (seat, tiles)
                self.rack_note = ""
                if self.drawn is not None and self.drawn[0] == seat:
                    self.drawn = None
            else:
                self.rack_note = f"{_short(seat)} rack: {verdict.reason}"
                self.session.reject(verdict)
            if game.outcome is not None:
                return

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

    def _commit_quiet(self, action: Action) -> None:
        """Commit an action that is no turn and needs no words on the screen."""
        self.session.commit(action)

    def _forget_blank_menu(self) -> None:
        open_ = self.menu is not None and self.menu_action == "blank"
        if open_ and (self.laid.get(self.asking) != BLANK or self.asking in self.blanks):
            self.menu = None

    def _ask_blank(self) -> bool:
        """Open the letter menu for the first unnamed blank; whether one was asked."""
        if self.menu is not None and self.menu_action == "blank":
            return True
        for cell, letter in self.laid.items():
            if letter == BLANK and cell not in self.blanks:
                self.asking = cell
                self.open_menu("blank", f"Blank on {cell}", [(ch, ch) for ch in LETTERS])
                return True
        return False

    def _problem(self, reason: str) -> None:
        self.problem = reason
        self.session.reject(Verdict.reject(reason))

    def placement(self) -> PlaceTiles:
        """The tiles laid this turn as the engine's action (blanks as named so far)."""
        tiles = tuple(self.laid.items())
        blanks = tuple((c, self.blanks[c]) for c, v in self.laid.items() if c in self.blanks)
        return PlaceTiles(tiles, blanks)

    def _commit(self, action: Action) -> None:
        game = self.game
        mover = game.to_move
        before = game.rack(mover)
        size = game.rack_size(mover)
        verdict = self.session.commit(action)
        if not verdict.accepted:
            self.rejection = verdict.reason
            self.session.reject(verdict)
            return
        self.rejection = ""
        self.note = ""
        self.hint = None
        self.hint_asked = False
        self.blanks.clear()
        if isinstance(action, _TURNS):
            self.last_turn = self.session.last_move
            self.rack_seen = None
        used: list[str] = []
        if isinstance(action, PlaceTiles):
            used = [letter.upper() for _, letter in action.tiles]
        elif isinstance(action, Exchange):
            used = [letter.upper() for letter in action.letters]
            self.clearing = f"Put {_spell(used)} in the bag."
        elif isinstance(action, RevealRack):
            self.clearing = f"Clear {_short(action.player)}'s tiles off."
        if self.laid and not isinstance(action, PlaceTiles | Exchange | RevealRack):
            self.clearing = "Take the laid tiles back."
        self.dealt = None
        self.drawn = None
        if self.table:
            count = action.count if isinstance(action, ExchangeCount) else len(used)
            draws = game.rack_size(mover) - (size - count)
            if isinstance(action, _TURNS) and draws > 0:
                self.drawn = (mover, draws)
        else:
            kept = Counter(before) - Counter(used)
            taken = list((Counter(game.rack(mover)) - kept).elements())
            self.dealt = (mover, taken) if taken else None
        self.on_board()

    # -- buttons ------------------------------------------------------------------
    def on_game_button(self, event: ButtonEvent) -> None:
        self.note = ""
        if event.name == "ok" and event.long and not self.game.counting:
            self.show_hint()
        elif event.name == "ok":
            self.submit()
        elif event.name == "back" and self.game.counting:
            self.note = "Lay your tiles left on the board, then ok."
        elif event.name == "back":
            self.open_menu("turn", f"{_short(self.game.to_move)}: pass, exchange?", TURN_MENU)
        elif event.name == "roll":
            self.note = "ok: judge the tiles. back: menu. hold ok: hint."

    def submit(self) -> None:
        """Judge the tiles laid this turn (``ok``)."""
        if self.problem or self.clearing:
            self.note = "Fix the board first."
            return
        if not self.laid:
            self.note = "Lay tiles, then press ok."
            return
        if self.game.counting:
            self._commit(RevealRack(self.game.to_move, tuple(self.laid.values())))
            return
        if self._ask_blank():
            return
        self._commit(self.placement())

    def show_hint(self) -> None:
        self.hint = self.game.hint()
        self.hint_asked = True

    def on_menu_choice(self, action: str, choice: Any) -> None:
        if action == "blank":
            self.blanks[self.asking] = str(choice)
            self._ask_blank()
        elif action == "turn" and choice == "pass":
            self._commit(Pass())
        elif action == "turn" and choice == "exchange":
            if self.problem or self.clearing:
                self.note = "Fix the board first."
            elif not self.laid:
                self.note = "Lay the tiles to exchange on the board, then choose exchange."
            else:
                self._commit(Exchange(tuple(self.laid.values())))
        elif action == "turn" and choice == "hint":
            self.show_hint()
        else:
            super().on_menu_choice(action, choice)

    # -- words ----------------------------------------------------------------------
    def formed(self, action: PlaceTiles) -> list[FormedWord]:
        """The words a placement forms (before or after it is played), with their points."""
        board = self.game.board_letters()
        cells = [cell for cell, _ in action.tiles]
        if cells and all(cell in board for cell in cells):
            placed = {cell: board.pop(cell) for cell in cells}
        else:
            named = dict(action.blanks)
            placed = {
                cell: named.get(cell, BLANK).lower() if letter == BLANK else letter.upper()
                for cell, letter in action.tiles
            }
        return formed_words(board, placed)

    def describe(self, action: Action) -> str:
        if isinstance(action, PlaceTiles):
            return _words_text(self.formed(action), len(action.tiles))
        if isinstance(action, Exchange):
            return f"exchanges {_spell(list(action.letters))}"
        if isinstance(action, ExchangeCount):
            return f"exchanges {_tiles(action.count)}"
        if isinstance(action, SetRack):
            return f"{_short(action.player)} rack seen: {_spell(list(action.letters))}"
        if isinstance(action, RevealRack):
            return f"{_short(action.player)} shows {_spell(list(action.letters)) or 'no tiles'}"
        if isinstance(action, TableBag):
            return "plays from the table's bag"
        if isinstance(action, Pass):
            return "passes"
        if isinstance(action, Resign):
            return "resigns"
        return action.type

    def header(self) -> tuple[str, str]:
        game = self.game
        status = f"bag {game.bag_count}"
        if game.outcome is not None:
            return ("Game over", status)
        if game.counting:
            return (f"Count: {_short(game.to_move)}", status)
        return (f"{_short(game.to_move)} to play", status)

    def score_line(self) -> str:
        return " ".join(f"{_short(p)} {s}" for p, s in enumerate(self.game.scores()))

    def rack_line(self, seat: int) -> str:
        game = self.game
        if game.rack_known(seat):
            return f"Rack {_spell(game.rack(seat))}"
        size = game.rack_size(seat)
        if seat in self.rack_cells:
            return f"Rack not seen: {_tiles(size)}"
        return f"Rack: {_tiles(size)}"

    def last_line(self) -> str:
        """The last turn: the words and points of a placement, else what was done."""
        last = self.last_turn
        if last is None:
            moved = self.session.last_move
            last = moved if moved and moved["action"]["type"] in _TURN_TYPES else None
        if not last:
            return ""
        names = {self.game.seat_name(p): _short(p) for p in range(self.game.players)}
        mover = names.get(last["player"], last["player"])
        if last["action"]["type"] != PlaceTiles.type:
            return f"{mover} {last['text']}"
        gained = last["points"].get(last["player"], 0)
        return f"{mover}: {last['text']} = {gained}"

    def dealt_line(self) -> str:
        """Who takes which tiles (dealt racks), or who draws how many (the table's bag)."""
        if self.dealt is not None:
            seat, taken = self.dealt
            return f"{_short(seat)} takes {_spell(taken)}"
        if self.drawn is not None:
            seat, count = self.drawn
            return f"{_short(seat)}: draw {_tiles(count)}"
        if self.rack_seen is not None:
            return f"{_short(self.rack_seen[0])} rack seen"
        game = self.game
        if self.table and not any(isinstance(a, _TURNS) for a in game.history):
            return f"Each player: draw {RACK_SIZE}"
        return ""

    def hint_line(self) -> str:
        if not self.hint_asked:
            return ""
        hint = self.hint
        if hint is None and not self.game.rack_known(self.game.to_move):
            where = "its cells" if self.game.to_move in self.rack_cells else "rack cells"
            return f"Hint: the rack is not seen; it needs {where}."
        if hint is None:
            return "Hint: no word fits; exchange or pass."
        words = self.formed(hint)
        cells = {cell for cell, _ in hint.tiles}
        main = next((w for w in words if cells <= set(w.cells)), words[0])
        return f"Hint: {main.word} {main.cells[0]}-{main.cells[-1]} +{_points(words, len(cells))}"

    def preview_line(self) -> str:
        if self.game.counting:
            if not self.laid:
                return "on the board, then ok"
            return f"Laid {_spell(list(self.laid.values()))}: ok?"
        if not self.laid:
            return "Lay tiles, then ok."
        action = self.placement()
        words = self.formed(action)
        if not words:
            return f"Laid {_spell(list(self.laid.values()))}: ok?"
        return f"{_words_text(words, len(self.laid))}: ok?"

    def fix_text(self, fix: Fix) -> str:
        """A fix in a player's words: which tile goes where."""
        if fix.action == "lift":
            letter = tile_letter(fix.note) if fix.note and fix.note != "unknown" else None
            if letter is not None:
                name = "the blank" if letter == BLANK else letter
                return f"Lift {name} from {fix.cell}"
            return fix.text()
        if fix.piece is not None:
            name = "the blank" if fix.piece.label == BLANK else fix.piece.label
            return f"Put {name} on {fix.cell}"
        return fix.text()

    def wants_fixes(self) -> bool:
        return bool(self.rejection or self.problem or self.clearing)

    def screen(self) -> Screen:
        title, status = self.header()
        game = self.game
        fixes = self.board_fixes() if self.wants_fixes() else []
        if game.outcome is not None:
            if self.clearing and fixes:
                more = f" (1/{len(fixes)})" if len(fixes) > 1 else ""
                shown = (self.clearing, self.fix_text(fixes[0]) + more)
                return Screen(title, status, shown, self.board_map(fixes[0].cell))
            return Screen(title, status, self.result_lines())
        if self.menu is not None:
            return self.menu_screen()
        if fixes:
            why = self.problem or self.rejection
            first = f"No: {why}" if why else self.clearing
            more = f" (1/{len(fixes)})" if len(fixes) > 1 else ""
            shown = (first, self.fix_text(fixes[0]) + more)
            return Screen(title, status, shown, self.board_map(fixes[0].cell))
        if game.counting:
            return Screen(title, status, self.counting_lines())
        top = [self.note, self.hint_line()]
        if not any(top):
            top = [self.rack_note or self.last_line(), self.dealt_line()]
        lines = [*top, self.rack_line(game.to_move), self.preview_line(), self.score_line()]
        return Screen(title, status, tuple(line for line in lines if line))

    def counting_lines(self) -> tuple[str, ...]:
        """The count: who lays the tiles left on the board now."""
        game = self.game
        seat = game.to_move
        lines = [
            self.note or self.rack_note or "Game over: the count",
            f"{_short(seat)}: lay your {_tiles(game.rack_size(seat))}",
            self.preview_line(),
            self.score_line(),
        ]
        return tuple(line for line in lines if line)

    def menu_screen(self) -> Screen:
        menu = self.menu
        assert menu is not None
        if self.menu_action != "blank":
            return super().menu_screen()
        status = self.header()[1]
        lines = ("Which letter?", f"< {menu.choice} >", "left/right, then ok")
        return Screen(menu.title, status, lines)

    def result_lines(self) -> tuple[str, ...]:
        game = self.game
        outcome = game.outcome
        assert outcome is not None
        winners = " and ".join(_short(p) for p in outcome.winners)
        first = (
            "Draw" if outcome.draw else f"{winners} {'win' if len(outcome.winners) > 1 else 'wins'}"
        )
        out = game.went_out
        if out is not None:
            why = f"{_short(out)} went out."
        elif "scoreless" in outcome.reason:
            why = "Two scoreless rounds."
        else:
            why = outcome.reason[:1].upper() + outcome.reason[1:] + "."
        return (first, why, self.score_line(), self.racks_line())

    def racks_line(self) -> str:
        """What the racks left at the end took off (and gave the player who went out)."""
        game = self.game
        left: list[int] = [rack_points(game.rack(p)) for p in range(game.players)]
        parts = [f"{_short(p)} -{n}" for p, n in enumerate(left) if n]
        total: int = sum(left)
        out = game.went_out
        if out is not None and total:
            parts.insert(0, f"{_short(out)} +{total}")
        return "Racks: " + " ".join(parts) if parts else ""

    def extra_state(self) -> dict[str, Any]:
        game = self.game
        hint = None
        if self.hint is not None:
            words = self.formed(self.hint)
            hint = {
                **self.hint.to_dict(),
                "words": [{"word": w.word, "points": w.points} for w in words],
                "points": _points(words, len(self.hint.tiles)),
            }
        dealt = None
        if self.dealt is not None:
            dealt = {"player": game.seat_name(self.dealt[0]), "tiles": self.dealt[1]}
        preview = None
        if self.laid and not (self.problem or self.clearing):
            words = self.formed(self.placement())
            preview = {
                "words": [{"word": w.word, "points": w.points} for w in words],
                "points": _points(words, len(self.laid)),
            }
        drawn = None
        if self.drawn is not None:
            drawn = {"player": game.seat_name(self.drawn[0]), "count": self.drawn[1]}
        return {
            "bag": game.bag_count,
            "racks_mode": game.racks_mode,
            "racks": {game.seat_name(p): game.rack(p) for p in range(game.players)},
            "rack_sizes": {game.seat_name(p): game.rack_size(p) for p in range(game.players)},
            "counting": [game.seat_name(p) for p in game.waiting_for],
            "drawn": drawn,
            "laid": [list(t) for t in self.laid.items()],
            "blanks": [list(b) for b in self.blanks.items()],
            "preview": preview,
            "hint": hint,
            "dealt": dealt,
        }

    # -- simulation -----------------------------------------------------------------
    def piece_labels(self, cells: list[str], piece: str) -> list[str]:
        if len(cells) == 1:
            return [piece]  # one tile ("E", "?"), or a stray piece whose tag is no tile
        labels = list(piece)
        if len(labels) != len(cells) or not all(map(tile_letter, labels)):
            raise ValueError(
                "tiles are laid one letter a cell, ? for a blank: "
                f"'place H8,I8,J8 CA?', not {','.join(cells)} {piece}"
            )
        return [label.upper() for label in labels]

    def hand(self, action: Action) -> list[tuple[str, ...]]:
        if self.table:
            return self._table_hand(action)
        return self._dealt_hand(action)

    def _dealt_hand(self, action: Action) -> list[tuple[str, ...]]:
        steps: list[tuple[str, ...]] = []
        if isinstance(action, PlaceTiles):
            tiles = sorted(action.tiles, key=lambda t: _order(t[0]))
            named = dict(action.blanks)
            steps.append(("place", ",".join(c for c, _ in tiles), "".join(t for _, t in tiles)))
            steps.append(("wait", str(SWEEP_WAIT_S)))
            steps += [("blank", named[c]) for c, t in tiles if t == BLANK]
            steps.append(("press", "ok"))
            return steps
        if isinstance(action, Pass | Exchange):
            choice = "pass" if isinstance(action, Pass) else "exchange"
            index = [value for _, value in TURN_MENU].index(choice)
            cells: list[str] = []
            if isinstance(action, Exchange):
                taken = self.game.layout()
                cells = [c for c in ALL_CELLS if c not in taken][: len(action.letters)]
                steps.append(("place", ",".join(cells), "".join(action.letters)))
                steps.append(("wait", str(SWEEP_WAIT_S)))
                if BLANK in action.letters:
                    # Laying a blank asks for its letter; an exchange does not need one.
                    steps.append(("press", "back"))
            steps += [("press", "back"), *[("press", "right")] * index, ("press", "ok")]
            steps += [("lift", cell) for cell in cells]
            return steps
        if isinstance(action, Resign):
            return [("hold", "back"), ("press", "right"), ("press", "ok")]
        return []

    # The table's bag in simulation: the hand draws from the tiles neither on the
    # board nor on any rack cell, by its own seeded random source.
    def _table_hand(self, action: Action) -> list[tuple[str, ...]]:
        game = self.game
        seat = action.player if isinstance(action, SetRack | RevealRack) else game.to_move
        cells = self.rack_cells.get(seat)
        if cells is None:
            if isinstance(action, SetRack):
                raise ValueError(
                    f"{game.seat_name(seat)} has no rack cells on this board, so the computer "
                    "cannot show its rack: use a profile with rack cells "
                    "(--profile rfid-15x15-racks-pico) or let the companion deal (racks=dealt)"
                )
            return self._dealt_hand(action)
        rack = self._rack_tiles(seat)
        if isinstance(action, SetRack):
            missing = list((Counter(action.letters) - Counter(rack.values())).elements())
            return self._lay_on_rack(seat, missing, list(rack))
        if isinstance(action, PlaceTiles | Exchange):
            letters = (
                [t for _, t in action.tiles]
                if isinstance(action, PlaceTiles)
                else list(action.letters)
            )
            steps, freed = self._lift_from_rack(rack, letters)
            steps += self._dealt_hand(action)
            bag = self._physical_bag()
            if isinstance(action, Exchange):
                bag.update(t.upper() for t in letters)
            room = RACK_SIZE - (game.rack_size(seat) - len(letters))
            drawn = self._hand_random().sample(sorted(bag.elements()), min(room, bag.total()))
            return steps + self._lay_on_rack(seat, drawn, freed)
        return self._dealt_hand(action)

    def _rack_tiles(self, seat: int) -> dict[str, str]:
        """The tiles on a seat's rack cells, by cell."""
        seen = self.session.observation
        out: dict[str, str] = {}
        for cell in self.rack_cells.get(seat, ()):
            letter = self._letter(seen[cell]) if cell in seen else None
            if letter is not None:
                out[cell] = letter
        return out

    def _lift_from_rack(
        self, rack: dict[str, str], letters: list[str]
    ) -> tuple[list[tuple[str, ...]], list[str]]:
        """Steps that take ``letters`` off the rack cells, and the cells they free."""
        free = dict(rack)
        lifted: list[str] = []
        for letter in letters:
            cell = next((c for c, t in free.items() if t == letter.upper()), None)
            if cell is None:
                raise ValueError(f"the rack cells hold no {letter} to lay")
            del free[cell]
            lifted.append(cell)
        return [("lift", cell) for cell in lifted], lifted

    def _lay_on_rack(self, seat: int, tiles: list[str], freed: list[str]) -> list[tuple[str, ...]]:
        if not tiles:
            return []
        taken = set(self.session.observation) - set(freed)
        empty = [c for c in self.rack_cells[seat] if c not in taken]
        if len(empty) < len(tiles):
            raise ValueError(f"{_short(seat)}'s rack cells have no room for {_spell(tiles)}")
        cells = empty[: len(tiles)]
        return [("place", ",".join(cells), "".join(tiles)), ("wait", str(SWEEP_WAIT_S))]

    def _physical_bag(self) -> Counter[str]:
        """The tiles in the simulated bag: all 100 less the board and every rack cell."""
        bag = Counter(TILE_COUNTS)
        bag.subtract(p.label for p in self.game.layout().values())
        for seat in self.rack_cells:
            bag.subtract(self._rack_tiles(seat).values())
        return +bag

    def _hand_random(self) -> random.Random:
        if self._hand_rng is None:
            seed = self.session.journal.game(self.session.game_id).seed
            self._hand_rng = random.Random(seed)
        return self._hand_rng
