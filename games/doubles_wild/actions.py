"""Doubles Wild actions and the battle's state: what the journal records, what the screen shows.

Dice arrive as action values (the engine never rolls); ``dice_action`` builds the
action for dice the station rolled.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.core import JSON, Action, Cell, PlayerId
from games.errors import GameError

BATTLE_DICE = 3
BATTLE_ROLLS = 3
PAIRS = ("red", "blue", "both")

Pair = tuple[int, int]


@dataclass(frozen=True)
class Roll(Action):
    """The turn's roll: two red dice (the row) and two blue dice (the column)."""

    type: ClassVar[str] = "roll"
    red: Pair
    blue: Pair


@dataclass(frozen=True)
class Reroll(Action):
    """The one re-roll of a turn: ``pair`` is ``"red"``, ``"blue"`` or ``"both"``."""

    type: ClassVar[str] = "reroll"
    pair: str
    values: tuple[int, ...]


@dataclass(frozen=True)
class Place(Action):
    """Put a ball on an empty spot the roll allows (also picks a wild spot)."""

    type: ClassVar[str] = "place"
    cell: Cell


@dataclass(frozen=True)
class Attack(Action):
    """Start a battle for an opponent's unprotected ball on a spot the roll allows."""

    type: ClassVar[str] = "attack"
    cell: Cell


@dataclass(frozen=True)
class BattleRoll(Action):
    """The rolling side's faces for its dice not kept, in die order."""

    type: ClassVar[str] = "battle-roll"
    values: tuple[int, ...]


@dataclass(frozen=True)
class Keep(Action):
    """Indices (0–2) of the rolling side's dice to keep before its next roll."""

    type: ClassVar[str] = "keep"
    dice: tuple[int, ...]


@dataclass(frozen=True)
class EndTurn(Action):
    """End a turn whose roll allows no spot."""

    type: ClassVar[str] = "end-turn"


ACTIONS: dict[str, type[Action]] = {
    cls.type: cls for cls in (Roll, Reroll, Place, Attack, BattleRoll, Keep, EndTurn)
}

DICE_KINDS = ("roll", "reroll-red", "reroll-blue", "reroll-both", "battle-roll")
"""What the station may be asked to roll; see ``dice_action``."""


def dice_action(kind: str, values: Sequence[int]) -> Action:
    """The action for dice of ``kind`` (one of ``DICE_KINDS``) that came up ``values``."""
    faces = tuple(values)
    if kind == "roll":
        if len(faces) != 4:
            raise GameError(f"a roll takes four dice (red, red, blue, blue), not {len(faces)}")
        return Roll(red=(faces[0], faces[1]), blue=(faces[2], faces[3]))
    if kind.startswith("reroll-") and kind[len("reroll-") :] in PAIRS:
        return Reroll(pair=kind[len("reroll-") :], values=faces)
    if kind == "battle-roll":
        return BattleRoll(values=faces)
    raise GameError(f"unknown kind of dice {kind!r}: use one of {', '.join(DICE_KINDS)}")


def face_error(values: Iterable[object], what: str) -> str:
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            return f"{what}: {value!r} is not a die face; each die shows 1 to 6"
    return ""


@dataclass(frozen=True)
class BattleState:
    """A battle for ``cell``: each side's dice (``None`` before its first roll), kept flags
    and rolls used. Index 0 of each pair is the attacker, 1 the defender."""

    cell: Cell
    attacker: PlayerId
    defender: PlayerId
    dice: tuple[tuple[int | None, ...], tuple[int | None, ...]] = (
        (None,) * BATTLE_DICE,
        (None,) * BATTLE_DICE,
    )
    kept: tuple[tuple[bool, ...], tuple[bool, ...]] = (
        (False,) * BATTLE_DICE,
        (False,) * BATTLE_DICE,
    )
    rolls: tuple[int, int] = (0, 0)

    @property
    def side(self) -> int:
        """0 while the attacker is to roll, 1 for the defender (who always rolls second)."""
        return 0 if self.rolls[0] == self.rolls[1] else 1

    @property
    def roller(self) -> PlayerId:
        return self.attacker if self.side == 0 else self.defender

    @property
    def finished(self) -> bool:
        return self.rolls == (BATTLE_ROLLS, BATTLE_ROLLS)

    def totals(self) -> tuple[int, int]:
        return (
            sum(d for d in self.dice[0] if d is not None),
            sum(d for d in self.dice[1] if d is not None),
        )

    @property
    def winner(self) -> PlayerId | None:
        """The side that won, once all six rolls are in; ties go to the defender."""
        if not self.finished:
            return None
        attack, defence = self.totals()
        return self.attacker if attack > defence else self.defender

    def kept_count(self) -> int:
        return sum(self.kept[self.side])

    def to_dict(self) -> JSON:
        return {
            "cell": self.cell,
            "attacker": self.attacker,
            "defender": self.defender,
            "dice": [list(d) for d in self.dice],
            "kept": [list(k) for k in self.kept],
            "rolls": list(self.rolls),
            "roller": None if self.finished else self.roller,
            "totals": list(self.totals()),
            "winner": self.winner,
        }
