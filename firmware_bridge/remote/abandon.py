"""Abandoning a game that waits for another board: the back menu's last entry.

While the game waits for a board that is off line (:meth:`.side.Side.waiting_for`),
the menu a long press of back opens (play on, resign, take back) ends with
"abandon game"; chosen with ok, the game ends on this board and the other boards are
told (:meth:`.side.Side.abandon`). The session is handed the station's events through
:class:`WaitingMenu`, which answers that one entry itself: the referee never sees it.
"""

from __future__ import annotations

from typing import Any

from ..referees.events import ButtonEvent, Event
from ..referees.menu import Menu
from ..referees.referee import Ask
from ..runtime.session import Session
from ..runtime.thinking import Deliver, Thought
from .side import Side

LABEL = "abandon game"
"""The entry's words on the OLED (``< abandon game >``: 16 characters)."""


class Abandon:
    """The value of the entry (the referee's own entries are False, True and a text)."""

    def __repr__(self) -> str:
        return "ABANDON"


ABANDON = Abandon()


class WaitingMenu:
    """The session as the loop feeds it, with "abandon game" in its back menu while
    the game waits for another board."""

    def __init__(self, session: Session[Any], side: Side) -> None:
        self.session = session
        self.side = side
        self._offered: Menu | None = None
        """The back menu given the entry (an open menu is given it once)."""

    @property
    def now(self) -> float:
        return self.session.now

    @now.setter
    def now(self, now: float) -> None:
        self.session.now = now

    def handle(self, event: Event) -> None:
        prompt = self.session.facts.prompt
        menu = prompt.menu
        if (
            isinstance(event, ButtonEvent)
            and event.name == "ok"
            and menu is not None
            and menu is self._offered
            and menu.choice is ABANDON
        ):
            prompt.menu = None
            self._offered = None
            self.side.abandon()
            return
        self.session.handle(event)
        self.offer()

    def offer(self) -> None:
        """Give the open back menu the entry, while the game waits for another board."""
        prompt = self.session.facts.prompt
        menu = prompt.menu
        if menu is None or menu is self._offered or prompt.menu_action != Ask.BACK:
            return
        if self.side.over() or self.side.waiting_for() is None:
            return
        menu.options.append((LABEL, ABANDON))
        self._offered = menu
        self.session.refresh()

    def wants_ticks(self) -> bool:
        return self.session.wants_ticks()

    def waits_for_board(self, event: ButtonEvent) -> bool:
        return self.session.waits_for_board(event)

    def thinks_to(self, deliver: Deliver) -> None:
        self.session.thinks_to(deliver)

    def thought(self, thought: Thought) -> None:
        self.session.thought(thought)
