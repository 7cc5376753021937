"""The start menu's computer levels: each computer seat plays at a level
(``games.levels``), chosen on the seats page and remembered with the other choices.

On a seat, right makes a person the computer at the default level, the computer a
level stronger, and the strongest a person again; left goes the other way, so a
single press still turns a person into the computer as it always has. Past the
computer's levels come the club's boards on line (:class:`Seats`): such a seat is
that board's, invited when the game starts; past the boards, a person again.

Another board's invitation is shown on the menu as an :class:`Offer`, answered with
ok (join) or back (refuse)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec import Struct

from games.levels import DEFAULT, NAMES, level_name

from ..screen.screens import Screen

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


class Seats(Struct):
    """The seats page's choices: the computer's seats and levels, and the seats other
    boards hold (``remote``, of the boards ``online``); changed in place."""

    computer: set[int]
    levels: dict[int, int]
    remote: dict[int, str]
    online: Sequence[str]

    def change(self, seat: int, step: int) -> None:
        """One step of ``seat``: person, the computer's levels, the boards on line
        (right from the strongest, left from the weakest), person again."""
        boards = list(self.online)
        board = self.remote.get(seat)
        if board is not None:
            at = boards.index(board) + step if board in boards else -1
            del self.remote[seat]
            if 0 <= at < len(boards):
                self.remote[seat] = boards[at]
            return
        was = seat in self.computer
        change_seat(self.computer, self.levels, seat, step)
        if was and seat not in self.computer and boards:  # past the levels: the boards
            self.remote[seat] = boards[0] if step > 0 else boards[-1]


class Offer:
    """Another board's invitation on the start menu: ``text`` says it; ok joins, back
    refuses, and :attr:`accepted` holds the answer. Called off by its host, it says
    why until ok or back closes it."""

    def __init__(self, text: str, token: Any = None) -> None:
        self.text = text
        self.token = token
        """What the invitation came as (the board's link answers it)."""
        self.accepted: bool | None = None
        self.note = ""
        """Why the host called the game off (the offer then only says so)."""
        self.closed = False
        """Seen and closed: the menu goes on."""

    def answer(self, button: str) -> None:
        if button not in ("ok", "back"):
            return
        if self.note:
            self.closed = True
        elif self.accepted is None:
            self.accepted = button == "ok"

    def called_off(self, why: str) -> None:
        self.note, self.token = why, None

    def screen(self) -> Screen:
        if self.note:
            return Screen("Invited", "", (self.text, self.note), prompt="ok: back to the menu")
        if self.accepted is None:
            return Screen("Invited", "", (self.text,), prompt="ok: join  back: refuse")
        said = "Joining..." if self.accepted else "Refused"
        return Screen("Invited", "", (self.text, said))
