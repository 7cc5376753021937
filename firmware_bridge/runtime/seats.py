"""The computer seats: the computer player a game's kit brings, the seats it may be
given, and what the OLED says of its move."""

from __future__ import annotations

from games.core import Action, Game

from ..journal import GameRecord
from .computer import Computer


def computer_for(
    game_name: str, record: GameRecord | None, seats: frozenset[int]
) -> Computer | None:
    """The computer player of ``game_name``'s kit, playing ``seats``; None without a kit."""
    from ..kits import find_kit

    try:
        kit = find_kit(game_name)
    except ValueError:
        return None  # a game without a kit has no computer player
    return Computer(kit.make_player, record.seed if record is not None else 0, seats)


def check_seats(game: Game, computer: Computer | None, seats: frozenset[int]) -> Computer:
    """``computer``, if it can play ``seats`` of ``game``; else ValueError."""
    if computer is None:
        raise ValueError(f"{game.title} has no computer player")
    for seat in seats:
        if not 0 <= seat < game.players:
            raise ValueError(f"seat {seat + 1} is not one of the {game.players} seats")
    return computer


def note(hint: str, expected: Action | None, instruction: str) -> str:
    """What the OLED says above the game's screen: a hint, or the computer's move
    (``expected``, which the table carries out as ``instruction`` says)."""
    if hint:
        return hint
    if expected is not None:
        return f"Computer: {instruction}"
    return ""
