"""The simulated hand for DoubleCross: lay tiles one by one, lift what the rules take,
aim bombs and reach the turn menu with the station's buttons."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from games.core import Action, Pass, Resign
from games.doublecross.board import COLUMNS, DIRECTIONAL, SIZE
from games.doublecross.game import EndGame, EndTurn, NewLetters, PlaceTile, PlayBomb, Undo

from ...referees.fixes import FixAction
from ..hand import Hand, Step
from .referee import DoubleCrossReferee
from .turn import MARKERS_A_PAGE, Choice, tile_letter, turn_menu

SWEEP_WAIT_S = 0.3
"""How long a simulated hand waits after laying a tile, for the RFID sweep to read it."""
MENU_WORDS = {
    "newletters": Choice.NEW_LETTERS,
    "endgame": Choice.END_GAME,
    "undo": Choice.UNDO,
}
"""Script verbs that choose an entry of the turn menu."""


class DoubleCrossHand(Hand[DoubleCrossReferee]):
    def piece_labels(self, cells: list[str], piece: str) -> list[str]:
        if len(cells) == 1:
            return [piece]  # a tile ("E"), or a stray piece whose tag is no letter
        labels = list(piece)
        if len(labels) != len(cells) or not all(map(tile_letter, labels)):
            raise ValueError(
                "tiles are laid one letter a cell: "
                f"'place H9,H10 AT', not {','.join(cells)} {piece}"
            )
        return [label.upper() for label in labels]

    def not_the_movers(
        self, verb: str, cells: list[str], labels: list[str], board: Mapping[str, str]
    ) -> str | None:
        """A tile not on the mover's rack."""
        if verb != "place":
            return None
        game = self.referee.game
        rack = game.rack(game.to_move)
        layout = game.layout()
        left = Counter(rack)
        left.subtract(label for cell, label in board.items() if cell not in layout)
        for label in labels:
            if tile_letter(label) and left[label] <= 0:
                held = " ".join(sorted(rack)) or "nothing"
                return f"{game.seat_name(game.to_move)} has no {label} (the rack holds {held})"
            left[label] -= 1
        return None

    def steps(self, action: Action) -> list[Step]:
        steps = self.set_up() + self.fixes()
        if isinstance(action, PlaceTile):
            laid = ("place", action.cell, action.letter.upper())
            return [*steps, laid, ("wait", str(SWEEP_WAIT_S))]
        if isinstance(action, EndTurn | Pass):
            return [*steps, ("press", "ok")]
        if isinstance(action, PlayBomb):
            return steps + self.bomb(action.kind, action.cell)
        if isinstance(action, NewLetters):
            return steps + self.menu("newletters")
        if isinstance(action, EndGame):
            return steps + self.end_game(action)
        if isinstance(action, Undo):
            return steps + self.menu("undo")
        if isinstance(action, Resign):
            return [*steps, ("hold", "back"), ("press", "right"), ("press", "ok")]
        return steps

    def set_up(self) -> list[Step]:
        """``ok`` for every page of special-space markers the OLED still lists."""
        turn = self.referee.turn
        left = len(turn.markers) - turn.shown
        pages = -(-left // MARKERS_A_PAGE) if turn.setting_up() else 0
        return [("press", "ok")] * pages

    def fixes(self) -> list[Step]:
        """The lifts and placements the OLED waits for, as a player reading it makes them."""
        out: list[Step] = []
        for fix in self.referee.pending_fixes():
            if fix.action is FixAction.LIFT:
                out.append(("lift", fix.cell))
            elif fix.piece is not None:
                out.append(("place", fix.cell, fix.piece.label))
        return [*out, ("wait", str(SWEEP_WAIT_S))] if out else out

    # -- the script's own lines -------------------------------------------------------
    def script_steps(self, verb: str, args: tuple[str, ...]) -> list[Step] | None:
        """The steps of a script line only this game knows; None if it knows none."""
        if verb == "bomb":
            kind, cell = args[0].lower(), args[1].upper()
            return self.bomb(kind, cell)
        if verb in MENU_WORDS:
            return self.menu(verb)
        return None

    def check_script_line(self, verb: str, args: tuple[str, ...]) -> None:
        """Raise ValueError if a DoubleCross line's own words are wrong."""
        if verb == "bomb":
            if args[0].lower() not in DIRECTIONAL:
                raise ValueError(f"a directional bomb is ns, ew or nsew, not {args[0]!r}")
            cell = args[1].upper()
            if cell[:1] not in COLUMNS or not cell[1:].isdigit() or not 1 <= int(cell[1:]) <= SIZE:
                raise ValueError(f"there is no cell {args[1]!r} on this board (A1 to O15)")

    def menu(self, verb: str) -> list[Step]:
        """Open the turn menu with ``back``, walk to the entry, choose it."""
        choice = MENU_WORDS[verb]
        options = [value for _, value in turn_menu(self.referee.game)]
        if choice not in options:
            raise ValueError(_unavailable(verb, self.referee))
        index = options.index(choice)
        return [("press", "back"), *[("press", "right")] * index, ("press", "ok")]

    def end_game(self, action: EndGame) -> list[Step]:
        """The turn menu's "P1 ends the game": it ends the game for the last passer only."""
        game = self.referee.game
        last = game.may_end
        if last is not None and action.player not in (None, last):
            seat = action.player
            name = game.seat_name(seat) if seat in range(game.players) else f"seat {seat!r}"
            raise ValueError(
                f"{name} cannot end the game from the turn menu: it offers that only to "
                f"{game.seat_name(last)}, who made the last of the round of passes"
            )
        return self.menu("endgame")

    def bomb(self, kind: str, cell: str) -> list[Step]:
        """The bomb gesture: the turn menu's bomb, then the column and the row."""
        self.check_script_line("bomb", (kind, cell))
        options = [value for _, value in turn_menu(self.referee.game)]
        if kind not in options:
            tray = self.referee.game.tray(self.referee.game.to_move)
            held = ", ".join(tray) if tray else "no bombs"
            raise ValueError(f"there is no {kind} bomb to play: the tray holds {held}")
        steps: list[Step] = [("press", "back")]
        steps += [("press", "right")] * options.index(kind) + [("press", "ok")]
        steps += [("press", "right")] * COLUMNS.index(cell[0]) + [("press", "ok")]
        steps += [("press", "right")] * (int(cell[1:]) - 1) + [("press", "ok")]
        return steps


def _unavailable(verb: str, referee: DoubleCrossReferee) -> str:
    game = referee.game
    if verb == "endgame":
        return (
            "the game may be ended only by the last of a full round of passes "
            f"({game.players} in a row)"
        )
    if verb == "newletters":
        return "new letters only before a tile is laid this turn, and while the bag holds tiles"
    return "undo only takes back a tile of this turn that completed and destroyed nothing"


HAND = DoubleCrossHand
"""The game's simulated hand, as its kit finds it."""
