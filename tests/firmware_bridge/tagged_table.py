"""A referee's session fed settled boards by hand, every piece with its own enrolled tag."""

from __future__ import annotations

from firmware_bridge.runtime.tags import TagTable
from games.core import Game
from hardware.board import OCCUPIED, BoardSettled
from tests.tables import on_table


class TaggedTable:
    """A session plus the pieces on the board; ``board`` is what the sensors report."""

    def __init__(
        self,
        game: Game,
        *,
        rfid: bool = True,
        profile: str = "test",
    ) -> None:
        self.tags = TagTable()
        self.rfid = rfid
        self.session = on_table(
            game,
            journaled_as=profile,
            labels=self.tags.lookup if rfid else None,
        )
        self.board: dict[str, str] = {}
        self._next = 1
        for cell, piece in game.layout().items():
            self.board[cell] = self.tag(piece.label)
        self.settle()

    def tag(self, label: str | None) -> str:
        """A new tag id, enrolled under ``label`` unless it is None (never enrolled)."""
        if not self.rfid:
            return OCCUPIED
        tag = f"{self._next:08X}"
        self._next += 1
        if label is not None:
            self.tags.enrol(tag, label)
        return tag

    def settle(self) -> None:
        self.session.handle(BoardSettled(dict(self.board)))
