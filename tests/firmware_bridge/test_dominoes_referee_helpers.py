"""A Dominoes referee in a session, fed settled boards of tagged halves by hand."""

from __future__ import annotations

from firmware_bridge.journal import Journal
from firmware_bridge.referees.dominoes import DominoesReferee
from firmware_bridge.session import Session
from firmware_bridge.tags import TagTable
from games.dominoes import Dominoes
from hardware.board import OCCUPIED, BoardSettled
from hardware.buttons import ButtonEvent


class Table:
    """A session plus the pieces on the board, each half with its own enrolled tag."""

    def __init__(self, game: Dominoes, *, rfid: bool = True) -> None:
        self.tags = TagTable()
        self.rfid = rfid
        journal = Journal(":memory:")
        game_id = journal.new_game(game.name, game.players, 1, {}, "test")
        self.session = Session(
            game, journal, game_id, DominoesReferee, labels=self.tags.lookup if rfid else None
        )
        self.board: dict[str, str] = {}
        self._next = 1
        for cell, piece in game.layout().items():
            self.board[cell] = self.tag(piece.label)
        self.settle()

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
