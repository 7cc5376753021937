"""Crosslet's computer player: the best single-line placement the generator finds."""

from __future__ import annotations

import random

from games.core import Action, Game, Pass, Player
from games.crosslet.actions import Exchange, SetRack
from games.crosslet.board import BLANK, RACK_SIZE
from games.crosslet.game import Crosslet
from games.crosslet.movegen import MoveGenerator


class CrossletPlayer(Player):
    """A computer player: the best-scoring single-line placement (ties broken by ``rng``);
    else an exchange of every tile but the blanks while the bag allows; else a pass.

    With table racks it must see its rack first: while it is not fully known, the
    computer's hand draws the missing tiles from the unseen ones (by ``rng``, as a
    hand draws from a bag) and shows them with ``SetRack``. A rack never seen cannot
    be revealed for the count by the computer.
    """

    def __init__(self, generator: MoveGenerator, rng: random.Random | None = None) -> None:
        self.generator = generator
        self.rng = rng if rng is not None else random.Random(0)

    def choose(self, game: Game) -> Action:
        if not isinstance(game, Crosslet):
            raise TypeError(f"CrossletPlayer plays Crosslet, not {game.title}")
        seat = game.to_move
        if not game.rack_known(seat):
            if game.counting:
                raise ValueError(
                    f"the computer cannot reveal {game.seat_name(seat)}'s rack: it was never seen"
                )
            unseen = sorted(game.unseen_tiles().elements())
            missing = game.rack_size(seat) - len(game.rack(seat))
            drawn = self.rng.sample(unseen, missing)
            return SetRack(seat, tuple(game.rack(seat) + drawn))
        found = self.generator.best_moves(game.board_letters(), game.rack(seat))
        if found:
            return self.rng.choice(found).action()
        keep_out = [t for t in game.rack(seat) if t != BLANK]
        if game.bag_count >= RACK_SIZE and keep_out:
            return Exchange(tuple(keep_out))
        return Pass()
