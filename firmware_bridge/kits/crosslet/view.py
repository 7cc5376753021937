"""What the OLED shows of a Crosslet game: the rack, the words laid, the fixes, the count."""

from __future__ import annotations

from typing import Any

from games.core import Action, Pass, Resign
from games.crosslet.board import (
    BLANK,
    COLUMNS,
    LETTER_MULTIPLIER,
    RACK_SIZE,
    SIZE,
    WORD_MULTIPLIER,
    rack_points,
)
from games.crosslet.game import (
    Crosslet,
    Exchange,
    ExchangeCount,
    PlaceTiles,
    RevealRack,
    SetRack,
    TableBag,
)

from ...referees.facts import Facts
from ...referees.fixes import Fix, FixAction
from ...referees.light_cells import Moved
from ...referees.view import NEW_GAME, LetteredBoardView
from ...screen.layout import KEEP
from ...screen.screens import Screen
from ...screen.whole_board import beside_the_map, whole_board
from .turn import (
    TURNS,
    CrossletTurn,
    formed,
    points,
    seat_racks,
    short,
    spell,
    tile_letter,
    tiles_text,
    words_text,
)


def few_words(text: str) -> str:
    """A placement's words short enough for a page of the OLED beside four scores:
    past two words, the first and how many more (the transcript has them all)."""
    parts = text.split(", ")
    bonus = [p for p in parts if p.startswith("all 7")]
    words = [p for p in parts if not p.startswith("all 7")]
    if len(words) > 2:
        words = [words[0], f"{len(words) - 1} more words"]
    return ", ".join(words + bonus)


class CrossletView(LetteredBoardView[Crosslet]):
    columns = COLUMNS
    size = SIZE

    turn: CrossletTurn

    def __init__(self, game: Crosslet, facts: Facts, turn: CrossletTurn) -> None:
        super().__init__(game, facts, turn)
        self.rack_cells = seat_racks(game, facts)
        """Each seat's rack cells, from the profile."""

    @property
    def table(self) -> bool:
        """Whether the players draw from the table's own bag."""
        return self.game.racks_mode == "table"

    # -- the map --------------------------------------------------------------------

    # -- words ----------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        if isinstance(action, PlaceTiles):
            return words_text(formed(self.game, action), len(action.tiles))
        if isinstance(action, Exchange):
            return f"exchanges {spell(list(action.letters))}"
        if isinstance(action, ExchangeCount):
            return f"exchanges {tiles_text(action.count)}"
        if isinstance(action, SetRack):
            return f"{short(action.player)} rack seen: {spell(list(action.letters))}"
        if isinstance(action, RevealRack):
            return f"{short(action.player)} shows {spell(list(action.letters)) or 'no tiles'}"
        if isinstance(action, TableBag):
            return "plays from the table's bag"
        if isinstance(action, Pass):
            return "passes"
        if isinstance(action, Resign):
            return "resigns"
        return action.type

    def instruct(self, action: Action) -> str:
        if isinstance(action, PlaceTiles):
            named = dict(action.blanks)
            laid = ", ".join(
                f"{named[cell].lower() if tile == BLANK else tile} {cell}"
                for cell, tile in action.tiles
            )
            return f"lay {laid}"
        if isinstance(action, Exchange):
            return f"exchange {spell(list(action.letters))} (back: menu)"
        if isinstance(action, Pass):
            return "pass (back: menu)"
        return super().instruct(action)

    def header(self) -> tuple[str, str]:
        game = self.game
        status = f"bag {game.bag_count}"
        if game.outcome is not None:
            return ("Game over", status)
        if game.counting:
            return (f"Count: {short(game.to_move)}", status)
        return (f"{short(game.to_move)} to play", status)

    def scores(self) -> tuple[str, ...]:
        return tuple(f"{short(p)} {s}" for p, s in enumerate(self.game.scores()))

    def rack_line(self, seat: int) -> str:
        game = self.game
        if game.rack_known(seat):
            return f"Rack {spell(game.rack(seat))}"
        size = game.rack_size(seat)
        if seat in self.rack_cells:
            return f"Rack not seen: {tiles_text(size)}"
        return f"Rack: {tiles_text(size)}"

    def last_line(self) -> str:
        """The last turn: the words and points of a placement, else what was done."""
        last = self.turn.last_turn
        if last is None:
            moved = self.facts.last
            last = moved if moved is not None and isinstance(moved.action, TURNS) else None
        if last is None:
            return ""
        mover = short(last.mover)
        if not isinstance(last.action, PlaceTiles):
            return f"{mover} {last.text}"
        return f"{mover}: {few_words(last.text)} = {last.points[last.mover]}"

    def dealt_line(self) -> str:
        """Who takes which tiles (dealt racks), or who draws how many (the table's bag)."""
        if self.turn.dealt is not None:
            seat, taken = self.turn.dealt
            return f"{short(seat)} takes {spell(taken)}"
        if self.turn.drawn is not None:
            seat, count = self.turn.drawn
            return f"{short(seat)}: draw {tiles_text(count)}"
        if self.turn.rack_seen is not None:
            return f"{short(self.turn.rack_seen[0])} rack seen"
        game = self.game
        if self.table and not any(isinstance(a, TURNS) for a in game.history):
            return f"Each player: draw {RACK_SIZE}"
        return ""

    def hint_line(self) -> str:
        if not self.turn.hint_asked or self.turn.laid:
            return ""  # laid tiles have their own preview: the hint has had its say
        hint = self.turn.hint
        if hint is None and not self.game.rack_known(self.game.to_move):
            where = "its cells" if self.game.to_move in self.rack_cells else "rack cells"
            return f"Hint: the rack is not seen; it needs {where}."
        if hint is None:
            return "Hint: no word fits; exchange or pass."
        words = formed(self.game, hint)
        cells = {cell for cell, _ in hint.tiles}
        main = next((w for w in words if cells <= set(w.cells)), words[0])
        return f"Hint: {main.word} {main.cells[0]}-{main.cells[-1]} +{points(words, len(cells))}"

    def preview_line(self) -> str:
        if self.game.counting:
            if not self.turn.laid:
                return "on the board, then ok"
            return f"Laid {spell(list(self.turn.laid.values()))}: ok?"
        if not self.turn.laid:
            return "Lay tiles, then ok."
        action = self.turn.placement()
        words = formed(self.game, action)
        if not words:
            return f"Laid {spell(list(self.turn.laid.values()))}: ok?"
        preview = words_text(words, len(self.turn.laid)).replace("all 7 +", f"all{KEEP}7{KEEP}+")
        return f"{preview}: ok?"

    def move_cells(self, action: Action, moved: Moved) -> Moved:
        """A word's tiles come from the mover's rack slots (where the profile has
        them): the slots whose tags show its letters are lit as its from."""
        slots = self.rack_cells.get(self.game.to_move, ())
        labels = self.facts.labels
        if not isinstance(action, PlaceTiles) or not slots or labels is None:
            return moved
        wanted = [letter.upper() for _, letter in action.tiles]
        seen = self.facts.observation
        frm: list[str] = []
        for cell in slots:
            label = labels(seen[cell]) if cell in seen else None
            letter = tile_letter(label) if label is not None else None
            if letter in wanted:
                wanted.remove(letter)
                frm.append(cell)
        return Moved(moved.frm + tuple(frm), moved.to)

    def fix_text(self, fix: Fix) -> str:
        """A fix in a player's words: which tile goes where."""
        if fix.action is FixAction.LIFT:
            letter = tile_letter(fix.note) if fix.note and fix.note != "unknown" else None
            if letter is not None:
                name = "the blank" if letter == BLANK else letter
                return f"Lift {name} from {fix.cell}"
            return fix.text()
        if fix.piece is not None:
            name = "the blank" if fix.piece.label == BLANK else fix.piece.label
            return f"Put {name} on {fix.cell}"
        return fix.text()

    def screen(self) -> Screen:
        title, status = self.header()
        game = self.game
        scores = self.scores()
        fixes = self.facts.board_fixes if self.turn.wants_fixes() else []
        if game.outcome is not None:
            if self.turn.clearing and fixes:
                more = f" (1/{len(fixes)})" if len(fixes) > 1 else ""
                prompt = self.fix_text(fixes[0]) + more
                board = self.board_map(fixes[0].cell)
                clearing = (self.turn.clearing,)
                return Screen(title, status, clearing, board, prompt=prompt, scores=scores)
            return Screen(title, status, self.result_lines(), prompt=NEW_GAME, scores=scores)
        if self.facts.prompt.menu is not None:
            return self.menu_screen()
        if fixes:
            why = self.turn.problem or self.turn.rejection
            first = f"No: {why}" if why else self.turn.clearing
            more = f" (1/{len(fixes)})" if len(fixes) > 1 else ""
            prompt = self.fix_text(fixes[0]) + more
            board = self.board_map(fixes[0].cell)
            return Screen(title, status, (first,), board, prompt=prompt, scores=scores)
        if game.counting:
            counting, prompt = self.counting_lines()
            return Screen(title, status, counting, prompt=prompt, scores=scores)
        if self.turn.map_shown and not self.turn.laid:
            return self.map_screen()
        top = [self.turn.note, self.hint_line()]
        if not any(top):
            top = [self.turn.rack_note or self.last_line(), self.dealt_line()]
        lines = tuple(line for line in [*top, self.rack_line(game.to_move)] if line)
        return Screen(title, status, lines, prompt=self.preview_line(), scores=scores)

    def map_screen(self) -> Screen:
        """The whole board (``roll``): the tiles laid and the bonus squares still open."""
        kinds: list[tuple[str, str]] = []
        for r, (letters, words) in enumerate(zip(LETTER_MULTIPLIER, WORD_MULTIPLIER, strict=True)):
            for c, (letter, word) in enumerate(zip(letters, words, strict=True)):
                if letter > 1 or word > 1:
                    kinds.append((f"{COLUMNS[c]}{r + 1}", "ring" if word > 1 else "special"))
        kinds += [(cell, "stable") for cell in self.game.layout()]
        picture = whole_board(kinds, COLUMNS, names=(("stable", "tiles"),))
        legend = ("Full: tile", "Dot: letter bonus", "Ring: word bonus", "roll: words")
        board = beside_the_map()
        return Screen("Map", " ", legend, board, picture=picture, scores=self.scores())

    def counting_lines(self) -> tuple[tuple[str, ...], str]:
        """The count: who lays the tiles left on the board now (lines and prompt)."""
        game = self.game
        seat = game.to_move
        lines = (
            self.turn.note or self.turn.rack_note or "Game over: the count",
            f"{short(seat)}: lay your {tiles_text(game.rack_size(seat))}",
        )
        return lines, self.preview_line()

    def menu_screen(self) -> Screen:
        menu = self.facts.prompt.menu
        assert menu is not None
        if not menu.subject:
            return super().menu_screen()
        status = self.header()[1]
        lines = ("Which letter?", f"< {menu.choice} >")
        return Screen(menu.title, status, lines, prompt="left/right, then ok", scores=self.scores())

    def result_lines(self) -> tuple[str, ...]:
        game = self.game
        outcome = game.outcome
        assert outcome is not None
        winners = " and ".join(short(p) for p in outcome.winners)
        first = (
            "Draw" if outcome.draw else f"{winners} {'win' if len(outcome.winners) > 1 else 'wins'}"
        )
        out = game.went_out
        if out is not None:
            why = f"{short(out)} went out."
        elif "scoreless" in outcome.reason:
            why = "Two scoreless rounds."
        else:
            why = outcome.reason[:1].upper() + outcome.reason[1:] + "."
        return tuple(line for line in (first, why, self.racks_line()) if line)

    def racks_line(self) -> str:
        """What the racks left at the end took off (and gave the player who went out)."""
        game = self.game
        left: list[int] = [rack_points(game.rack(p)) for p in range(game.players)]
        parts = [f"{short(p)} -{n}" for p, n in enumerate(left) if n]
        total: int = sum(left)
        out = game.went_out
        if out is not None and total:
            parts.insert(0, f"{short(out)} +{total}")
        return "Racks: " + " ".join(parts) if parts else ""

    def extra_state(self) -> dict[str, Any]:
        game = self.game
        hint = None
        if self.turn.hint is not None:
            words = formed(self.game, self.turn.hint)
            hint = {
                **self.turn.hint.to_dict(),
                "words": [{"word": w.word, "points": w.points} for w in words],
                "points": points(words, len(self.turn.hint.tiles)),
            }
        dealt = None
        if self.turn.dealt is not None:
            dealt = {"player": game.seat_name(self.turn.dealt[0]), "tiles": self.turn.dealt[1]}
        preview = None
        if self.turn.laid and not (self.turn.problem or self.turn.clearing):
            words = formed(self.game, self.turn.placement())
            preview = {
                "words": [{"word": w.word, "points": w.points} for w in words],
                "points": points(words, len(self.turn.laid)),
            }
        drawn = None
        if self.turn.drawn is not None:
            drawn = {"player": game.seat_name(self.turn.drawn[0]), "count": self.turn.drawn[1]}
        return {
            "bag": game.bag_count,
            "racks_mode": game.racks_mode,
            "racks": {game.seat_name(p): game.rack(p) for p in range(game.players)},
            "rack_sizes": {game.seat_name(p): game.rack_size(p) for p in range(game.players)},
            "counting": [game.seat_name(p) for p in game.waiting_for],
            "drawn": drawn,
            "laid": [list(t) for t in self.turn.laid.items()],
            "blanks": [list(b) for b in self.turn.blanks.items()],
            "preview": preview,
            "hint": hint,
            "dealt": dealt,
        }


VIEW = CrossletView
"""The game's view, as its kit finds it."""
