"""How strongly a computer seat plays: the levels every game's computer player offers.

Level 1, ``beginner``, plays legal, plausible moves a child can beat: most of the
time a move picked at random among the sensible ones, now and then the move the
standard player would make. Level 2, ``standard``, is the computer player each game
has always had and stays the default, so a game played without a level is the game
it always was. Level 3, ``expert``, uses what works for its game (a search, the value
of what a move leaves, the odds). None of them looks at what a player at a real table
could not see.

Every level is deterministic: the same position and seed get the same move, also
after a restart, so an expert's search is bounded by a count of positions rather
than by the clock (``bench/bench_levels.py`` measures the time that takes).
"""

from __future__ import annotations

import random

from games.errors import BadSettings

BEGINNER = 1
STANDARD = 2
EXPERT = 3
DEFAULT = STANDARD
NAMES: dict[int, str] = {BEGINNER: "beginner", STANDARD: "standard", EXPERT: "expert"}
"""Each level's name as the OLED and the command line show it."""
STRONGEST = max(NAMES)


def level_name(level: int) -> str:
    """``"expert"`` for 3."""
    return NAMES[level]


def parse_level(value: object) -> int:
    """A level from a number (``3``, ``"3"``) or a name (``"expert"``); BadSettings
    naming the levels otherwise."""
    if isinstance(value, str):
        text = value.strip().lower()
        for number, name in NAMES.items():
            if text == name:
                return number
        if text.isdigit():
            value = int(text)
    if isinstance(value, int) and not isinstance(value, bool) and value in NAMES:
        return value
    choices = ", ".join(f"{n} ({name})" for n, name in NAMES.items())
    raise BadSettings(f"{value!r} is not a level; give {choices}")


def next_level(level: int) -> int:
    """The level after ``level``, round to the weakest after the strongest."""
    return level + 1 if level < STRONGEST else BEGINNER


class Whim:
    """A beginner's own fancy: whether to play the move it likes rather than the best
    one, decided afresh for each position but the same every time the same position is
    asked about (a hint and the move it then checks must agree)."""

    def __init__(self, rng: random.Random, chance: float) -> None:
        self.salt = rng.random()
        self.chance = chance

    def rng(self, moment: int) -> random.Random:
        """The random source of the position after ``moment`` actions."""
        return random.Random(f"{self.salt}:{moment}")

    def strays(self, moment: int) -> bool:
        """Whether the beginner plays a move of its own fancy at ``moment``."""
        return self.rng(moment).random() < self.chance
