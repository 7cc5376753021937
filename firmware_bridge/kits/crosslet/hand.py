"""The simulated hand for Crosslet: lay the tiles, name the blanks, keep the racks.

In the table's bag the hand draws from the tiles neither on the board nor on any
rack cell, by its own seeded random source.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from games.core import Action, Pass, Resign
from games.crosslet.board import ALL_CELLS, BLANK, RACK_SIZE, TILE_COUNTS
from games.crosslet.game import Exchange, PlaceTiles, RevealRack, SetRack

from ..hand import Hand, Step
from .referee import CrossletReferee
from .turn import TURN_MENU, order, short, spell, tile_letter

SWEEP_WAIT_S = 0.3
"""How long a simulated hand waits after laying tiles, for the RFID sweep to read them."""


class CrossletHand(Hand[CrossletReferee]):
    judged_as_laid = False

    def __init__(self, referee: CrossletReferee) -> None:
        super().__init__(referee)
        self._hand_rng: random.Random | None = None

    def piece_labels(self, cells: list[str], piece: str) -> list[str]:
        if len(cells) == 1:
            return [piece]  # one tile ("E", "?"), or a stray piece whose tag is no tile
        labels = list(piece)
        if len(labels) != len(cells) or not all(map(tile_letter, labels)):
            raise ValueError(
                "tiles are laid one letter a cell, ? for a blank: "
                f"'place H8,I8,J8 CA?', not {','.join(cells)} {piece}"
            )
        return [label.upper() for label in labels]

    def not_the_movers(
        self, verb: str, cells: list[str], labels: list[str], board: Mapping[str, str]
    ) -> str | None:
        """A tile not on the mover's rack, when the companion deals the racks (with the
        table's own bag it does not know them)."""
        if verb != "place" or self.referee.table:
            return None
        game = self.referee.game
        rack = game.rack(game.to_move)
        layout = game.layout()
        laid = [label for cell, label in board.items() if cell not in layout]
        left = Counter(rack)
        left.subtract(laid)
        for label in labels:
            if not tile_letter(label):
                continue  # a stray piece, not a tile
            if left[label] <= 0:
                return (
                    f"{game.seat_name(game.to_move)} has no {label}"
                    f"{' left after the tiles laid this turn' if laid else ''} "
                    f"(the rack holds {spell(rack)})"
                )
            left[label] -= 1
        return None

    def steps(self, action: Action) -> list[Step]:
        if self.referee.table:
            return self._table_hand(action)
        return self._dealt_hand(action)

    def _dealt_hand(self, action: Action) -> list[Step]:
        steps: list[Step] = []
        if isinstance(action, PlaceTiles):
            tiles = sorted(action.tiles, key=lambda t: order(t[0]))
            named = dict(action.blanks)
            steps.append(("place", ",".join(c for c, _ in tiles), "".join(t for _, t in tiles)))
            steps.append(("wait", str(SWEEP_WAIT_S)))
            # Each blank is named for its cell: the OLED asks about them in reading order.
            steps += [("blank", named[c], c) for c, t in tiles if t == BLANK]
            steps.append(("press", "ok"))
            return steps
        if isinstance(action, Pass | Exchange):
            choice = "pass" if isinstance(action, Pass) else "exchange"
            index = [value for _, value in TURN_MENU].index(choice)
            cells: list[str] = []
            if isinstance(action, Exchange):
                taken = self.referee.game.layout()
                cells = [c for c in ALL_CELLS if c not in taken][: len(action.letters)]
                steps.append(("place", ",".join(cells), "".join(action.letters)))
                steps.append(("wait", str(SWEEP_WAIT_S)))
                if BLANK in action.letters:
                    # Laying a blank asks for its letter; an exchange does not need one.
                    steps.append(("press", "back"))
            steps += [("press", "back"), *[("press", "right")] * index, ("press", "ok")]
            steps += [("lift", cell) for cell in cells]
            return steps
        if isinstance(action, Resign):
            return [("hold", "back"), ("press", "right"), ("press", "ok")]
        return []

    # The table's bag in simulation: the hand draws from the tiles neither on the
    # board nor on any rack cell, by its own seeded random source.
    def _table_hand(self, action: Action) -> list[Step]:
        game = self.referee.game
        seat = action.player if isinstance(action, SetRack | RevealRack) else game.to_move
        cells = self.referee.rack_cells.get(seat)
        if cells is None:
            if isinstance(action, SetRack):
                raise ValueError(
                    f"{game.seat_name(seat)} has no rack cells on this board, so the computer "
                    "cannot show its rack: use a profile with rack cells "
                    "(--profile rfid-15x15-racks-pico) or let the companion deal (racks=dealt)"
                )
            return self._dealt_hand(action)
        rack = self._rack_tiles(seat)
        if isinstance(action, SetRack):
            missing = list((Counter(action.letters) - Counter(rack.values())).elements())
            return self._lay_on_rack(seat, missing, list(rack))
        if isinstance(action, PlaceTiles | Exchange):
            letters = (
                [t for _, t in action.tiles]
                if isinstance(action, PlaceTiles)
                else list(action.letters)
            )
            steps, freed = self._lift_from_rack(rack, letters)
            steps += self._dealt_hand(action)
            bag = self._physical_bag()
            if isinstance(action, Exchange):
                bag.update(t.upper() for t in letters)
            room = RACK_SIZE - (game.rack_size(seat) - len(letters))
            drawn = self._hand_random().sample(sorted(bag.elements()), min(room, bag.total()))
            return steps + self._lay_on_rack(seat, drawn, freed)
        return self._dealt_hand(action)

    def _rack_tiles(self, seat: int) -> dict[str, str]:
        """The tiles on a seat's rack cells, by cell."""
        seen = self.referee.facts.observation
        out: dict[str, str] = {}
        for cell in self.referee.rack_cells.get(seat, ()):
            letter = self.referee.letter(seen[cell]) if cell in seen else None
            if letter is not None:
                out[cell] = letter
        return out

    def _lift_from_rack(
        self, rack: dict[str, str], letters: list[str]
    ) -> tuple[list[Step], list[str]]:
        """Steps that take ``letters`` off the rack cells, and the cells they free."""
        free = dict(rack)
        lifted: list[str] = []
        for letter in letters:
            cell = next((c for c, t in free.items() if t == letter.upper()), None)
            if cell is None:
                raise ValueError(f"the rack cells hold no {letter} to lay")
            del free[cell]
            lifted.append(cell)
        return [("lift", cell) for cell in lifted], lifted

    def _lay_on_rack(self, seat: int, tiles: list[str], freed: list[str]) -> list[Step]:
        if not tiles:
            return []
        taken = set(self.referee.facts.observation) - set(freed)
        empty = [c for c in self.referee.rack_cells[seat] if c not in taken]
        if len(empty) < len(tiles):
            raise ValueError(f"{short(seat)}'s rack cells have no room for {spell(tiles)}")
        cells = empty[: len(tiles)]
        return [("place", ",".join(cells), "".join(tiles)), ("wait", str(SWEEP_WAIT_S))]

    def _physical_bag(self) -> Counter[str]:
        """The tiles in the simulated bag: all 100 less the board and every rack cell."""
        bag = Counter(TILE_COUNTS)
        bag.subtract(p.label for p in self.referee.game.layout().values())
        for seat in self.referee.rack_cells:
            bag.subtract(self._rack_tiles(seat).values())
        return +bag

    def _hand_random(self) -> random.Random:
        if self._hand_rng is None:
            record = self.referee.facts.record
            self._hand_rng = random.Random(record.seed if record is not None else 0)
        return self._hand_rng


HAND = CrossletHand
"""The game's simulated hand, as its kit finds it."""
