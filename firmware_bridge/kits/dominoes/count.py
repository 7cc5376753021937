"""The count at a tie in Double Double Dominoes: each tied hand, checked against the deal.

When the game ends on a points tie, each tied player in turn lays the hand on empty
cells of the board and presses ``ok`` (the tags give the halves), or, on a board
without tag readers, enters the pip total with the buttons. The engine has already
decided the tie from the hands the companion dealt; the count is the table's
confirmation, so a count that differs is named and asked again, never used.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Any

from msgspec import Struct, field

from games.dominoes.board import COLUMNS, SIZE
from games.dominoes.game import Domino

ENTRY_MAX = 99
"""The highest pip total the buttons enter (a hand holds far fewer)."""
LONG_STEP = 5
"""What a held ``left`` or ``right`` takes off or adds to the entered total."""


class Stage(StrEnum):
    """Where the count of one tied hand stands."""

    LAY = "lay"
    """The hand is to be laid on the board (ok reads it)."""
    LIFT = "lift"
    """The counted hand is to come off the board."""
    ENTER = "enter"
    """The pip total is entered with the buttons."""
    DONE = "done"


LAY, LIFT, ENTER, DONE = Stage.LAY, Stage.LIFT, Stage.ENTER, Stage.DONE


def pair_halves(halves: Iterable[tuple[Domino, int]]) -> tuple[list[Domino], list[Domino]]:
    """The whole dominoes the halves make, and the dominoes of halves left alone.

    Halves are ``(domino, pip on that half)`` with the domino smaller pip first.
    """
    seen = Counter(halves)
    whole: list[Domino] = []
    alone: list[Domino] = []
    for domino in sorted({d for d, _ in seen}):
        if domino.is_double:
            n = seen[(domino, domino.a)]
            whole += [domino] * (n // 2)
            alone += [domino] * (n % 2)
        else:
            low, high = seen[(domino, domino.a)], seen[(domino, domino.b)]
            whole += [domino] * min(low, high)
            alone += [domino] * abs(low - high)
    return whole, alone


def _names(dominoes: Counter[Domino]) -> str:
    return " and ".join(str(d) for d in sorted(dominoes.elements()))


def mismatch(who: str, dealt: Sequence[Domino], laid: Sequence[Domino]) -> str:
    """How a laid hand differs from the dealt one, in a player's words; "" if it does not."""
    missing = Counter(dealt) - Counter(laid)
    extra = Counter(laid) - Counter(dealt)
    if missing and extra:
        return f"{who}'s hand should hold {_names(missing)}, not {_names(extra)}"
    if missing:
        return f"{who}'s hand should also hold {_names(missing)}"
    if extra:
        them = "it" if extra.total() == 1 else "them"
        return f"{who}'s hand does not hold {_names(extra)}: take {them} off"
    return ""


def free_pairs(taken: Iterable[str], count: int) -> list[tuple[str, str]]:
    """``count`` pairs of side-by-side empty cells, from the bottom row up (away from
    the star), where a simulated hand lays its dominoes to be counted."""
    used = set(taken)
    pairs: list[tuple[str, str]] = []
    for row in range(SIZE, 0, -1):
        for left in range(0, SIZE - 1, 2):
            a, b = f"{COLUMNS[left]}{row}", f"{COLUMNS[left + 1]}{row}"
            if a not in used and b not in used:
                pairs.append((a, b))
                if len(pairs) == count:
                    return pairs
    return pairs


class TieCount(Struct):
    """Where the count of the tied hands stands."""

    seats: tuple[int, ...]
    """The tied seats, counted in this order."""
    by_tags: bool
    """Hands are laid on the board and read by tag; otherwise totals are entered."""
    index: int = 0
    stage: Stage = LAY
    """``lay`` (waiting for the hand and ok), ``lift`` (take it off again), ``enter``
    (a total on the buttons) or ``done``."""
    entry: int = 0
    """The total on the buttons while entering."""
    problem: str = ""
    """Why the last count was not taken (empty: none refused)."""
    laid: int | None = None
    """The pips of a laid hand that was not the dealt one."""
    counted: dict[int, int] = field(default_factory=dict)
    """Each counted seat's pips, in counting order."""

    def __post_init__(self) -> None:
        self.stage = LAY if self.by_tags else ENTER

    @property
    def seat(self) -> int:
        return self.seats[min(self.index, len(self.seats) - 1)]

    @property
    def done(self) -> bool:
        return self.stage == DONE

    def refuse(self, problem: str, laid: int | None = None) -> None:
        self.problem = problem
        self.laid = laid

    def take(self, pips: int) -> None:
        """Record the seat's agreed count; a laid hand must come off again."""
        self.counted[self.seat] = pips
        self.problem = ""
        self.laid = None
        if self.by_tags and self.stage == LAY:
            self.stage = LIFT
        else:
            self.next_seat()

    def next_seat(self) -> None:
        self.index += 1
        self.entry = 0
        self.problem = ""
        self.laid = None
        if self.index >= len(self.seats):
            self.stage = DONE
        else:
            self.stage = LAY if self.by_tags else ENTER

    def by_buttons(self) -> None:
        """Count this seat's hand with the buttons (a tag will not read, no room left)."""
        self.stage = ENTER
        self.entry = 0
        self.problem = ""
        self.laid = None

    def step(self, up: bool, long: bool) -> None:
        """Move the entered total: one pip a press, ``LONG_STEP`` a long press."""
        change = (LONG_STEP if long else 1) * (1 if up else -1)
        self.entry = min(max(self.entry + change, 0), ENTRY_MAX)

    def to_dict(self, name: Any) -> dict[str, Any]:
        """For the ``--json`` stream; ``name`` turns a seat into its player's name."""
        return {
            "player": None if self.done else name(self.seat),
            "stage": self.stage,
            "by": "tags" if self.by_tags else "buttons",
            "entry": self.entry if self.stage == ENTER else None,
            "problem": self.problem or None,
            "counted": {name(seat): pips for seat, pips in self.counted.items()},
        }
