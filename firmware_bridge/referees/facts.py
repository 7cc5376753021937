"""What a referee may read of the table besides its game: the session keeps it current.

The referee reads; only the session writes, but for the station's prompt, the board's
fixes, the last action and the end of a set-up, which the referee notes. Nothing here
calls back into the session.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec import Struct, field

from games.core import Action, Game
from wiring.profile import Profile

from .decisions import Played
from .fixes import Fix
from .game_record import GameRecord
from .prompt import Prompt


class Facts(Struct):
    observation: dict[str, str] = field(default_factory=dict)
    """The settled board: cell → OCCUPIED or a tag id."""
    prompt: Prompt = field(default_factory=Prompt)
    """The station's menu, hint and new-game wish: the one part of the facts the
    referee writes (it opens and answers menus); the session clears the hint."""
    board_fixes: list[Fix] = field(default_factory=list)
    """The fixes that make the board match the game, as the referee reckons them: the
    referee sets them as it rules on an event, and the view draws them from here."""
    labels: Callable[[str], str | None] | None = None
    """Tag id → enrolled piece label, on RFID boards."""
    profile: Profile | None = None
    """The board's profile (rack cells and the like), when the table has it."""
    now: float = 0.0
    """The loop's clock at the last tick."""
    animated: bool = False
    """Whether a display shows the table (animations run only where one does)."""
    restoring: bool = False
    """After a resume or a take-back the board must match the layout before play goes
    on: the session sets it, the referee ends it once the board matches."""
    restore_title: str = "Set up the board"
    restore_reason: str = ""
    """The title and the reason of the fixes that set the board up (after a resume or
    a take-back)."""
    last: Played | None = None
    """The last accepted action, recorded by the referee as it is told of it
    (``Committed``, or ``TakenUp`` for a game replayed)."""
    record: GameRecord | None = None
    """The journal's record of the game: its seed, the profile it was started on."""
    advise: Callable[[Game], Action] | None = None
    """The computer's choice for the seat to move (hints, computer seats)."""
    expected: Callable[[Game], Action | None] | None = None
    """The move a computer seat makes now (None: a person is to move)."""
    think_hint: Callable[[Game, Callable[[], Action | None]], Action] | None = None
    """Thinks a game's own hint (its ``work``) as ``advise`` thinks the computer's: off
    the loop's thread where the table has one, raising ``HintThinking`` until it is known."""
