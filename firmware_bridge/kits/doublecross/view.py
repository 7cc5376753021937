"""What the OLED shows of a DoubleCross game: what each tile made, the fixes, the map."""

from __future__ import annotations

from typing import Any

from games.core import Action
from games.doublecross.board import BLOCK, COLUMNS, DIRECTIONAL, SIZE
from games.doublecross.game import DoubleCross, EndGame, EndTurn, NewLetters, PlaceTile, PlayBomb

from ...referees.fixes import Fix, FixAction
from ...referees.light_cells import Lit
from ...referees.view import NEW_GAME, LetteredBoardView
from ...screen.palette import DESTROYED, SPOT
from ...screen.screens import BoardMap, Screen
from ...screen.whole_board import PATTERN_NAMES, WholeBoard, beside_the_map, whole_board
from .turn import (
    MARKERS_FIRST,
    Ask,
    DoubleCrossTurn,
    aim_cursor,
    happened,
    points_text,
    settled_text,
    short,
    spell,
    tile_letter,
)


class DoubleCrossView(LetteredBoardView[DoubleCross]):
    columns = COLUMNS
    size = SIZE

    turn: DoubleCrossTurn

    # -- the maps -------------------------------------------------------------------
    def board_map(self, focus: str | tuple[str, ...] | None = None) -> BoardMap:
        return self.window_map(focus if isinstance(focus, str) else None)

    def beside_the_map(self) -> BoardMap:
        return beside_the_map()

    def whole_board(self, focus: str | None = None) -> WholeBoard:
        """Every tile, stable or whose, and the special spaces left."""
        kinds: list[tuple[str, str]] = []
        layout = self.game.layout()
        for cell, kind in self.game.specials().items():
            if cell not in layout:
                kinds.append((cell, "block" if kind == BLOCK else "special"))
        for cell, piece in layout.items():
            stable = piece.state == "stable" or piece.owner is None
            kinds.append((cell, "stable" if stable else f"seat{piece.owner}"))
        return whole_board(kinds, COLUMNS, focus, (("stable", "stable"), ("seat", "unstable")))

    # -- words ----------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        return happened(action, self.game.last_notes)

    def story(self, action: Action) -> str:
        cell = action.cell if isinstance(action, PlaceTile) else ""
        return self.describe(action) + settled_text(self.game.last_notes, cell)

    def opening(self) -> tuple[str, ...]:
        game = self.game
        cells = game.start_cells
        word = f"Start word: {game.start_word.upper()} on {cells[0]}-{cells[-1]}"
        specials = ", ".join(f"{cell} {kind}" for cell, kind in game.specials().items())
        return (word, f"Special spaces: {specials}") if specials else (word,)

    def instruct(self, action: Action) -> str:
        if isinstance(action, PlaceTile):
            return f"lay {action.letter.upper()} on {action.cell}"
        if isinstance(action, PlayBomb):
            return f"bomb {action.kind} on {action.cell} (back: menu)"
        if isinstance(action, EndTurn):
            return "press ok to end the turn"
        if isinstance(action, NewLetters):
            return "new letters (back: menu)"
        if isinstance(action, EndGame) and action.player is not None:
            return f"{short(action.player)} ends the game (back: menu)"
        return super().instruct(action)

    def first_things(self) -> bool:
        return self.turn.setting_up() and self.game.outcome is None

    def header(self) -> tuple[str, str]:
        game = self.game
        status = f"bag {game.bag_count}"
        if game.outcome is not None:
            return ("Game over", status)
        if self.turn.setting_up():
            return ("Set-up", status)
        return (f"{short(game.to_move)} to play", status)

    def scores(self) -> tuple[str, ...]:
        return tuple(f"{short(p)} {s}" for p, s in enumerate(self.game.scores()))

    def rack_line(self) -> str:
        game = self.game
        seat = game.to_move
        line = f"Rack {''.join(sorted(game.rack(seat))) or '-'}"
        tray = game.tray(seat)
        return f"{line} +{','.join(tray)}" if tray else line

    def fix_text(self, fix: Fix) -> str:
        if fix.action is FixAction.LIFT:
            letter = tile_letter(fix.note) if fix.note and fix.note != "unknown" else None
            return f"Lift {letter} from {fix.cell}" if letter else fix.text()
        if fix.piece is not None:
            return f"Put {fix.piece.label} on {fix.cell}"
        return fix.text()

    def prompt(self) -> str:
        game = self.game
        if game.may_end is not None:
            return f"{short(game.may_end)} may end: back"
        if game.state.laid or game.state.bombs:
            return "Tile, or ok: end turn"
        return "Lay a tile; ok: pass"

    # -- screens --------------------------------------------------------------------
    def screen(self) -> Screen:
        title, status = self.header()
        game = self.game
        turn = self.turn
        scores = self.scores()
        fixes = self.facts.board_fixes if turn.wants_fixes() else []
        if self.facts.prompt.menu is not None:
            return self.menu_screen()
        if turn.setting_up() and game.outcome is None:
            return self.markers_screen()
        if fixes:
            first = turn.after or f"No: {turn.problem}"
            more = f" (1/{len(fixes)})" if len(fixes) > 1 else ""
            prompt = self.fix_text(fixes[0]) + more
            board = self.board_map(fixes[0].cell)
            return Screen(title, status, (first,), board, prompt=prompt, scores=scores)
        if game.outcome is not None:
            return Screen(title, status, self.result_lines(), prompt=NEW_GAME, scores=scores)
        if turn.map_shown:
            seats = [f"{short(p)} {PATTERN_NAMES[p]}" for p in range(game.players)]
            legend = ("Filled:", "stable", *seats, "Dot: space")
            board = self.beside_the_map()
            picture = self.whole_board()
            return Screen("Map", " ", legend, board, picture=picture, scores=scores)
        second = points_text(turn.points) if any(turn.points) else ""
        if turn.dealt is not None and not second and game.may_end is None:
            seat, taken = turn.dealt
            second = f"{short(seat)} takes {spell(taken)}"
        lines = tuple(line for line in (turn.note or turn.said, second, self.rack_line()) if line)
        return Screen(title, status, lines, prompt=self.prompt(), scores=scores)

    def markers_screen(self) -> Screen:
        """Where the markers of the special spaces go, a few a screen, all of them on
        it at once (the header counts the ones shown); no scores yet. A tile laid
        meanwhile is refused here, with the cell to clear."""
        turn = self.turn
        fixes = self.facts.board_fixes if turn.problem == MARKERS_FIRST else []
        lifts = [f for f in fixes if f.action is FixAction.LIFT]
        if lifts:
            prompt = self.fix_text(lifts[0]) + (f" (1/{len(lifts)})" if len(lifts) > 1 else "")
            board = self.board_map(lifts[0].cell)
            return Screen("Set-up", "", (f"No: {turn.problem}",), board, prompt=prompt)
        page = turn.page()
        total = len(turn.markers)
        first, last = turn.shown + 1, turn.shown + len(page)
        where = f"{first}/{total}" if first == last else f"{first}-{last}/{total}"
        lines = tuple(marker_words(m) for m in page)
        done = last >= total
        prompt = "ok: the start word" if done else "ok: next markers"
        return Screen(f"Markers {where}", "", lines, prompt=prompt)

    def menu_screen(self) -> Screen:
        menu = self.facts.prompt.menu
        assert menu is not None
        if self.facts.prompt.menu_action not in (Ask.COLUMN, Ask.ROW):
            return super().menu_screen()
        cursor = aim_cursor(self.facts.prompt, self.turn)
        what = "Column" if self.facts.prompt.menu_action == Ask.COLUMN else "Row"
        lines = (f"{what}? {menu.choice}", "left/right", "ok: choose", "back: stop")
        board = self.beside_the_map()
        picture = self.whole_board(cursor)
        return Screen(menu.title, " ", lines, board, picture=picture, scores=self.scores())

    def result_lines(self) -> tuple[str, ...]:
        game = self.game
        outcome = game.outcome
        assert outcome is not None
        winners = " and ".join(short(p) for p in outcome.winners)
        verb = "win" if len(outcome.winners) > 1 else "wins"
        first = "Draw" if outcome.draw else f"{winners} {verb}"
        why = outcome.reason[:1].upper() + outcome.reason[1:] + "."
        lines = [first, why]
        # The end penalties, each kind on its own line: tiles left on a rack, and
        # unstable tiles left on the board.
        for kind, label in (("rack-penalty", "Racks"), ("unstable-penalty", "Unstable")):
            totals: dict[int, int] = {}
            for note in game.last_notes:
                if note.kind == kind and note.player is not None:
                    totals[note.player] = totals.get(note.player, 0) + note.points
            if totals:
                each = " ".join(f"{short(p)} {n}" for p, n in sorted(totals.items()))
                lines.append(f"{label}: {each}")
        return tuple(lines)

    def fix_colour(self, fix: Fix, first: bool) -> str:
        """A tile the last action destroyed is lit as destroyed until it is lifted."""
        if fix.action is FixAction.LIFT and self.turn.after and fix.cell in self.turn.destroyed:
            return DESTROYED
        return super().fix_colour(fix, first)

    def lights(self, hint: Action | None) -> Lit:
        """The bomb's cursor while it is aimed."""
        cursor = aim_cursor(self.facts.prompt, self.turn)
        return {cursor: SPOT} if cursor is not None else {}

    def extra_state(self) -> dict[str, Any]:
        game = self.game
        turn = self.turn
        dealt = None
        if turn.dealt is not None:
            dealt = {"player": game.seat_name(turn.dealt[0]), "tiles": turn.dealt[1]}
        return {
            "bag": game.bag_count,
            "racks": {game.seat_name(p): game.rack(p) for p in range(game.players)},
            "trays": {game.seat_name(p): game.tray(p) for p in range(game.players)},
            "specials": game.specials(),
            "bonus_value": game.bonus_value,
            "may_end": None if game.may_end is None else game.seat_name(game.may_end),
            "happened": [n.to_dict() for n in game.last_notes],
            "said": turn.said,
            "dealt": dealt,
            "markers": turn.page() if turn.setting_up() else [],
            "bomb": (
                {"kind": turn.bomb, "cursor": aim_cursor(self.facts.prompt, turn)}
                if turn.bomb
                else None
            ),
        }


def marker_words(marker: str) -> str:
    """A set-up marker in a player's words: ``C4: bomb-2`` is ``C4 P2 bomb``,
    ``G2: ns`` is ``G2 bomb ns``."""
    cell, _, kind = marker.partition(":")
    kind = kind.strip()
    if kind.startswith("bomb-") and kind[5:].isdigit():
        kind = f"P{kind[5:]} bomb"
    elif kind in DIRECTIONAL:
        kind = f"bomb {kind}"
    return f"{cell} {kind}"


VIEW = DoubleCrossView
"""The game's view, as its kit finds it."""
