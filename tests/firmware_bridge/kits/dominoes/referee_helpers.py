"""A Dominoes referee in a session, fed settled boards of tagged halves by hand."""

from __future__ import annotations

from firmware_bridge.kits.dominoes.referee import DominoesReferee
from games.dominoes.game import Dominoes
from hardware.buttons import ButtonEvent
from tests.firmware_bridge.tagged_table import TaggedTable


class Table(TaggedTable):
    """A session plus the pieces on the board, each half with its own enrolled tag."""

    def __init__(self, game: Dominoes, *, rfid: bool = True) -> None:
        super().__init__(game, rfid=rfid)

    @property
    def referee(self) -> DominoesReferee:
        referee = self.session.referee
        assert isinstance(referee, DominoesReferee)
        return referee

    @property
    def game(self) -> Dominoes:
        game = self.session.game
        assert isinstance(game, Dominoes)
        return game

    def lay(self, cells: str, domino: str) -> None:
        """Lay a domino as a script does: ``lay("H8,I8", "2-1")``, first cell first pip."""
        pips = domino.split("-")
        for cell, pip in zip(cells.split(","), pips, strict=True):
            self.board[cell] = self.tag(f"{domino}:{pip}")
        self.settle()

    def put(self, cell: str, label: str | None) -> None:
        self.board[cell] = self.tag(label)
        self.settle()

    def lift(self, *cells: str) -> None:
        for cell in cells:
            del self.board[cell]
        self.settle()

    def press(self, name: str, long: bool = False) -> None:
        self.session.handle(ButtonEvent(name, long))

    def oled(self) -> list[str]:
        return self.session.screen().text()
