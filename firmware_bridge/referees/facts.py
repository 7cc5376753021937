"""What a referee may read of the table besides its game: the session keeps it current.

The referee reads; only the session writes. Nothing here calls back into the session.
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
    session sets them before each screen, and the view draws them from here."""
    labels: Callable[[str], str | None] | None = None
    """Tag id → enrolled piece label, on RFID boards."""
    profile: Profile | None = None
    """The board's profile (rack cells and the like), when the table has it."""
    now: float = 0.0
    """The loop's clock at the last tick."""
    animated: bool = False
    """Whether a display shows the table (animations run only where one does)."""
    restoring: bool = False
    """After a resume the board must match the layout before play goes on."""
    last: Played | None = None
    """The last accepted action."""
    record: GameRecord | None = None
    """The journal's record of the game: its seed, the profile it was started on."""
    advise: Callable[[Game], Action] | None = None
    """The computer's choice for the seat to move (hints, computer seats)."""
