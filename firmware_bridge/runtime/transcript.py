"""The transcript ``tabletop sim`` prints: one line a move, every refusal with the fix it
asks for, then how the game ended (and, unfinished, what the table waits for)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ..referees.decisions import Played
    from ..referees.fixes import Fix


def print_move(played: Played, seat_name: Callable[[int], str], out: TextIO) -> None:
    """One move: its number, the mover, the move in the journal's words, who scored."""
    points = {seat_name(p): n for p, n in enumerate(played.points) if n}
    extra = f"  ({', '.join(f'{k} {v:+d}' for k, v in points.items())})" if points else ""
    text = played.story or played.text
    print(f"{played.number:4d}. {played.player:<7} {text}{extra}", file=out, flush=True)


def print_refusal(reason: str, fixes: Sequence[Fix], out: TextIO) -> None:
    """A refusal: why, and what the table asks for to put the board right."""
    asked = f"; to fix: {fix_words(fixes)}" if fixes else ""
    print(f"      refused: {reason}{asked}", file=out, flush=True)


def fix_words(fixes: Sequence[Fix]) -> str:
    """The fixes in order, as one phrase: "lift the piece on a7, then put red on a3"."""
    steps = [(text := fix.text())[:1].lower() + text[1:] for fix in fixes]
    return ", then ".join(steps)


def plural(count: int, word: str) -> str:
    """``1 move``, ``2 moves``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def result_line(final: dict[str, Any]) -> str:
    """How the game ended, from the simulation's last state."""
    outcome = final["outcome"]
    scores = ", ".join(f"{k} {v}" for k, v in final["scores"].items())
    moves = plural(final["moves"], "move")
    if outcome is None:
        return f"Game not finished after {moves}; scores: {scores}"
    if outcome["draw"]:
        return f"Draw: {outcome['reason']} ({moves}; {scores})"
    winner = final["winner"]
    names = [winner] if isinstance(winner, str) else list(winner)
    verb = "wins" if len(names) == 1 else "win"
    name = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{name.capitalize()} {verb}: {outcome['reason']} ({moves}; {scores})"


def waiting_line(fixes: Sequence[Fix], oled: Sequence[str]) -> str:
    """What an unfinished game's table waits for: the fixes it asks for, else its screen."""
    if fixes:
        return f"The table waits for: {fix_words(fixes)}"
    shown = " / ".join(line for line in oled if line.strip())
    return f"The table shows: {shown}"
