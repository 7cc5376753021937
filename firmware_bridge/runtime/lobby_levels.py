"""The start menu's computer levels: each computer seat plays at a level
(``games.levels``), chosen on the seats page and remembered with the other choices.

On a seat, right makes a person the computer at the default level, the computer a
level stronger, and the strongest a person again; left goes the other way, so a
single press still turns a person into the computer as it always has."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.levels import DEFAULT, NAMES, level_name

PERSON = "person"
COMPUTER = "computer"


def saved_levels(saved: Any, computer: set[int]) -> dict[int, int]:
    """The remembered levels (``{"1": 3}``) of the seats the computer plays."""
    if not isinstance(saved, dict):
        return {}
    return {
        int(seat): level
        for seat, level in saved.items()
        if isinstance(seat, str)
        and seat.isdigit()
        and int(seat) in computer
        and level in NAMES
        and level != DEFAULT
    }


def stored(levels: Mapping[int, int]) -> dict[str, Any]:
    """What a choice keeps of the levels: ``{"levels": {"1": 3}}``, nothing when none."""
    if not levels:
        return {}
    return {"levels": {str(seat): level for seat, level in sorted(levels.items())}}


def change_seat(computer: set[int], levels: dict[int, int], seat: int, step: int) -> None:
    """Move ``seat`` one step along person, the levels weakest to strongest, person."""
    if seat not in computer:
        computer.add(seat)
        levels.pop(seat, None)
        return
    level = levels.get(seat, DEFAULT) + step
    if level not in NAMES:
        computer.discard(seat)
        levels.pop(seat, None)
    elif level == DEFAULT:
        levels.pop(seat, None)
    else:
        levels[seat] = level


def who(computer: set[int], levels: Mapping[int, int], seat: int) -> str:
    """``person``, ``computer`` (at the default level) or ``computer expert``."""
    if seat not in computer:
        return PERSON
    level = levels.get(seat, DEFAULT)
    return COMPUTER if level == DEFAULT else f"{COMPUTER} {level_name(level)}"


def keys(computer: set[int], levels: Mapping[int, int], seat: int) -> tuple[str, str]:
    """The seats page's keys for ``seat``."""
    if seat in computer and seat in levels:
        return ("left: weaker", "right: stronger")
    return ("left/right: person", "or computer; ok: next")
