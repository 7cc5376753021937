"""What the station shows around a game besides its board: the menu open on the OLED,
the hint asked for, and whether ok asked for a new game once the game ended.

The session owns one and hands it to its referee in the facts; the referee opens and
answers menus in it as buttons come, the view draws the open menu from it, and the
session clears the hint at every new event and reads the menu and the new-game wish.
"""

from __future__ import annotations

from msgspec import Struct

from games.core import Action

from .menu import Menu


class Prompt(Struct):
    menu: Menu | None = None
    """The menu open at the station, answered with its buttons (None: no menu)."""
    menu_action: str = ""
    """What the open menu asks (the referee's ``Ask``)."""
    hint: str = ""
    """The hint asked for with a long press of ok, shown until the next event."""
    hint_action: Action | None = None
    """The move the hint advises, while its text is shown (its cells are lit)."""
    new_game_requested: bool = False
    """Ok was pressed on the game-over screen: the table opens the start menu."""

    def clear_hint(self) -> None:
        """A new event: the hint and its move are no longer shown."""
        self.hint = ""
        self.hint_action = None
