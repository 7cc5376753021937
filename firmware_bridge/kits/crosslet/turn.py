"""Where a Crosslet turn stands at the table, and the words for tiles and racks."""

from __future__ import annotations

from typing import Any

from msgspec import Struct, field

from games.core import Action, Pass, Resign
from games.crosslet.board import (
    ALL_CELLS,
    ALL_TILES_BONUS,
    BLANK,
    RACK_SIZE,
    FormedWord,
    formed_words,
)
from games.crosslet.game import Crosslet, Exchange, ExchangeCount, PlaceTiles
from hardware.board import OCCUPIED
from wiring.errors import ProfileError
from wiring.loader import load_profile

from ...referees.decisions import Played
from ...referees.facts import Facts

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

ORDER = {cell: i for i, cell in enumerate(ALL_CELLS)}
TURNS = (PlaceTiles, Exchange, ExchangeCount, Pass, Resign)
"""The actions that are a player's turn (the others only tell the engine about racks)."""


def tile_letter(label: str) -> str | None:
    """The tile a tag's label names: ``"A"``–``"Z"``, ``"?"`` for a blank; None otherwise."""
    text = label.strip().upper()
    if text in (BLANK, "BLANK"):
        return BLANK
    if len(text) == 1 and text in LETTERS:
        return text
    return None


_PLAIN = {tile: tile for tile in (*LETTERS, BLANK)}


def label_letter(label: str) -> str | None:
    """``tile_letter``, at once for the labels the game's own pieces carry."""
    return _PLAIN.get(label) or tile_letter(label)


def taken_tiles(before: list[str], used: list[str], after: list[str]) -> list[str]:
    """The tiles of the rack ``after`` that are not the ones kept of the rack ``before``
    once ``used`` left it, each letter grouped where it first comes in ``after``."""
    taken: list[str] = []
    for tile in dict.fromkeys(after):
        kept = max(0, before.count(tile) - used.count(tile))
        taken += [tile] * (after.count(tile) - kept)
    return taken


def short(seat: int) -> str:
    return f"P{seat + 1}"


def order(cell: str) -> int:
    return ORDER.get(cell, len(ORDER))


def spell(tiles: list[str]) -> str:
    return " ".join(sorted(tiles, key=lambda t: (t == BLANK, t)))


def words_text(words: list[FormedWord], tiles: int) -> str:
    """``HEWN 18, HAT 6``; a word formed twice says where each one starts
    (``IN H8 2, IN J9 2``)."""
    names = [w.word for w in words]
    parts = [
        f"{w.word} {w.cells[0]} {w.points}" if names.count(w.word) > 1 else f"{w.word} {w.points}"
        for w in words
    ]
    if tiles == RACK_SIZE:
        parts.append(f"all 7 +{ALL_TILES_BONUS}")
    return ", ".join(parts)


def points(words: list[FormedWord], tiles: int) -> int:
    return sum(w.points for w in words) + (ALL_TILES_BONUS if tiles == RACK_SIZE else 0)


def tiles_text(n: int) -> str:
    return f"{n} tile{'s' if n != 1 else ''}"


def profile_racks(facts: Facts) -> dict[int, tuple[str, ...]]:
    """The rack cells, by seat, of the board's profile.

    The table's own profile when it has one; else the profile named in the journal.
    """
    if facts.profile is not None:
        return dict(facts.profile.racks)
    if facts.record is None:
        return {}
    try:
        return dict(load_profile(facts.record.profile).racks)
    except ProfileError:
        return {}


def seat_racks(game: Crosslet, facts: Facts) -> dict[int, tuple[str, ...]]:
    """The rack cells of each seat of ``game``, from the profile."""
    return {seat: cells for seat, cells in profile_racks(facts).items() if seat < game.players}


def new_turn(game: Crosslet, facts: Facts) -> CrossletTurn:
    """A Crosslet turn as a table takes the game up."""
    return CrossletTurn()


def strange_tile(facts: Facts, cell: str) -> str:
    """Why the piece on ``cell`` is not a tile the referee can read."""
    sensed = facts.observation[cell]
    labels = facts.labels
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


def formed(game: Crosslet, action: PlaceTiles) -> list[FormedWord]:
    """The words a placement forms (before or after it is played), with their points."""
    words = game.last_words(action)
    if words is not None:
        return words
    board = game.board_letters()
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


class CrossletTurn(Struct):
    rejection: str = ""
    """Why the last ``ok`` (or exchange) was refused; kept until the board is clear."""
    problem: str = ""
    """What is wrong with the board itself (a tile moved, a tag not a letter)."""
    clearing: str = ""
    """What to do with tiles left on the board after a pass or an exchange."""
    note: str = ""
    """A hint after a button that means nothing now."""
    laid: dict[str, str] = field(default_factory=dict)
    """The tiles laid this turn, in board order: cell → letter, ``"?"`` for a blank."""
    blanks: dict[str, str] = field(default_factory=dict)
    """The letter named for each laid blank, by cell."""
    asking: str = ""
    """The blank's cell the open letter menu asks about."""
    hint: PlaceTiles | None = None
    hint_asked: bool = False
    map_shown: bool = False
    """``roll`` shows the whole board's map (the bonus squares) instead of the words."""
    dealt: tuple[int, list[str]] | None = None
    """Who took which tiles from the bag with the last action (dealt racks)."""
    drawn: tuple[int, int] | None = None
    """Who draws how many tiles from the table's bag after the last action."""
    rack_seen: tuple[int, list[str]] | None = None
    """The last rack the rack cells showed the engine."""
    rack_note: str = ""
    """Why a rack on its cells was not taken (a tile it cannot hold, a strange tag)."""
    last_turn: Played | None = None
    """The last turn played (the last accepted action may be a rack being seen)."""
    before: tuple[int, list[str], int] = (0, [], 0)
    """The mover, its rack and its rack's size before the action being committed."""
    skip: set[int] = field(default_factory=set)
    """Seats whose rack the rules refused while this board is read."""
    submitted: Action | None = None
    """The count's RevealRack submitted with ok (a turn), not read off rack cells."""

    def placement(self) -> PlaceTiles:
        """The tiles laid this turn as the engine's action (blanks as named so far)."""
        tiles = tuple(self.laid.items())
        blanks = tuple((c, self.blanks[c]) for c, v in self.laid.items() if c in self.blanks)
        return PlaceTiles(tiles, blanks)

    def wants_fixes(self) -> bool:
        return bool(self.rejection or self.problem or self.clearing)


TURN_MENU: list[tuple[str, Any]] = [
    ("pass", "pass"),
    ("exchange laid", "exchange"),
    ("hint", "hint"),
]
"""The short ``back`` menu, in the order ``right`` walks it."""
