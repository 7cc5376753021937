"""Where a Doubles Wild turn stands at the table, and what the roll allows."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from msgspec import Struct

from games.core import Cell, Piece
from games.doubles_wild.board import CELLS
from games.doubles_wild.game import COLOURS, BattleRoll, BattleState, DoublesWild

from ...screen.dice_faces import TUMBLE_FRAME_S, TUMBLE_S, tumble_faces

_Face = TypeVar("_Face", int, int | None)

ROWS = range(3, 12)
"""Row and column numbers: two-dice sums without doubles."""
SPOTS = frozenset(CELLS)


def ball_colour(piece: str) -> str:
    """The colour a script names for a ball (``"Blue"`` → ``"blue"``).

    Raises ``ValueError`` naming the colours when ``piece`` is none of them.
    """
    colour = piece.strip().lower()
    if colour not in COLOURS:
        raise ValueError(
            f"a ball is laid by its colour, as 'place r7c5 blue' ({', '.join(COLOURS)}), "
            f"not {piece!r}"
        )
    return colour


class Tumble(Struct, frozen=True):
    """Dice tumbling on the OLED after a roll, from ``start`` for ``TUMBLE_S``."""

    start: float
    seed: int
    """Numbers the roll (the moves played), so a replayed game tumbles alike."""
    rolling: tuple[bool, ...]
    """Which dice tumble: red, red, blue, blue for a turn's roll, or the three dice
    of battle side ``side``."""
    side: int | None = None

    def over(self, now: float) -> bool:
        return now - self.start >= TUMBLE_S - 1e-9

    def frame(self, now: float) -> int:
        """The tumbling faces shown at ``now``, counted from 0 at ``start``."""
        return int(max(0.0, now - self.start) / TUMBLE_FRAME_S + 1e-9)

    def faces(self, now: float, rolled: tuple[_Face, ...]) -> tuple[_Face | int, ...]:
        """What the dice show at ``now``: tumbling faces, and the others as rolled."""
        shown = tumble_faces(self.seed, self.frame(now), len(rolled))
        return tuple(s if r else f for s, r, f in zip(shown, self.rolling, rolled, strict=True))


def _cell_index(cell: Cell) -> tuple[int, int]:
    row, col = cell[1:].split("c")
    return int(row), int(col)


def shows(
    layout: Mapping[Cell, Piece],
    observation: Mapping[Cell, str],
    matches: Callable[[Piece, str], bool],
) -> bool:
    """Whether the spots show ``layout`` and nothing else: the board needs no fix.

    The quick answer to whether ``reconcile`` would find anything to do.
    """
    shown = 0
    for cell, sensed in observation.items():
        if not sensed or cell not in SPOTS:
            continue  # a cell that is no spot is not the game's
        piece = layout.get(cell)
        if piece is None or not matches(piece, sensed):
            return False
        shown += 1
    return shown == len(layout)


def board_order(cells: set[Cell]) -> list[Cell]:
    return sorted(cells, key=_cell_index)


def attackable(game: DoublesWild) -> list[Cell]:
    """Opponents' balls the roll lets the player attack, in board order."""
    return board_order({c for c in game.target() if game.owner(c) is not None})


def where(game: DoublesWild) -> str:
    """The spots the dice name, in a few words: ``r7c5``, ``row 7``, ``all``."""
    dice = game.dice
    if dice is None:
        return ""
    red, blue = dice
    red_double, blue_double = red[0] == red[1], blue[0] == blue[1]
    if red_double and blue_double:
        return "all"
    if red_double:
        return f"col {sum(blue)}"
    if blue_double:
        return f"row {sum(red)}"
    return f"r{sum(red)}c{sum(blue)}"


class DoublesWildTurn(Struct):
    rejection: str = ""
    """Why the board was refused, in a few words for the OLED (empty: not refused)."""
    choosing: bool = False
    """Whether ``left``/``right`` pick a ball to attack (after ``ok``)."""
    cursor: int = 0
    """The ball to attack in the chooser, an index into ``attackable()``."""
    die_cursor: int = 0
    """The die under the cursor of the side to roll in a battle."""
    swap: BattleState | None = None
    """A battle the attacker won whose balls have not yet been swapped on the board."""
    swap_lifted: bool = False
    """Whether the defender's ball has been seen off the spot of ``swap``."""
    shown_battle: BattleState | None = None
    """A finished battle whose result stays on the OLED until the table moves on."""
    tumble: Tumble | None = None
    """The dice of the last roll while they tumble on the OLED."""
    tumble_frame: int = 0
    battle_before: BattleState | None = None
    """The battle on before the action being committed."""


def swapped(game: DoublesWild, battle: BattleState) -> bool:
    """Whether a finished battle left the attacker's ball on its spot; not when a
    play-off cleared the board straight after, where lifting the ball is all."""
    piece = game.layout().get(battle.cell)
    return piece is not None and piece.owner == battle.attacker  # the attacker won


def new_turn(game: DoublesWild, facts: object) -> DoublesWildTurn:
    """A Doubles Wild turn as a table takes the game up: after a restart it asks again
    for a swap the last action may have left undone."""
    turn = DoublesWildTurn()
    last = game.last_battle
    if (
        game.history
        and isinstance(game.history[-1], BattleRoll)
        and game.battle is None
        and last is not None
        and swapped(game, last)
    ):
        turn.swap = last
    return turn
