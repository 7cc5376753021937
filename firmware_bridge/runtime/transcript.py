"""The transcript ``tabletop sim`` prints: one line a move, then how the game ended."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ..referees.decisions import Played


def print_move(played: Played, seat_name: Callable[[int], str], out: TextIO) -> None:
    """One move: its number, the mover, the move in the journal's words, who scored."""
    points = {seat_name(p): n for p, n in enumerate(played.points) if n}
    extra = f"  ({', '.join(f'{k} {v:+d}' for k, v in points.items())})" if points else ""
    print(f"{played.number:4d}. {played.player:<7} {played.text}{extra}", file=out, flush=True)


def result_line(final: dict[str, Any]) -> str:
    """How the game ended, from the simulation's last state."""
    outcome = final["outcome"]
    scores = ", ".join(f"{k} {v}" for k, v in final["scores"].items())
    if outcome is None:
        return f"Game not finished after {final['moves']} moves; scores: {scores}"
    if outcome["draw"]:
        return f"Draw: {outcome['reason']} ({final['moves']} moves; {scores})"
    winner = final["winner"]
    name = winner if isinstance(winner, str) else " and ".join(winner)
    return f"{name.capitalize()} wins: {outcome['reason']} ({final['moves']} moves; {scores})"
