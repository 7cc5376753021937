"""A board's seats in a game played with other boards: its own, played at the board
(by its people, or the computer), and the others', whose moves arrive through the
broker and are made by hand on this board as a computer's move is.

:class:`RemoteSeats` stands in the session's place of the computer player
(``Session.computer``): a move that arrived is what the seat "expects" next, so the
OLED shows it, the lights light it, and the referee refuses anything else, exactly
as for a computer seat. This board's computer seats think on the table's worker
(:mod:`..runtime.thinking`), as at a table of one board: the computer it stands in
for hands it where its thoughts go and the loop's clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from games.core import Action, Game

from ..runtime.computer import Computer, same_move


class RemoteSeats(Computer):
    """The computer's seats at this board, and the moves the other boards sent."""

    def __init__(
        self,
        computer: Computer,
        remote: Iterable[int],
        local_computer: Iterable[int],
        levels: Mapping[int, int] | None = None,
        owners: Sequence[str] = (),
    ) -> None:
        super().__init__(computer.make_player, computer.seed, local_computer, levels)
        self.deliver, self.clock = computer.deliver, computer.clock  # thinks as it did
        self.remote = frozenset(remote)
        """The seats other boards hold."""
        self.owners = list(owners)
        """Who holds each seat (a board's name), for what the OLED says."""
        self.arrived: dict[int, Action] = {}
        """Moves to be made on this board, by their number in the game (from 1)."""
        self.dice_of: Callable[[Action], list[int]] = lambda action: []
        """The faces the station's dice fill in ``action`` (a roll's)."""
        self.ask_rolls = False
        """This board's seats roll with the host's dice (a guest's): a roll waits for them."""
        self.rolled: set[int] = set()
        """The moves whose dice the host rolled and this board's dice hold."""
        self.wants_roll: tuple[int, int] | None = None
        """The move whose dice are to be asked of the host, and how many."""
        self.ask_moves = False
        """This board's seats' moves are the host's to make first (a guest's of a game
        of hidden pieces: what a move draws is known once the host has made it)."""
        self.wants_move: tuple[int, Action] | None = None
        """The move this board's seat chose, to be sent to the host, and its number."""
        self.people: frozenset[int] = frozenset()
        """This board's seats that its people play (the computer plays its others)."""
        self.held: tuple[int, Action] | None = None
        """The move a person made at this board, held as the board shows it until the
        host has made it first (``ask_moves``), and its number."""
        self.ready: Callable[[Game], bool] = lambda game: True
        """Whether this board's game knows what its seats may know of the position now
        (a guest of a game of hidden pieces: the host's view of it has come)."""
        self.automatic: Callable[[Action], bool] = lambda action: False
        """Whether the table plays ``action`` itself (a pass for a seat that cannot
        move): every board's referee plays it, so it is never waited for."""

    def expected(self, game: Game) -> Action | None:
        """The next move if it arrived; else the computer's, for a seat of its here."""
        if game.outcome is not None:
            return None
        arrived = self.arrived.get(len(game.history) + 1)
        if arrived is not None:
            return arrived
        if game.to_move in self.remote:
            return None  # the other board has not moved yet
        if not self.ready(game):
            return None  # what this board's seat holds is still to come from the host
        action = super().expected(game)
        number = len(game.history) + 1
        if action is not None and self.ask_moves:
            self.wants_move = (number, action)
            return None  # the host makes it first; it is made here when it comes back
        if action is not None and self.ask_rolls and number not in self.rolled:
            faces = self.dice_of(action)
            if faces:
                self.wants_roll = (number, len(faces))
                return None  # the host rolls them
        return action

    def waiting(self, game: Game) -> bool:
        """Whether the game waits for another board's move."""
        number = len(game.history) + 1
        if game.outcome is not None or number in self.arrived:
            return False
        asked = self.wants_roll is not None and self.wants_roll[0] == number
        sent = self.wants_move is not None and self.wants_move[0] == number
        return game.to_move in self.remote or asked or sent or not self.ready(game)

    def holds(self, game: Game, action: Action, mover: int) -> bool:
        """A person's move at this board, when the host makes this board's moves first
        (a guest's of hidden pieces): held as the board shows it, and sent (its draws
        are known once the host has made it); made here when the host has."""
        number = len(game.history) + 1
        if not self.ask_moves or mover not in self.people or mover != game.to_move:
            return False
        if number in self.arrived or self.automatic(action):
            return False  # the host made it: it is made here now
        self.wants_move = self.held = (number, action)
        return True

    def refuses(self, game: Game, action: Action, mover: int) -> Action | None:
        """A move made here for another board's seat before that board moved is refused
        (the board is put back), as one that is not the arrived move is; a person's
        move held here is judged again as it stands (a board read again)."""
        held = self.held
        if held is not None and held[0] == len(game.history) + 1 and same_move(held[1], action):
            return None
        if mover == game.to_move and self.waiting(game) and not self.automatic(action):
            return action
        return super().refuses(game, action, mover)

    def _board_of(self, seat: int) -> str:
        return self.owners[seat] if seat < len(self.owners) else "the other"

    def speaker(self, game: Game) -> str:
        """A move that arrived is said to come from the board that made it."""
        if len(game.history) + 1 in self.arrived and game.to_move in self.remote:
            return f"{self._board_of(game.to_move)}'s board"
        return super().speaker(game)

    def refusal(self, game: Game, instruction: str) -> str:
        """A move made here for another board's seat is refused in that board's words:
        the move it sent, or, before it moved, that the move is made at that board."""
        seat = game.to_move
        if seat not in self.remote:
            return super().refusal(game, instruction)
        board = self._board_of(seat)
        if len(game.history) + 1 in self.arrived:
            return f"{board}'s board played {instruction}: put the board back"
        return (
            f"{game.seat_name(seat)} moves at {board}'s board: put the board back "
            "and wait for its move"
        )
