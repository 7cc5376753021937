"""Crosslet's computer players, one per level (``games.levels``): the standard one lays
the best single-line placement the generator finds; the beginner lays a word it
likes, most often a short one; the expert weighs each placement's score with the
value of the tiles it keeps (the rack leave) and of the squares it opens, then plays
its best few out against the opponent's best reply on racks drawn from the tiles it
cannot see."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

from games.core import Action, Game, Pass, Player
from games.crosslet.actions import Exchange, SetRack
from games.crosslet.board import (
    BLANK,
    LETTER_VALUES,
    RACK_SIZE,
    SIZE,
    TILE_COUNTS,
    WORD_MULTIPLIER,
    cell_name,
    parse_cell,
)
from games.crosslet.game import Crosslet
from games.crosslet.movegen import Move, MoveGenerator
from games.levels import BEGINNER, DEFAULT, EXPERT, STANDARD, Whim, parse_level


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


# -- the other levels --------------------------------------------------------------------
BEGINNER_FANCY = 0.8
"""How often the beginner lays a word of its own fancy rather than the best one."""
BEGINNER_TILES = 3
"""The most tiles a beginner's word of fancy uses."""
EXPERT_CANDIDATES = 40
"""The best-scoring placements the expert weighs by what they leave."""
TILE_LEAVE: dict[str, float] = {
    BLANK: 8.5,
    "A": -0.8,
    "B": -1.1,
    "C": -1.6,
    "D": -0.5,
    "E": -0.3,
    "F": -0.4,
    "G": -2.2,
    "H": 0.9,
    "I": -1.5,
    "J": 0.7,
    "K": 0.3,
    "L": -2.2,
    "M": 0.6,
    "N": -1.5,
    "O": -1.4,
    "P": -0.5,
    "Q": -2.6,
    "R": -1.3,
    "S": 1.8,
    "T": -1.1,
    "U": -2.5,
    "V": -2.6,
    "W": -1.2,
    "X": 4.5,
    "Y": 1.3,
    "Z": 2.6,
}
"""What keeping each tile for the next turn is worth, in points, against drawing a
fresh one: fitted by least squares on 31,797 turns of 1,650 games of standard against
standard on this game's tile set and scores (15 for all seven tiles), regressing the
points of a seat's next placement on the tiles it kept (one count per letter, the
duplicates and the vowel misfit below), rounded to 0.1. The blank and S make words and
hooks; X, Z, J, Y and H score on the letter squares; U, V, Q, G and L are hard to place."""
DUPLICATE = 2.8
"""Less for each copy of a tile kept beyond the first (fitted with ``TILE_LEAVE``)."""
VOWELS = frozenset("AEIOU")
BALANCE = 1.4
"""Less for each vowel too many or too few against the best mix (about 2 in 5; fitted
with ``TILE_LEAVE``)."""
TRIPLE_OPENED = 2.0
"""Less for each word ×3 square a placement puts a tile next to for the opponent
(weighed only in the first ranking: the played-out reply then counts what it opens)."""
ENDGAME_TILE = 1.5
"""With the bag empty a tile kept counts against the keeper: times its points."""
LEAVE_SCALE = 1.0
"""The rack leave's weight against the points scored now (the fit is in points)."""
EXCHANGE_BELOW = 4.0
"""The expert weighs an exchange when its best placement is worth less than this."""
SIM_CANDIDATES = 4
"""The placements of best static worth the expert plays out against sampled replies."""
SIM_RACKS = 3
"""Opponent's racks sampled from the unseen tiles per decision (the same for every
candidate, so they are compared on equal terms)."""
REPLY_WEIGHT = 1.0
"""The sampled best reply's points against the points scored now."""


def leave_value(kept: Sequence[str], bag: int) -> float:
    """What keeping the tiles ``kept`` is worth for the turns to come."""
    if bag == 0:
        return -ENDGAME_TILE * sum(LETTER_VALUES[t] for t in kept)
    counts = Counter(kept)
    value = sum(TILE_LEAVE.get(t, 0.0) for t in kept)
    value -= DUPLICATE * sum(n - 1 for n in counts.values() if n > 1)
    vowels = sum(n for t, n in counts.items() if t in VOWELS)
    ideal = round(0.4 * (len(kept) - counts[BLANK]))
    value -= BALANCE * abs(vowels - ideal)
    return value


def _kept(rack: Sequence[str], move: Move) -> list[str]:
    left = Counter(rack)
    for _, letter in move.tiles:
        left[letter if letter == BLANK or letter.isupper() else BLANK] -= 1
    return sorted(left.elements())


def _triples_opened(board: dict[str, str], move: Move) -> int:
    """The empty word ×3 squares next to a tile this placement lays."""
    placed = {cell for cell, _ in move.tiles}
    seen: set[str] = set()
    for cell in placed:
        col, row = parse_cell(cell)
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            c, r = col + dc, row + dr
            if 0 <= c < SIZE and 0 <= r < SIZE and WORD_MULTIPLIER[r][c] == 3:
                name = cell_name(c, r)
                if name not in board and name not in placed:
                    seen.add(name)
    return len(seen)


def _rack_or_reveal(player: CrossletPlayer, game: Crosslet) -> Action | None:
    """The standard player's ``SetRack`` while the rack is not fully known, else None."""
    if game.rack_known(game.to_move):
        return None
    return player.choose(game)


class CrossletBeginner(Player):
    """Lays a short word somewhere at random, now and then the best-scoring one."""

    def __init__(self, generator: MoveGenerator, rng: random.Random) -> None:
        self.standard = CrossletPlayer(generator, rng)
        self.generator = generator
        self.whim = Whim(rng, BEGINNER_FANCY)

    def choose(self, game: Game) -> Action:
        crosslet = _crosslet(game)
        first = _rack_or_reveal(self.standard, crosslet)
        if first is not None:
            return first
        moment = len(crosslet.history)
        if not self.whim.strays(moment):
            return CrossletPlayer(self.generator, self.whim.rng(moment)).choose(crosslet)
        moves = list(
            self.generator.moves(crosslet.board_letters(), crosslet.rack(crosslet.to_move))
        )
        short = [m for m in moves if len(m.tiles) <= BEGINNER_TILES] or moves
        if not short:
            return self.standard.choose(crosslet)
        return self.whim.rng(moment).choice(short).action()


class CrossletExpert(Player):
    """Score plus rack leave, less the word ×3 squares opened to the opponent; the best
    few placements (and an exchange when nothing scores well) are then played out
    against the opponent's best reply on racks sampled from the unseen tiles."""

    def __init__(self, generator: MoveGenerator, rng: random.Random) -> None:
        self.standard = CrossletPlayer(generator, rng)
        self.generator = generator
        self.rng = rng
        self.salt = rng.random()

    def ranked(self, game: Crosslet) -> list[tuple[float, Move, list[str]]]:
        """The placements weighed, best first: (worth, move, the tiles kept)."""
        seat = game.to_move
        rack = game.rack(seat)
        board = game.board_letters()
        bag = game.bag_count
        out = []
        for move in self.generator.top(board, rack, EXPERT_CANDIDATES):
            kept = _kept(rack, move)
            leave = leave_value(kept, max(0, bag - len(move.tiles)))
            worth = move.score + LEAVE_SCALE * leave
            worth -= TRIPLE_OPENED * _triples_opened(board, move)
            out.append((worth, move, kept))
        out.sort(key=lambda t: -t[0])
        return out

    def replies(self, game: Crosslet, rng: random.Random) -> list[list[str]]:
        """The opponent's racks to play against: with the bag empty the unseen tiles are
        that rack; else ``SIM_RACKS`` drawn from them by ``rng``."""
        unseen = unseen_by(game, game.to_move)
        size = min(RACK_SIZE, len(unseen))
        if size == 0:
            return []
        if game.bag_count == 0:
            return [unseen[:size]]
        return [sorted(rng.sample(unseen, size)) for _ in range(SIM_RACKS)]

    def reply_points(self, board: dict[str, str], racks: Sequence[Sequence[str]]) -> float:
        """The mean points of the opponent's best placement over ``racks``."""
        if not racks:
            return 0.0
        total = 0
        for rack in racks:
            best = self.generator.best(board, rack)
            total += best.score if best is not None else 0
        return total / len(racks)

    def choose(self, game: Game) -> Action:
        crosslet = _crosslet(game)
        first = _rack_or_reveal(self.standard, crosslet)
        if first is not None:
            return first
        ranked = self.ranked(crosslet)
        rack = crosslet.rack(crosslet.to_move)
        board = crosslet.board_letters()
        rng = random.Random(f"{self.salt}:{len(crosslet.history)}")
        racks = self.replies(crosslet, rng)
        best: Action | None = None
        best_worth = float("-inf")
        for static, move, _ in ranked[:SIM_CANDIDATES]:
            after = _laid(board, move)
            worth = static + TRIPLE_OPENED * _triples_opened(board, move)
            worth -= REPLY_WEIGHT * self.reply_points(after, racks)
            if worth > best_worth:
                best, best_worth = move.action(), worth
        if crosslet.bag_count >= RACK_SIZE and (not ranked or ranked[0][0] < EXCHANGE_BELOW):
            keep = self._keep(rack)
            out = list((Counter(rack) - Counter(keep)).elements())
            if out:
                worth = LEAVE_SCALE * leave_value(keep, crosslet.bag_count)
                worth -= REPLY_WEIGHT * self.reply_points(board, racks)
                if worth > best_worth:
                    best, best_worth = Exchange(tuple(sorted(out))), worth
        if best is not None:
            return best
        return self.standard.choose(crosslet)

    @staticmethod
    def _keep(rack: Sequence[str]) -> list[str]:
        """The tiles worth keeping through an exchange: the best leave of up to three."""
        best: list[str] = []
        best_value = leave_value([], RACK_SIZE)
        tiles = sorted(rack)
        for size in (1, 2, 3):
            for keep in set(itertools.combinations(tiles, size)):
                value = leave_value(keep, RACK_SIZE)
                if value > best_value:
                    best, best_value = list(keep), value
        return best


def unseen_by(game: Crosslet, seat: int) -> list[str]:
    """The tiles ``seat`` cannot see, sorted: the whole set less the board and its own
    rack (the bag and the other racks together, never told apart)."""
    left = Counter(TILE_COUNTS)
    for letter in game.board_letters().values():
        left[BLANK if letter.islower() else letter] -= 1
    left.subtract(game.rack(seat))
    return sorted((+left).elements())


def _laid(board: dict[str, str], move: Move) -> dict[str, str]:
    """The board after ``move``: a blank as the lower-case letter it stands for."""
    named = dict(move.blanks)
    after = dict(board)
    for cell, letter in move.tiles:
        after[cell] = named[cell].lower() if letter == BLANK else letter
    return after


def _crosslet(game: Game) -> Crosslet:
    if not isinstance(game, Crosslet):
        raise TypeError(f"this player plays Crosslet, not {game.title}")
    return game


def make_player(game: Game, rng: random.Random, level: int = DEFAULT) -> Player:
    """The computer player of ``level`` for a game of Crosslet."""
    level = parse_level(level)
    crosslet = _crosslet(game)
    if level == BEGINNER:
        return CrossletBeginner(crosslet.generator, rng)
    if level == EXPERT:
        return CrossletExpert(crosslet.generator, rng)
    assert level == STANDARD
    return CrossletPlayer(crosslet.generator, rng)


def why(game: Game, action: Action) -> str:
    """``"+34 and keeps S, E"``: the points a placement scores and the tiles it keeps."""
    from games.crosslet.actions import PlaceTiles

    if not isinstance(game, Crosslet) or not isinstance(action, PlaceTiles):
        return ""
    if not game.rack_known(game.to_move):
        return ""
    try:
        points = sum(p for _, p in game.score_placement(action))
    except ValueError:
        return ""
    left = Counter(game.rack(game.to_move))
    for _, letter in action.tiles:
        left[letter] -= 1
    kept = sorted(t for t in left.elements())
    words = f"+{points}"
    if kept and len(kept) <= 3:
        words += " and keeps " + ", ".join(kept)
    return words
