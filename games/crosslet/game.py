"""Crosslet: a Scrabble relative with open racks where one turn may lay tiles in several lines.

The rules as played are in docs/rules.md. Cells are ``A1`` (top left) to ``O15``, ``H8`` the centre.
Letters are upper case; ``"?"`` is a blank, and the letter a blank stands for is
named in ``PlaceTiles.blanks``.

Racks come two ways (option ``"racks"``):

- ``"dealt"`` (the default): the engine deals from its own seeded bag and knows
  every rack.
- ``"table"``: the players draw from the table's own bag, so the engine does not
  know what they drew. It keeps each rack's size and the *pool* of unseen tiles
  (the bag and every rack: the 100 tiles less the board), and whatever it has been
  told of each rack (``SetRack``, e.g. from rack cells on the board, or the tiles
  kept after a play). A placement or exchange must be possible from the pool, the
  rack's size and what is known of it; drawing only moves counts. When the game
  ends, it waits in the *counting* state until every rack left that is not fully
  known is shown with ``RevealRack``; then the racks are taken off the scores.
  ``TableBag`` switches a dealt game to the table's bag before its first action.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

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
    ScoreEvent,
    Verdict,
)
from games.crosslet import ABOUT
from games.crosslet.actions import (
    Exchange,
    ExchangeCount,
    PlaceTiles,
    RevealRack,
    SetRack,
    TableBag,
)
from games.crosslet.board import (
    ALL_CELLS,
    ALL_TILES_BONUS,
    BLANK,
    CENTRE,
    RACK_SIZE,
    TILE_COUNTS,
    FormedWord,
    formed_words,
    joined,
    joined_to,
    parse_cell,
    rack_points,
)
from games.crosslet.movegen import MoveGenerator
from games.errors import BadSettings, IllegalMove, MalformedAction

__all__ = [
    "RACK_MODES",
    "Crosslet",
    "Exchange",
    "ExchangeCount",
    "PlaceTiles",
    "RevealRack",
    "SetRack",
    "TableBag",
    "WordList",
]

_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
RACK_MODES = ABOUT.option("racks").choices
"""The values of option ``"racks"``: the engine deals, or the table's own bag is used."""


def _tile_name(tile: str) -> str:
    return "blank" if tile == BLANK else tile


def _spell(tiles: Iterable[str]) -> str:
    return " ".join(sorted(tiles, key=lambda t: (t == BLANK, t)))


class WordList(Protocol):
    """What Crosslet needs of a lexicon: a word test and, to build a move generator, the
    words."""

    def is_word(self, s: str) -> bool:
        """Whether ``s`` (lower case) is an allowed word."""
        ...

    def words(self) -> Iterable[str]:
        """Every allowed word, lower case."""
        ...


def _pairs(value: Any, what: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list | tuple):
        raise MalformedAction(f"{what} must be a list of [cell, letter] pairs, not {value!r}")
    out: list[tuple[str, str]] = []
    for item in value:
        if not (
            isinstance(item, list | tuple)
            and len(item) == 2
            and all(isinstance(x, str) for x in item)
        ):
            raise MalformedAction(f"{what} must be [cell, letter] pairs; {item!r} is not one")
        out.append((item[0], item[1]))
    return tuple(out)


@dataclass(frozen=True)
class _Placement:
    """A placement that passed every check but the dictionary."""

    placed: dict[Cell, str]
    used: list[str]
    words: list[FormedWord]


class Crosslet(Game):
    """One game of Crosslet.

    Options: ``"first"`` — the seat that starts, counted from 1 (default: drawn
    from ``rng``);
    ``"bag"`` — the 100 tiles in the order they are drawn (default: shuffled by
    ``rng``), for set-up positions and scenario scripts; ``"racks"`` — ``"dealt"``
    (default) or ``"table"`` (see the module docstring).

    ``generator`` finds the placements that ``legal_actions``, ``shortlist`` and
    ``hint`` offer: pass the one loaded with the lexicon (games of one lexicon share
    it), or ``make_generator`` to have it loaded when first asked for (a game only
    refereed between people never asks). Without either, the game builds its own
    from ``lexicon.words()`` when first asked, which takes seconds for a full
    dictionary.
    """

    about = ABOUT

    def __init__(
        self,
        players: int = 2,
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        lexicon: WordList,
        generator: MoveGenerator | None = None,
        make_generator: Callable[[], MoveGenerator] | None = None,
    ) -> None:
        super().__init__(players, rng, options)
        self.lexicon = lexicon
        self._generator = generator
        self._make_generator = make_generator
        self._board: dict[Cell, str] = {}
        self._placer: dict[Cell, PlayerId] = {}
        self._pieces: Layout = {}
        """What ``layout`` gives, kept as the tiles are laid (tiles are never taken off)."""
        self._judged: tuple[PlaceTiles, int, _Placement] | None = None
        """The last placement ``_judge`` accepted, with the number of actions played then:
        ``apply`` plays it without working it out again."""
        self._played: tuple[PlaceTiles, int, list[FormedWord]] | None = None
        """The last placement played, the number of actions played with it, its words."""
        self._scores = [0] * players
        self._scoreless = 0
        self._outcome: Outcome | None = None
        self._went_out: PlayerId | None = None
        mode = self.option("racks", "dealt")
        if mode == "table" and "bag" in self.options:
            raise BadSettings(
                "option 'bag' orders the companion's deal; with racks = 'table' the table's "
                "own bag is used: leave one of the two options out"
            )
        self._table = False
        self._pool: Counter[str] = Counter()
        self._sizes: list[int] = [0] * players
        self._known: list[list[str]] = [[] for _ in range(players)]
        self._pending: list[PlayerId] = []
        self._ending = ""
        self._bag: list[str] = []
        self._racks: list[list[str]] = [[] for _ in range(players)]
        if mode == "table":
            self._use_table_bag()
        else:
            self._bag = self._initial_bag()
            for seat in range(players):
                self._refill(seat)
        first = self.option("first")
        if first is None:
            first = self.rng.randrange(players) + 1
        self._turn: PlayerId = first - 1

    def _initial_bag(self) -> list[str]:
        full = [t for t, n in TILE_COUNTS.items() for _ in range(n)]
        order = self.options.get("bag")
        if order is None:
            self.rng.shuffle(full)
            return full
        tiles = [str(t).upper() for t in order]
        if Counter(tiles) != Counter(full):
            raise BadSettings(
                "option 'bag' must list the 100 Crosslet tiles exactly once each, "
                f"in drawing order; it has {len(tiles)} tiles that do not match the set"
            )
        # The bag is drawn from its end.
        return tiles[::-1]

    # -- what the table needs to know -------------------------------------------
    @property
    def to_move(self) -> PlayerId:
        return self._pending[0] if self._pending else self._turn

    def scores(self) -> list[int]:
        return list(self._scores)

    @property
    def racks_mode(self) -> str:
        """``"dealt"`` or ``"table"`` (see the module docstring)."""
        return "table" if self._table else "dealt"

    def rack(self, player: PlayerId) -> list[str]:
        """The tiles on a seat's rack (open to all), ``"?"`` for a blank.

        With table racks: the tiles known to be there, which may be fewer than
        ``rack_size`` (see ``rack_known``).
        """
        if self._table:
            return list(self._known[player])
        return list(self._racks[player])

    def rack_size(self, player: PlayerId) -> int:
        """How many tiles a seat's rack holds."""
        return self._sizes[player] if self._table else len(self._racks[player])

    def rack_known(self, player: PlayerId) -> bool:
        """Whether every tile of a seat's rack is known (always so for dealt racks)."""
        return not self._table or len(self._known[player]) == self._sizes[player]

    def unseen_tiles(self) -> Counter[str]:
        """Tiles neither on the board nor known to be on a rack: the bag and the
        unknown parts of the racks (with dealt racks: the bag)."""
        if not self._table:
            return Counter(self._bag)
        out = Counter(self._pool)
        for known in self._known:
            out.subtract(known)
        return +out

    @property
    def bag_count(self) -> int:
        """Tiles left in the bag."""
        if self._table:
            return self._pool.total() - sum(self._sizes)
        return len(self._bag)

    @property
    def counting(self) -> bool:
        """Whether the game has ended and waits for racks to be revealed."""
        return bool(self._pending)

    @property
    def waiting_for(self) -> list[PlayerId]:
        """The seats whose racks the count still needs, the one asked first first."""
        return list(self._pending)

    @property
    def went_out(self) -> PlayerId | None:
        """The seat that ended the game by playing its last tile, if one did."""
        return self._went_out

    def board_letters(self) -> dict[Cell, str]:
        """The letter on each occupied cell: upper case, lower case for a blank."""
        return dict(self._board)

    def layout(self) -> Layout:
        return dict(self._pieces)

    def cells(self) -> list[Cell]:
        return list(ALL_CELLS)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def state_dict(self) -> JSON:
        out = super().state_dict()
        out["racks"] = [self.rack(p) for p in range(self.players)]
        out["bag"] = self.bag_count
        out["racks_mode"] = self.racks_mode
        out["rack_sizes"] = [self.rack_size(p) for p in range(self.players)]
        out["counting"] = self.waiting_for
        return out

    # -- actions -----------------------------------------------------------------
    @property
    def generator(self) -> MoveGenerator:
        """The move generator of this game's lexicon (made on first use if none was given)."""
        if self._generator is None:
            make = self._make_generator
            self._generator = make() if make is not None else MoveGenerator(self.lexicon.words())
        return self._generator

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move: each placement along one line (in the
        order the generator finds them), each exchange while the bag allows, and a pass.

        Two things are left out because they cannot be listed: placements over several
        lines (legal here, but they are combinations of single-line ones, millions on
        a busy board), and, with table racks whose tiles are not all known, placements
        and named exchanges of tiles the engine has not seen (an exchange by count
        stands for those). Empty once the game is over or waits for racks to count.
        """
        if self._outcome is not None or self._pending:
            return []
        seat = self._turn
        actions: list[Action] = []
        known = self.rack_known(seat)
        if known:
            actions += self.generator.placements(self.board_letters(), self.rack(seat))
        if self.bag_count >= RACK_SIZE:
            if known:
                rack = sorted(self.rack(seat))
                for size in range(1, len(rack) + 1):
                    actions += map(Exchange, sorted(set(itertools.combinations(rack, size))))
            else:
                actions += (ExchangeCount(n) for n in range(1, self.rack_size(seat) + 1))
        actions.append(Pass())
        return actions

    def shortlist(self, n: int = 5) -> list[Action]:
        """A computer player's short list: the ``n`` best-scoring single-line placements
        (best first), an exchange of the whole rack while the bag allows, and a pass."""
        if self._outcome is not None or self._pending:
            # A rack to reveal is on the table, not in the engine: nothing to offer.
            return []
        seat = self._turn
        actions: list[Action] = []
        if self.rack_known(seat):
            top = self.generator.top(self.board_letters(), self.rack(seat), n)
            actions.extend(move.action() for move in top)
        if self.bag_count >= RACK_SIZE:
            if self.rack_known(seat):
                actions.append(Exchange(tuple(self.rack(seat))))
            else:
                actions.append(ExchangeCount(self.rack_size(seat)))
        actions.append(Pass())
        return actions

    def hint(self, player: PlayerId | None = None) -> PlaceTiles | None:
        """The best-scoring single-line placement for a seat (default: the one to move);
        None when none fits or the rack is not known."""
        seat = self._turn if player is None else player
        if not self.rack_known(seat):
            return None
        best = self.generator.best(self.board_letters(), self.rack(seat))
        return None if best is None else best.action()

    def _judge(self, action: Action) -> Verdict:
        try:
            if self._pending and not isinstance(action, RevealRack | Resign):
                names = ", ".join(self.seat_name(p) for p in self._pending)
                raise IllegalMove(f"the game is over: the count waits for the racks of {names}")
            if isinstance(action, PlaceTiles):
                placement = self._placement(action, check_words=True)
                self._judged = (action, len(self.history), placement)
            elif isinstance(action, Exchange):
                self._check_exchange(action)
            elif isinstance(action, ExchangeCount):
                self._check_exchange_count(action)
            elif isinstance(action, SetRack):
                self._check_table("a rack cannot be set")
                self._check_rack_contents(action.player, action.letters)
            elif isinstance(action, RevealRack):
                self._check_reveal(action)
            elif isinstance(action, TableBag):
                if self._table:
                    raise IllegalMove("this game is already played from the table's bag")
                if self.history:
                    raise IllegalMove("the bag can change only before the first move")
            elif isinstance(action, Resign):
                self._check_seat(action.player)
            elif not isinstance(action, Pass):
                raise IllegalMove(f"Crosslet has no {action.type!r} action")
        except IllegalMove as e:
            return Verdict.reject(e.reason)
        return Verdict.ok()

    def last_words(self, action: PlaceTiles) -> list[FormedWord] | None:
        """The words ``action`` formed, with their points, if it is the last action
        played; else None."""
        played = self._played
        if played is not None and played[1] == len(self.history) and played[0] == action:
            return list(played[2])
        return None

    def score_placement(self, action: PlaceTiles) -> list[tuple[str, int]]:
        """The words a placement forms with their points, then ``("all 7 tiles", 15)`` if earned.

        Words are scored even if not in the dictionary or not joined, so the display
        can show a placement in progress; IllegalMove if a cell is off the board,
        taken, or a tile is not on the rack.
        """
        p = self._placement(action, check_words=False)
        out = [(w.word, w.points) for w in p.words]
        if len(p.placed) == RACK_SIZE:
            out.append(("all 7 tiles", ALL_TILES_BONUS))
        return out

    def _placement(self, action: PlaceTiles, *, check_words: bool) -> _Placement:
        if not action.tiles:
            raise IllegalMove("place at least one tile")
        placed: dict[Cell, str] = {}
        used: list[str] = []
        for cell, raw in action.tiles:
            parse_cell(cell)
            letter = raw.upper() if isinstance(raw, str) else ""
            if letter not in _LETTERS and letter != BLANK:
                raise IllegalMove(f"{raw!r} on {cell} is not a letter; use A to Z or ? for a blank")
            if cell in placed:
                raise IllegalMove(f"{cell} is given twice")
            if cell in self._board:
                raise IllegalMove(f"{cell} is occupied")
            placed[cell] = letter
            used.append(letter)
        named: dict[Cell, str] = {}
        for cell, raw in action.blanks:
            letter = raw.upper() if isinstance(raw, str) else ""
            if placed.get(cell) != BLANK:
                raise IllegalMove(f"{cell} holds no blank, so it cannot stand for {raw!r}")
            if cell in named:
                raise IllegalMove(f"the blank on {cell} is named twice: say one letter for it")
            if letter not in _LETTERS:
                raise IllegalMove(
                    f"the blank on {cell} must stand for a letter A to Z, not {raw!r}"
                )
            named[cell] = letter.lower()
        for cell, letter in placed.items():
            if letter == BLANK:
                if cell not in named:
                    raise IllegalMove(f"say which letter the blank on {cell} stands for")
                placed[cell] = named[cell]
        self._check_rack(used)
        if self._board:
            # The board is one group (every placement joined it), so the new tiles
            # need only reach it: the whole board is not walked again.
            if not joined_to(self._board, placed):
                raise IllegalMove("the tiles are not joined to the board")
        else:
            if CENTRE not in placed:
                raise IllegalMove(f"the first move must cover {CENTRE}")
            if len(placed) < 2:
                raise IllegalMove("a word needs two letters or more: place at least two tiles")
            if not joined(placed):
                raise IllegalMove("the tiles are not joined to each other")
        words = formed_words(self._board, placed)
        if check_words:
            bad = [w.word for w in words if not self.lexicon.is_word(w.word.lower())]
            if len(bad) == 1:
                raise IllegalMove(f"{bad[0]} is not a word")
            if bad:
                raise IllegalMove(f"{', '.join(bad[:-1])} and {bad[-1]} are not words")
        return _Placement(placed, used, words)

    def _check_rack(self, letters: Sequence[str]) -> None:
        """That the player to move can lay or give back ``letters`` from the rack."""
        seat = self._turn
        if not self.rack_known(seat):
            self._check_unseen(seat, letters)
            return
        rack = self.rack(seat)
        for letter in dict.fromkeys(letters):
            have = rack.count(letter)
            n = letters.count(letter)
            name = _tile_name(letter)
            if have == 0:
                raise IllegalMove(f"you have no {name}")
            if have < n:
                raise IllegalMove(f"you have only {have} {name}, not {n}")

    def _check_unseen(self, seat: PlayerId, letters: Sequence[str]) -> None:
        """Table racks, partly unknown: the tiles beyond the known ones must fit the
        rack's unknown places and be among the unseen tiles."""
        size = self._sizes[seat]
        if len(letters) > size:
            raise IllegalMove(f"the rack holds {size} tiles, not {len(letters)}")
        known = Counter(self._known[seat])
        extra = Counter(letters) - known
        room = size - known.total()
        if extra.total() > room:
            raise IllegalMove(
                f"the rack was seen holding {_spell(known.elements())} and {room} more, "
                f"so {_spell(extra.elements())} cannot all be on it"
            )
        self._check_pool(extra)

    def _check_pool(self, extra: Counter[str]) -> None:
        """That tiles not known to be on a rack are among the unseen ones."""
        unseen = self.unseen_tiles()
        for letter, n in sorted(extra.items()):
            if unseen[letter] >= n:
                continue
            name = _tile_name(letter)
            board = TILE_COUNTS[letter] - self._pool[letter]
            racks = self._pool[letter] - unseen[letter]
            where = f"{TILE_COUNTS[letter]} in the set, {board} on the board"
            if racks:
                where += f", {racks} on racks seen"
            if unseen[letter] == 0:
                raise IllegalMove(f"no {name} can be on the rack: {where}")
            raise IllegalMove(f"only {unseen[letter]} {name} can be on the rack, not {n}: {where}")

    def _check_tiles(self, letters: Sequence[str]) -> list[str]:
        out: list[str] = []
        for t in letters:
            if not isinstance(t, str) or (t.upper() not in _LETTERS and t != BLANK):
                raise IllegalMove(f"{t!r} is not a tile; use A to Z or ? for a blank")
            out.append(t.upper())
        return out

    def _check_exchange(self, action: Exchange) -> None:
        self._check_bag_for_exchange()
        if not action.letters:
            raise IllegalMove("choose at least one tile to exchange")
        self._check_rack(self._check_tiles(action.letters))

    def _check_bag_for_exchange(self) -> None:
        if self.bag_count < RACK_SIZE:
            raise IllegalMove(f"exchange needs {RACK_SIZE} tiles in the bag; {self.bag_count} left")

    def _check_exchange_count(self, action: ExchangeCount) -> None:
        self._check_table("name the tiles to exchange")
        self._check_bag_for_exchange()
        size = self._sizes[self._turn]
        count = action.count
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= size:
            raise IllegalMove(f"exchange 1 to {size} tiles, not {count!r}")

    def _check_table(self, what: str) -> None:
        if not self._table:
            raise IllegalMove(f"{what}: the companion deals in this game and knows every rack")

    def _check_seat(self, seat: PlayerId) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalMove(f"there is no seat {seat!r} in this game")

    def _check_rack_contents(self, seat: PlayerId, letters: Sequence[str]) -> None:
        """That ``letters`` can be exactly what ``seat``'s rack holds."""
        self._check_seat(seat)
        tiles = Counter(self._check_tiles(letters))
        name = self.seat_name(seat)
        size = self._sizes[seat]
        if tiles.total() != size:
            raise IllegalMove(f"{name}'s rack holds {size} tiles, not {tiles.total()}")
        known = Counter(self._known[seat])
        lost = known - tiles
        if lost:
            raise IllegalMove(
                f"{name}'s rack was seen holding {_spell(known.elements())}; "
                f"{_spell(lost.elements())} cannot have left it"
            )
        self._check_pool(tiles - known)

    def _check_reveal(self, action: RevealRack) -> None:
        self._check_table("nothing to reveal")
        if not self._pending:
            raise IllegalMove("racks are revealed only when the game has ended")
        if action.player not in self._pending:
            raise IllegalMove(f"the count does not wait for {self.seat_name(action.player)}'s rack")
        self._check_rack_contents(action.player, action.letters)

    def _apply(self, action: Action) -> Verdict:
        seat = self._turn
        if isinstance(action, PlaceTiles):
            judged, self._judged = self._judged, None
            if judged is not None and judged[1] == len(self.history) and judged[0] == action:
                p = judged[2]
            else:
                p = self._placement(action, check_words=False)
            self._played = (action, len(self.history) + 1, p.words)
            events = [ScoreEvent(seat, w.points, w.word) for w in p.words]
            if len(p.placed) == RACK_SIZE:
                events.append(ScoreEvent(seat, ALL_TILES_BONUS, "all 7 tiles"))
            for cell, letter in p.placed.items():
                self._board[cell] = letter
                self._placer[cell] = seat
                if letter.islower():
                    self._pieces[cell] = Piece("tile", BLANK, seat, f"blank:{letter.upper()}")
                else:
                    self._pieces[cell] = Piece("tile", letter, seat)
            self._take_off_rack(seat, p.used)
            if self._table:
                self._pool.subtract(p.used)
            self._refill(seat)
            gained = sum(e.points for e in events)
            self._scores[seat] += gained
            self._scoreless = 0 if gained else self._scoreless + 1
            if self.rack_size(seat) == 0 and self.bag_count == 0:
                self._went_out = seat
                events.extend(self._finish("the bag is empty and a rack is played out"))
                return Verdict.ok(events)
            return Verdict.ok(events + self._next_turn())
        if isinstance(action, Exchange):
            back = [t.upper() for t in action.letters]
            self._take_off_rack(seat, back)
            self._refill(seat)
            if not self._table:
                self._bag.extend(back)
                self.rng.shuffle(self._bag)
            self._scoreless += 1
            return Verdict.ok(self._next_turn())
        if isinstance(action, ExchangeCount):
            # Which tiles went back is not known, so nothing of the rack is any more.
            self._known[seat] = []
            self._scoreless += 1
            return Verdict.ok(self._next_turn())
        if isinstance(action, SetRack):
            self._known[action.player] = [t.upper() for t in action.letters]
            return Verdict.ok()
        if isinstance(action, RevealRack):
            self._known[action.player] = [t.upper() for t in action.letters]
            self._pending.remove(action.player)
            return Verdict.ok(self._count() if not self._pending else [])
        if isinstance(action, TableBag):
            self._use_table_bag()
            return Verdict.ok()
        if isinstance(action, Resign):
            self._pending = []
            others = [p for p in range(self.players) if p != action.player]
            top = max(self._scores[p] for p in others)
            self._outcome = Outcome(
                tuple(p for p in others if self._scores[p] == top),
                f"{self.seat_name(action.player)} resigned",
            )
            return Verdict.ok()
        self._scoreless += 1
        return Verdict.ok(self._next_turn())

    def _use_table_bag(self) -> None:
        self._table = True
        self._bag = []
        self._racks = [[] for _ in range(self.players)]
        self._pool = Counter(TILE_COUNTS)
        self._sizes = [0] * self.players
        for seat in range(self.players):
            self._refill(seat)

    def _take_off_rack(self, seat: PlayerId, tiles: Sequence[str]) -> None:
        if not self._table:
            for tile in tiles:
                self._racks[seat].remove(tile)
            return
        known = Counter(self._known[seat])
        known.subtract(tiles)
        self._known[seat] = sorted((+known).elements())
        self._sizes[seat] -= len(tiles)

    def _refill(self, seat: PlayerId) -> None:
        if self._table:
            # The player draws from the table's bag: only the count is known.
            self._sizes[seat] += min(RACK_SIZE - self._sizes[seat], self.bag_count)
            return
        rack = self._racks[seat]
        while len(rack) < RACK_SIZE and self._bag:
            rack.append(self._bag.pop())

    def _next_turn(self) -> list[ScoreEvent]:
        if self._scoreless >= 2 * self.players:
            return self._finish("every player had two scoreless turns in a row")
        self._turn = (self._turn + 1) % self.players
        return []

    def _finish(self, reason: str) -> list[ScoreEvent]:
        self._ending = reason
        order = [(self._turn + i) % self.players for i in range(self.players)]
        self._pending = [p for p in order if not self.rack_known(p)]
        return [] if self._pending else self._count()

    def _count(self) -> list[ScoreEvent]:
        """Take the racks left off the scores (and give them to who went out); set the outcome."""
        events: list[ScoreEvent] = []
        left: list[int] = [rack_points(self.rack(p)) for p in range(self.players)]
        for seat in range(self.players):
            if left[seat]:
                events.append(ScoreEvent(seat, -left[seat], "tiles left on the rack"))
        total: int = sum(left)
        if self._went_out is not None and total:
            events.append(ScoreEvent(self._went_out, total, "the other racks"))
        for e in events:
            self._scores[e.player] += e.points
        top = max(self._scores)
        winners = tuple(p for p in range(self.players) if self._scores[p] == top)
        self._outcome = Outcome(winners, self._ending, draw=len(winners) == self.players)
        return events

    def decode(self, data: Mapping[str, Any]) -> Action:
        kind = data.get("type") if isinstance(data, Mapping) else None
        if kind == PlaceTiles.type:
            return PlaceTiles(
                _pairs(data.get("tiles"), "tiles"), _pairs(data.get("blanks", []), "blanks")
            )
        if kind == Exchange.type:
            letters = data.get("letters")
            if not isinstance(letters, list | tuple) or not all(
                isinstance(t, str) for t in letters
            ):
                raise MalformedAction(f"exchange letters must be a list of tiles, not {letters!r}")
            return Exchange(tuple(letters))
        if kind == ExchangeCount.type:
            count = data.get("count")
            if isinstance(count, bool) or not isinstance(count, int):
                raise MalformedAction(f"exchange-count needs a number of tiles, not {count!r}")
            return ExchangeCount(count)
        if kind in (SetRack.type, RevealRack.type):
            player = data.get("player")
            letters = data.get("letters")
            if isinstance(player, bool) or not isinstance(player, int):
                raise MalformedAction(f"{kind} needs a seat number, not {player!r}")
            if not isinstance(letters, list | tuple) or not all(
                isinstance(t, str) for t in letters
            ):
                raise MalformedAction(f"{kind} letters must be a list of tiles, not {letters!r}")
            if kind == SetRack.type:
                return SetRack(player, tuple(letters))
            return RevealRack(player, tuple(letters))
        if kind == TableBag.type:
            return TableBag()
        if kind == Pass.type:
            return Pass()
        if kind == Resign.type:
            player = data.get("player")
            if isinstance(player, bool) or not isinstance(player, int):
                raise MalformedAction(f"resign needs a seat number, not {player!r}")
            return Resign(player)
        raise MalformedAction(
            f"{kind!r} is not a Crosslet action; expected place, exchange, exchange-count, "
            "set-rack, reveal-rack, table-bag, pass or resign"
        )


GAME = Crosslet
"""The game's class, as ``games.registry`` finds it."""
