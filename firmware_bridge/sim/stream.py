"""What a simulation tells those who follow it (the ``--json`` stream, the live file,
the printed moves): every state stamped with the simulated time, every accepted
action, and what the open start menu shows."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hardware.clock import FakeClock

from ..referees.decisions import Played
from ..screen.layout import lay_out
from ..screen.screens import HEIGHT, WIDTH

if TYPE_CHECKING:
    from ..runtime.lobby import Lobby


class Stream:
    """The simulation's listeners and commit hooks, on its clock."""

    def __init__(self, clock: FakeClock, size: tuple[int, int] = (WIDTH, HEIGHT)) -> None:
        self.clock = clock
        self.size = size
        """The OLED's pixels: a menu's text is told as it is laid out there."""
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        self.commits: list[Callable[[Played], None]] = []
        """Called with every accepted action, in order, automatic passes included."""
        self._menu_text: list[str] | None = None

    def state(self, state: dict[str, Any]) -> None:
        """Tell the listeners a session's new state, at the simulated time."""
        stamped = {"t": round(self.clock.now(), 3), **state}
        for listener in self.listeners:
            listener(stamped)

    def played(self, played: Played) -> None:
        """Tell the commit hooks an accepted action."""
        for hook in self.commits:
            hook(played)

    def menu_opened(self) -> None:
        """A start menu is open: what it shows is told afresh."""
        self._menu_text = None

    def menu(self, lobby: Lobby) -> None:
        """Tell the listeners what the open start menu shows, when it has changed."""
        if not self.listeners:
            return
        # As drawn: wrapped, on the page shown (the sessions' states say the same).
        text = lay_out(lobby.screen(), self.size, self.clock.now()).text()
        if text == self._menu_text:
            return
        self._menu_text = text
        state = {"t": round(self.clock.now(), 3), "lobby": lobby.stage, "oled": text}
        for listener in self.listeners:
            listener(state)
