"""Crosslet: a Scrabble relative with open racks where one turn may lay tiles in several lines.

The rules are RULES.md §1. Cells are ``A1`` (top left) to ``O15``, ``H8`` the centre.
Letters are upper case; ``"?"`` is a blank, and the letter a blank stands for is
named in ``PlaceTiles.blanks``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from games.core import (
    JSON,
    Action,
    BadSettings,
    Cell,
    Game,
    GameError,
    IllegalMove,
    Layout,
    Outcome,
    Pass,
    Piece,
    PlayerId,
    Resign,
    ScoreEvent,
    Verdict,
)
from games.crosslet_board import (
    ALL_CELLS,
    ALL_TILES_BONUS,
    BLANK,
    CENTRE,
    RACK_SIZE,
    TILE_COUNTS,
    FormedWord,
    formed_words,
    joined,
    parse_cell,
    rack_points,
)

__all__ = ["Crosslet", "Exchange", "PlaceTiles", "WordList"]

_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class WordList(Protocol):
    """What Crosslet needs of a lexicon: a word test and, for the computer player, the words."""

    def is_word(self, s: str) -> bool:
        """Whether ``s`` (lower case) is an allowed word."""
        ...

    def words(self) -> Iterable[str]:
        """Every allowed word, lower case."""
        ...


class MalformedAction(GameError):
    """A journal entry or script line that is not a Crosslet action."""


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
class PlaceTiles(Action):
    """Lay tiles on empty cells: ``tiles`` are (cell, letter) pairs, ``"?"`` for a blank;
    ``blanks`` names, by cell, the letter each blank stands for."""

    type: ClassVar[str] = "place"
    tiles: tuple[tuple[str, str], ...]
    blanks: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> JSON:
        return {
            "type": self.type,
            "tiles": [list(t) for t in self.tiles],
            "blanks": [list(b) for b in self.blanks],
        }


@dataclass(frozen=True)
class Exchange(Action):
    """Put ``letters`` back in the bag and draw as many new tiles."""

    type: ClassVar[str] = "exchange"
    letters: tuple[str, ...]


@dataclass(frozen=True)
class _Placement:
    """A placement that passed every check but the dictionary."""

    placed: dict[Cell, str]
    used: list[str]
    words: list[FormedWord]


class Crosslet(Game):
    """One game of Crosslet.

    Options: ``"first"`` — the seat that starts (default: drawn from ``rng``);
    ``"bag"`` — the 100 tiles in the order they are drawn (default: shuffled by
    ``rng``), for set-up positions and scenario scripts.
    """

    name: ClassVar[str] = "crosslet"
    title: ClassVar[str] = "Crosslet"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def __init__(
        self,
        players: int = 2,
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        lexicon: WordList,
    ) -> None:
        super().__init__(players, rng, options)
        self.lexicon = lexicon
        self._board: dict[Cell, str] = {}
        self._placer: dict[Cell, PlayerId] = {}
        self._scores = [0] * players
        self._scoreless = 0
        self._outcome: Outcome | None = None
        self._went_out: PlayerId | None = None
        self._bag = self._initial_bag()
        self._racks: list[list[str]] = [[] for _ in range(players)]
        for seat in range(players):
            self._refill(seat)
        first = self.options.get("first")
        if first is None:
            first = self.rng.randrange(players)
        if not isinstance(first, int) or not 0 <= first < players:
            raise BadSettings(
                f"option 'first' must be a seat from 0 to {players - 1}, not {first!r}"
            )
        self._turn: PlayerId = first

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
        return self._turn

    def scores(self) -> list[int]:
        return list(self._scores)

    def rack(self, player: PlayerId) -> list[str]:
        """The tiles on a seat's rack (open to all), ``"?"`` for a blank."""
        return list(self._racks[player])

    @property
    def bag_count(self) -> int:
        """Tiles left in the bag."""
        return len(self._bag)

    def board_letters(self) -> dict[Cell, str]:
        """The letter on each occupied cell: upper case, lower case for a blank."""
        return dict(self._board)

    def layout(self) -> Layout:
        out: Layout = {}
        for cell, letter in self._board.items():
            if letter.islower():
                out[cell] = Piece("tile", BLANK, self._placer[cell], f"blank:{letter.upper()}")
            else:
                out[cell] = Piece("tile", letter, self._placer[cell])
        return out

    def cells(self) -> list[Cell]:
        return list(ALL_CELLS)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def state_dict(self) -> JSON:
        out = super().state_dict()
        out["racks"] = [list(r) for r in self._racks]
        out["bag"] = len(self._bag)
        return out

    # -- actions -----------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """The generator's best few placements, an exchange of the whole rack, and a pass."""
        if self._outcome is not None:
            return []
        from games.movegen import generator_for

        actions: list[Action] = list(generator_for(self.lexicon).top(self, self._turn, 5))
        if len(self._bag) >= RACK_SIZE:
            actions.append(Exchange(tuple(self._racks[self._turn])))
        actions.append(Pass())
        return actions

    def hint(self, player: PlayerId | None = None) -> PlaceTiles | None:
        """The best-scoring single-line placement for a seat (default: the one to move)."""
        from games.movegen import generator_for

        seat = self._turn if player is None else player
        return generator_for(self.lexicon).best(self, seat)

    def check(self, action: Action) -> Verdict:
        try:
            if isinstance(action, PlaceTiles):
                self._placement(action, check_words=True)
            elif isinstance(action, Exchange):
                self._check_exchange(action)
            elif isinstance(action, Resign):
                if not 0 <= action.player < self.players:
                    raise IllegalMove(f"there is no seat {action.player} in this game")
            elif not isinstance(action, Pass):
                raise IllegalMove(f"Crosslet has no {action.type!r} action")
        except IllegalMove as e:
            return Verdict.reject(e.reason)
        return Verdict.ok()

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
            if not joined([*self._board, *placed]):
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
        have = Counter(self._racks[self._turn])
        for letter, n in Counter(letters).items():
            name = "blank" if letter == BLANK else letter
            if have[letter] == 0:
                raise IllegalMove(f"you have no {name}")
            if have[letter] < n:
                raise IllegalMove(f"you have only {have[letter]} {name}, not {n}")

    def _check_exchange(self, action: Exchange) -> None:
        if len(self._bag) < RACK_SIZE:
            raise IllegalMove(f"exchange needs {RACK_SIZE} tiles in the bag; {len(self._bag)} left")
        if not action.letters:
            raise IllegalMove("choose at least one tile to exchange")
        for t in action.letters:
            if not isinstance(t, str) or (t.upper() not in _LETTERS and t != BLANK):
                raise IllegalMove(f"{t!r} is not a tile; use A to Z or ? for a blank")
        self._check_rack([t.upper() for t in action.letters])

    def _apply(self, action: Action) -> Verdict:
        seat = self._turn
        if isinstance(action, PlaceTiles):
            p = self._placement(action, check_words=False)
            events = [ScoreEvent(seat, w.points, w.word) for w in p.words]
            if len(p.placed) == RACK_SIZE:
                events.append(ScoreEvent(seat, ALL_TILES_BONUS, "all 7 tiles"))
            for cell, letter in p.placed.items():
                self._board[cell] = letter
                self._placer[cell] = seat
            rack = self._racks[seat]
            for letter in p.used:
                rack.remove(letter)
            self._refill(seat)
            gained = sum(e.points for e in events)
            self._scores[seat] += gained
            self._scoreless = 0 if gained else self._scoreless + 1
            if not rack and not self._bag:
                self._went_out = seat
                events.extend(self._finish("the bag is empty and a rack is played out"))
                return Verdict.ok(events)
            return Verdict.ok(events + self._next_turn())
        if isinstance(action, Exchange):
            rack = self._racks[seat]
            back = [t.upper() for t in action.letters]
            for t in back:
                rack.remove(t)
            self._refill(seat)
            self._bag.extend(back)
            self.rng.shuffle(self._bag)
            self._scoreless += 1
            return Verdict.ok(self._next_turn())
        if isinstance(action, Resign):
            others = [p for p in range(self.players) if p != action.player]
            top = max(self._scores[p] for p in others)
            self._outcome = Outcome(
                tuple(p for p in others if self._scores[p] == top),
                f"{self.seat_name(action.player)} resigned",
            )
            return Verdict.ok()
        self._scoreless += 1
        return Verdict.ok(self._next_turn())

    def _refill(self, seat: PlayerId) -> None:
        rack = self._racks[seat]
        while len(rack) < RACK_SIZE and self._bag:
            rack.append(self._bag.pop())

    def _next_turn(self) -> list[ScoreEvent]:
        if self._scoreless >= 2 * self.players:
            return self._finish("every player had two scoreless turns in a row")
        self._turn = (self._turn + 1) % self.players
        return []

    def _finish(self, reason: str) -> list[ScoreEvent]:
        events: list[ScoreEvent] = []
        left: list[int] = [rack_points(r) for r in self._racks]
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
        self._outcome = Outcome(winners, reason, draw=len(winners) == self.players)
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
        if kind == Pass.type:
            return Pass()
        if kind == Resign.type:
            player = data.get("player", 0)
            if not isinstance(player, int):
                raise MalformedAction(f"resign needs a seat number, not {player!r}")
            return Resign(player)
        raise MalformedAction(
            f"{kind!r} is not a Crosslet action; expected place, exchange, pass or resign"
        )
