"""DoubleCross: every tile is judged as it lands, and points flow to the owners of tiles.

How it is played (docs/rules.md settles every point):

- 2-4 players, racks of 6 from a bag of 98 letters (no blanks); words score by
  length. A neutral start word of 3-5 letters lies across row 8 (middle on H8), stable
  and owned by nobody.
- In a turn a player lays tiles one at a time, anywhere, and may play directional
  bombs from the tray. Each tile must extend from a stable tile along its *judged
  run* (the tile, the unstable letters next to it, and the stable block that stops
  them) or it is **refused** (back to the rack, the turn goes on). If no judged run
  is a *partial word* (letters found inside a word) the tile is **destroyed**: its
  owner loses 4 and the turn ends.
- The board then **settles**: orphans and tiles in no partial word are destroyed
  (owner −4), and tiles whose words are all complete (at least ``min_word`` letters,
  in the word list) become **stable**, again until nothing changes. Whoever placed
  the tile (or set off the bomb) scores 1 per letter of each word completed; each tile
  made stable pays its owner the length of each completed word it lies in, whoever's
  turn it is (STEM: placer 12, the owner of S 4).
- Special spaces: bonus (+5, then every bonus space left is worth 5 more), coloured
  bombs in the corners (another's: that player's unstable tiles destroyed, +8; your
  own: defused, +16), directional bombs (picked up for +2/+4 into a tray of two,
  played later on any square: every unstable tile in the row and/or column is
  destroyed), blocking spaces, mystery spaces (from the game's seeded random source).
- Ending the turn with nothing played is a pass; new letters (the rack back to the
  bag, six drawn) is a pass too. After a full round of passes the last passer may end
  the game; it also ends when the bag is empty and the player to move has no tiles.
  Then −4 per tile left on a rack and −1 per own unstable tile on the board.
- Undo takes the last tile of the turn back while the turn has completed nothing,
  destroyed nothing and touched no special space.

The engine: this module is the ``Game``; ``doublecross_board`` (cells, tiles,
special spaces), ``doublecross_judge`` (runs, words, settling), ``doublecross_score``
(the record and the paying of words), ``doublecross_play`` (the position and the
effect of each action), ``doublecross_setup`` (options, bag, start word, layout),
``doublecross_actions``, ``doublecross_planner`` and ``doublecross_player`` (the computer
player).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Mapping
from typing import Any

from games.core import (
    JSON,
    Action,
    Cell,
    Game,
    Layout,
    Outcome,
    Pass,
    Piece,
    PlayerId,
    Resign,
    Verdict,
)
from games.doublecross import ABOUT
from games.doublecross.actions import (
    EndGame,
    EndTurn,
    NewLetters,
    PlaceTile,
    PlayBomb,
    Undo,
    decode,
)
from games.doublecross.board import ALL_CELLS, BLOCK, CELLS, DIRECTIONAL, Board, cell_name
from games.doublecross.judge import Judge, Word, Words
from games.doublecross.planner import Planner
from games.doublecross.play import Rules, State
from games.doublecross.score import Note
from games.doublecross.setup import describe_specials, make_setup
from games.errors import MalformedAction

__all__ = [
    "DoubleCross",
    "EndGame",
    "EndTurn",
    "MalformedAction",
    "NewLetters",
    "PlaceTile",
    "PlayBomb",
    "Undo",
]


_PIECES: dict[tuple[str, int | None, bool], Piece] = {}
"""One piece for each letter, owner and stability: a layout is built from these."""


class DoubleCross(Game):
    """One game of DoubleCross; options are described in ``games.doublecross.setup``."""

    about = ABOUT

    def __init__(
        self,
        players: int = 2,
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        lexicon: Words,
    ) -> None:
        super().__init__(players, rng, options)
        self.lexicon = lexicon
        min_word = self.options.get("min_word", 3)
        self.word_judge = Judge(lexicon, min_word if min_word in (3, 4) else 3)
        setup = make_setup(self.options, players, self.rng, self.word_judge)
        self.rules = Rules(self.word_judge, [self.seat_name(p) for p in range(players)])
        board = Board()
        for i, letter in zip(setup.start_cells, setup.start_word, strict=True):
            board.put(i, letter, None, stable=True)
        start = Word(0, setup.start_cells, setup.start_word)
        self.start_word = setup.start_word
        self.start_cells: tuple[Cell, ...] = tuple(cell_name(i) for i in setup.start_cells)
        """Where the start word lies, first letter first."""
        self.state = State(
            board=board,
            specials=setup.specials,
            bonus=5,
            racks=setup.racks,
            trays=[[] for _ in range(players)],
            bag=setup.bag,
            scores=[0] * players,
            paid={start},
            turn=setup.first,
        )
        self._laid_out: tuple[tuple[tuple[Any, ...], ...], Layout] = ((), {})
        """The board's contents when ``layout`` was last built, and that layout."""
        self.record: list[list[Note]] = []
        """The notes of every accepted action, in order."""
        self.set_up_specials = describe_specials(setup.specials)
        """Where each special-space marker goes, for the set-up display."""

    # -- what the table needs to know -------------------------------------------------
    @property
    def to_move(self) -> PlayerId:
        return self.state.turn

    def scores(self) -> list[int]:
        return list(self.state.scores)

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome

    def cells(self) -> list[Cell]:
        return list(ALL_CELLS)

    def layout(self) -> Layout:
        b = self.state.board
        # The board is changed in place in many steps; its contents say whether the
        # layout built last still stands.
        key = (tuple(b.letters), tuple(b.owners), tuple(b.stable))
        if key != self._laid_out[0]:
            pieces = _PIECES
            layout: Layout = {}
            for i in b.occupied():
                tile = (b.letters[i], b.owners[i], b.stable[i])
                piece = pieces.get(tile)
                if piece is None:
                    piece = pieces[tile] = Piece(
                        "tile", tile[0], tile[1], "stable" if tile[2] else ""
                    )
                layout[ALL_CELLS[i]] = piece
            self._laid_out = (key, layout)
        return dict(self._laid_out[1])

    def rack(self, player: PlayerId) -> list[str]:
        return list(self.state.racks[player])

    def tray(self, player: PlayerId) -> list[str]:
        return list(self.state.trays[player])

    @property
    def bag_count(self) -> int:
        return len(self.state.bag)

    def specials(self) -> dict[Cell, str]:
        """The special spaces not yet used, by cell."""
        return {cell_name(i): k for i, k in sorted(self.state.specials.items())}

    @property
    def bonus_value(self) -> int:
        return self.state.bonus

    def stable(self, cell: Cell) -> bool:
        i = ALL_CELLS.index(cell)
        return self.state.board.stable[i]

    @property
    def may_end(self) -> PlayerId | None:
        """The seat that may end the game now (the last of a round of passes)."""
        return self.state.may_end

    def out_of_turn_seats(self) -> tuple[PlayerId, ...]:
        """The last passer of a full round of passes, while they may end the game."""
        seat = self.state.may_end
        if seat is None or seat == self.to_move or self.outcome is not None:
            return ()
        return (seat,)

    @property
    def last_notes(self) -> list[Note]:
        return self.record[-1] if self.record else []

    def state_dict(self) -> JSON:
        out = super().state_dict()
        b = self.state.board
        out["layout"] = {
            cell_name(i): {
                "kind": "tile",
                "label": b.letters[i],
                "owner": b.owners[i],
                "stable": b.stable[i],
            }
            for i in sorted(b.occupied(), key=cell_name)
        }
        out["racks"] = [self.rack(p) for p in range(self.players)]
        out["trays"] = [self.tray(p) for p in range(self.players)]
        out["bag"] = self.bag_count
        out["specials"] = self.specials()
        out["bonus_value"] = self.bonus_value
        out["min_word"] = self.word_judge.min_word
        out["may_end"] = self.may_end
        out["happened"] = [n.to_dict() for n in self.last_notes]
        return out

    # -- actions ----------------------------------------------------------------------
    def _judge(self, action: Action) -> Verdict:
        problem = self.rules.problem(self.state, action)
        return Verdict.reject(problem) if problem else Verdict.ok()

    def _apply(self, action: Action) -> Verdict:
        tally = self.rules.apply(self.state, action, self.rng)
        self.record.append(tally.notes)
        summary = "; ".join(n.text for n in tally.notes)
        return Verdict.ok(tally.events, tally.removed, summary)

    def decode(self, data: Mapping[str, Any]) -> Action:
        """The action ``data`` journals, read against this position: an ``end-game``
        entry that names no seat (as journals written before the seat was recorded
        have it) is the last passer's, when someone may end the game now."""
        action = decode(data)
        if isinstance(action, EndGame) and action.player is None:
            return EndGame(self.state.may_end)
        return action

    def iter_legal_actions(self) -> Iterator[Action]:
        """Every action that may be taken now, produced one at a time: the player to
        move's, and after a full round of passes the last passer's ``EndGame``."""
        s = self.state
        if s.outcome is not None:
            return
        if s.may_end is not None:
            yield EndGame(s.may_end)
        for letter in sorted(set(s.racks[s.turn])):
            for i in range(CELLS):
                if not s.board.letters[i] and s.specials.get(i) != BLOCK:
                    action = PlaceTile(cell_name(i), letter)
                    if self.rules.problem(s, action) is None:
                        yield action
        for kind in DIRECTIONAL:
            if kind in s.trays[s.turn]:
                for i in range(CELLS):
                    if s.specials.get(i) != BLOCK:
                        yield PlayBomb(kind, cell_name(i))
        for other in (Undo(), NewLetters(), Pass(), EndTurn(), Resign(s.turn)):
            if self.rules.problem(s, other) is None:
                yield other

    def legal_actions(self) -> list[Action]:
        """Every legal action (a few hundred to a few thousand: each rack letter on each
        cell it may go, each bomb on each cell); the computer player uses ``shortlist``."""
        return list(self.iter_legal_actions())

    def snapshot(self) -> DoubleCross:
        """An independent copy of this game, its position, record and random source."""
        twin = copy.copy(self)
        twin.state = self.state.copy()
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin.options = dict(self.options)
        twin.history = list(self.history)
        twin.record = list(self.record)
        twin._accepted = None
        return twin

    def shortlist(self, limit: int = 12) -> list[Action]:
        """The computer player's best few actions now, best first."""
        return Planner(self.rules, self.state, self.word_judge).shortlist(limit)


GAME = DoubleCross
"""The game's class, as ``games.registry`` finds it."""
