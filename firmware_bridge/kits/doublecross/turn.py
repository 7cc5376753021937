"""Where a DoubleCross turn stands at the table, and the words for what a tile made."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from msgspec import Struct, field

from games.core import Action, Pass, Resign
from games.doublecross.board import ALL_CELLS, COLUMNS, DIRECTIONAL, SIZE
from games.doublecross.game import (
    DoubleCross,
    EndGame,
    EndTurn,
    NewLetters,
    PlaceTile,
    PlayBomb,
    Undo,
)
from games.doublecross.score import Note

from ...referees.facts import Facts
from ...referees.prompt import Prompt
from ...screen.layout import KEEP

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ORDER = {cell: i for i, cell in enumerate(ALL_CELLS)}
MARKERS_A_PAGE = 3
"""Special-space markers listed on one set-up screen."""
MARKERS_FIRST = "the markers first: lift the tile, then ok shows the next markers"
"""Why a tile laid while the set-up lists the markers is refused."""
TURNS = (EndTurn, NewLetters, EndGame, Pass, Resign)
"""The actions that end a turn (or the game); the racks are refilled after them."""


class Ask(StrEnum):
    TURN = "turn"
    """New letters, a bomb, undo, end the game."""
    COLUMN = "bomb-column"
    """The column a directional bomb goes off in."""
    ROW = "bomb-row"
    """The row a directional bomb goes off in."""


class Choice(StrEnum):
    """The turn menu's entries other than the bombs (``bomb ns`` ...)."""

    NEW_LETTERS = "newletters"
    UNDO = "undo"
    END_GAME = "endgame"


def short(seat: int | None) -> str:
    return "nobody" if seat is None else f"P{seat + 1}"


def order(cell: str) -> int:
    return ORDER.get(cell, len(ORDER))


def tile_letter(label: str) -> str | None:
    """The letter a tag's label names (``"E"``); None for anything else."""
    text = label.strip().upper()
    return text if len(text) == 1 and text in LETTERS else None


def spell(tiles: Sequence[str]) -> str:
    return " ".join(sorted(tiles))


def points_text(points: Sequence[int]) -> str:
    """``"P1 +12 P2 +4"``: who gained or lost what (a seat and its points never split
    over two lines of the screen); ``"no points"`` when nobody did."""
    parts = [f"{short(p)}{KEEP}{n:+d}" for p, n in enumerate(points) if n]
    return " ".join(parts) if parts else "no points"


def happened(action: Action, notes: Sequence[Note]) -> str:
    """What a tile or a bomb made, in a few words: partial, complete, destroyed."""
    if isinstance(action, PlaceTile):
        where = f"{action.letter.upper()} on {action.cell}"
        lost = [n for n in notes if n.kind == "destroyed" and action.cell in n.cells]
        placed = next((n for n in notes if n.kind == "placed"), None)
        if placed is None and lost:
            return f"{where} destroyed"
        words = [str(dict(n.extra)["word"]) for n in notes if n.kind == "completed"]
        if words:
            text = f"{where} complete: {', '.join(words)}"
        else:
            runs = dict(placed.extra).get("runs", "") if placed is not None else ""
            text = f"{where} partial: {runs}"
        if lost:
            text += ", then destroyed"
        return text + special_text(notes)
    if isinstance(action, PlayBomb):
        gone = sum(1 for n in notes if n.kind == "destroyed")
        words = [str(dict(n.extra)["word"]) for n in notes if n.kind == "completed"]
        text = f"{action.kind} bomb on {action.cell}: {gone} destroyed"
        return text + (f", {', '.join(words)}" if words else "")
    if isinstance(action, NewLetters):
        return "new letters"
    if isinstance(action, EndGame):
        return "ends the game"
    if isinstance(action, Undo):
        return "takes the tile back"
    if isinstance(action, EndTurn | Pass):
        passed = any(n.kind == "pass" for n in notes)
        return "passes" if passed else "ends the turn"
    if isinstance(action, Resign):
        return "resigns"
    return action.type


def settled_text(notes: Sequence[Note], cell: str) -> str:
    """The other tiles the move destroyed as the board settled, and whose they were."""
    gone = [n for n in notes if n.kind == "destroyed" and cell not in n.cells]
    if not gone:
        return ""
    said = [n.text + (f", {short(n.player)} {n.points:+d}" if n.points else "") for n in gone]
    return "; " + "; ".join(said)


def special_text(notes: Sequence[Note]) -> str:
    """What a special space under a tile did, for the line about the tile."""
    for note in notes:
        extra = dict(note.extra)
        if note.kind == "bonus":
            return f"; bonus +{extra['value']}"
        if note.kind == "pickup":
            return f"; {extra['bomb']} bomb +{note.points}"
        if note.kind == "coloured-bomb":
            if extra.get("defused"):
                return f"; own bomb defused +{note.points}"
            return f"; {short(extra.get('bomb'))}'s bomb +{note.points}"
        if note.kind == "mystery":
            return "; mystery: nothing"
    return ""


def short_reason(action: Action, reason: str) -> str:
    """A refusal in words that fit the OLED (the ``--json`` verdict keeps the whole)."""
    if isinstance(action, PlaceTile) and reason.startswith("refused:"):
        return f"{action.letter.upper()} on {action.cell} refused: no stable letter"
    head = reason.split(" (", 1)[0]
    return head[:1].upper() + head[1:]


def turn_menu(game: DoubleCross) -> list[tuple[str, Any]]:
    """The short ``back`` menu for the player to move, in the order ``right`` walks it."""
    options: list[tuple[str, Any]] = []
    for kind in DIRECTIONAL:
        if kind in game.tray(game.to_move):
            options.append((f"bomb {kind}", kind))
    for label, choice, action in (
        ("new letters", Choice.NEW_LETTERS, NewLetters()),
        ("undo last tile", Choice.UNDO, Undo()),
        (f"{short(game.may_end)} ends the game", Choice.END_GAME, EndGame(game.may_end)),
    ):
        if game.judge(action).accepted:
            options.append((label, choice))
    return options


COLUMN_MENU: list[tuple[str, Any]] = [(c, c) for c in COLUMNS]
ROW_MENU: list[tuple[str, Any]] = [(str(r), str(r)) for r in range(1, SIZE + 1)]


class DoubleCrossTurn(Struct):
    problem: str = ""
    """What is wrong with the board itself (a tile moved, a tag that is no letter)."""
    after: str = ""
    """A consequence the board must show before play goes on (a tile refused or
    destroyed, a blast); kept until the board matches the layout again."""
    note: str = ""
    """A hint after a button that means nothing now."""
    said: str = ""
    """What the last tile or bomb made, shown at once."""
    points: tuple[int, ...] = ()
    """The points the last action moved, by seat."""
    dealt: tuple[int, list[str]] | None = None
    """Who took which tiles from the bag at the end of the last turn."""
    before: tuple[int, list[str]] = (0, [])
    """The mover and its rack before the action being committed."""
    markers: list[str] = field(default_factory=list)
    """The special-space markers still to be listed at set-up (``"C4: bonus"``)."""
    shown: int = 0
    """How many markers have been listed and confirmed with ``ok``."""
    bomb: str = ""
    """The directional bomb being aimed with the cursor menus."""
    column: str = ""
    """The column chosen for it."""
    destroyed: tuple[str, ...] = ()
    """The cells whose tiles the last action destroyed (lit while they are lifted)."""
    map_shown: bool = False
    """``roll`` shows the whole board's map instead of the words."""

    def setting_up(self) -> bool:
        return self.shown < len(self.markers)

    def page(self) -> list[str]:
        return self.markers[self.shown : self.shown + MARKERS_A_PAGE]

    def wants_fixes(self) -> bool:
        return bool(self.problem or self.after)


def new_turn(game: DoubleCross, facts: Facts) -> DoubleCrossTurn:
    """A DoubleCross turn as a table takes the game up: a new game on a board without
    printed special spaces first lists where their markers go."""
    turn = DoubleCrossTurn()
    printed = facts.profile is not None and facts.profile.specials_printed
    if not game.history and not printed:
        turn.markers = list(game.set_up_specials)
    return turn


def aim_cursor(prompt: Prompt, turn: DoubleCrossTurn) -> str | None:
    """The cell the bomb's aim menus point at now, for the map (None: not aiming)."""
    menu = prompt.menu
    if menu is None or prompt.menu_action not in (Ask.COLUMN, Ask.ROW):
        return None
    if prompt.menu_action == Ask.COLUMN:
        return f"{menu.choice}8"
    return f"{turn.column}{menu.choice}"
