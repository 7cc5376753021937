"""The computer seats: the computer player a game's kit brings, the seats it may be
given, and what the OLED says of its move."""

from __future__ import annotations

from collections.abc import Mapping

from games.core import Action, Game
from games.levels import NAMES as LEVEL_NAMES

from ..journal import GameRecord
from .computer import Computer


def computer_for(
    game_name: str,
    record: GameRecord | None,
    seats: frozenset[int],
    levels: Mapping[int, int] | None = None,
) -> Computer | None:
    """The computer player of ``game_name``'s kit, playing ``seats`` (at ``levels``, the
    default level for a seat not named); None without a kit."""
    from ..kits import find_kit

    try:
        kit = find_kit(game_name)
    except ValueError:
        return None  # a game without a kit has no computer player
    return Computer(kit.make_player, record.seed if record is not None else 0, seats, levels)


def check_seats(
    game: Game,
    computer: Computer | None,
    seats: frozenset[int],
    levels: Mapping[int, int] | None = None,
) -> Computer:
    """``computer``, if it can play ``seats`` of ``game`` (at ``levels``); else ValueError."""
    if computer is None:
        raise ValueError(f"{game.title} has no computer player")
    for seat in seats:
        if not 0 <= seat < game.players:
            raise ValueError(f"seat {seat + 1} is not one of the {game.players} seats")
    for seat, level in (levels or {}).items():
        if seat not in seats:
            raise ValueError(f"seat {seat + 1} has a level but is not the computer's")
        if level not in LEVEL_NAMES:
            raise ValueError(f"{level!r} is not a level; levels go from 1 to {max(LEVEL_NAMES)}")
    return computer


def note(hint: str, expected: Action | None, instruction: str, who: str = "Computer") -> str:
    """What the OLED says above the game's screen: a hint, or the move ``who`` makes
    (``expected``, which the table carries out as ``instruction`` says)."""
    if hint:
        return hint
    if expected is not None:
        return f"{who}: {instruction}"
    return ""
