"""Double Double Dominoes: the turn, scoring and endings, and a computer player.

Rules: docs/rules.md. Where the texts leave a choice
this module settles it so:

- A tie for the lowest domino at setup goes to the lowest seat (seat 0 is the oldest).
- Refilling the hand to three at the end of a turn happens by itself; only the draw
  that starts a turn is an action, so the table can be told to take it.
- A turn after a double ends by itself when no domino in hand fits beside the double.
- "No space where any domino can be placed" asks about every kind of domino (all 28
  exist in the set), not only those still hidden.
- A tie on points and on pips in hand is a shared win.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from games.core import (
    Action,
    Cell,
    Game,
    Layout,
    Outcome,
    Piece,
    Player,
    PlayerId,
    ScoreEvent,
    Verdict,
)
from games.dominoes import ABOUT
from games.dominoes.board import (
    DIAMONDS,
    MAX_PIP,
    NAMES,
    NEIGHBOURS,
    TRACK_LENGTH,
    Board,
    Domino,
    Laid,
    cell_index,
    double_six_sets,
    track_pips,
)
from games.errors import BadCell, BadSettings, GameError

__all__ = [
    "BadCell",
    "Discard",
    "Domino",
    "Dominoes",
    "DominoesPlayer",
    "Draw",
    "EndTurn",
    "Place",
    "first_player",
    "track_pips",
]

HAND_SIZE = 3
TRACK_BONUS = 3
VICTORY_TOTALS = {2: 100, 3: 75, 4: 50, 5: 75, 6: 50}


class Phase(StrEnum):
    """Where a turn stands."""

    DRAW = "draw"
    """The turn's domino is to be drawn."""
    PLAY = "play"
    """A domino from the hand is to be laid."""
    CHAIN = "chain"
    """After a double: another domino beside it, or the turn ends."""
    DISCARD = "discard"
    """Nothing fits: a domino goes to the pit."""
    OVER = "over"


PHASES = tuple(Phase)
"""The parts of a turn, as ``Dominoes.phase`` names them."""

WINNING = 1000.0
"""What the computer player adds to a placement that wins the game at once."""
CHAIN_LOOKAHEAD = 2
DOUBLES_EXPLORED = 4


@dataclass(frozen=True)
class Draw(Action):
    """Take the domino that starts the turn from the boneyard."""

    type: ClassVar[str] = "draw"


@dataclass(frozen=True)
class Place(Action):
    """Lay a domino from the hand: pip ``domino_a`` on ``cell_a``, ``domino_b`` on ``cell_b``."""

    type: ClassVar[str] = "place"
    domino_a: int
    domino_b: int
    cell_a: Cell
    cell_b: Cell

    @property
    def domino(self) -> Domino:
        return Domino(self.domino_a, self.domino_b)

    def normalised(self) -> Place:
        """The same placement as ``placements()`` names it: upper-left cell first, capitals."""
        try:
            ia, ib = cell_index(self.cell_a), cell_index(self.cell_b)
        except BadCell:
            return self
        if ia > ib:
            return Place(self.domino_b, self.domino_a, NAMES[ib], NAMES[ia])
        return Place(self.domino_a, self.domino_b, NAMES[ia], NAMES[ib])


@dataclass(frozen=True)
class Discard(Action):
    """Put a domino from the hand into the pit, out of the game."""

    type: ClassVar[str] = "discard"
    a: int
    b: int


@dataclass(frozen=True)
class EndTurn(Action):
    """Stop laying dominoes after a double."""

    type: ClassVar[str] = "end-turn"


def _pip(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_PIP:
        raise GameError(f"{what} must be a whole number of pips from 0 to {MAX_PIP}, not {value!r}")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise GameError(f"{what} must be a cell name such as 'H8', not {value!r}")
    return value


def _domino(pair: Sequence[int]) -> Domino:
    if len(pair) != 2:
        raise BadSettings(f"a domino is two pip counts such as (6, 3), not {pair!r}")
    return Domino(_pip(pair[0], "a pip"), _pip(pair[1], "a pip")).key()


def first_player(hands: Sequence[Sequence[Domino]]) -> PlayerId:
    """The seat holding the domino with the fewest pips; the lowest such seat on a tie."""
    return min(range(len(hands)), key=lambda p: (min(d.pips for d in hands[p]), p))


class Dominoes(Game):
    """Double Double Dominoes for 2–6 players on a 15×15 board."""

    about = ABOUT

    def __init__(
        self,
        players: int = 2,
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(players, rng, options)
        self.board = Board()
        self._scores = [0] * players
        self._hands: list[list[Domino]] = [[] for _ in range(players)]
        self._pit: list[Domino] = []
        self._boneyard = double_six_sets(3 if players >= 5 else 2)
        self.rng.shuffle(self._boneyard)
        for _ in range(HAND_SIZE):
            for hand in self._hands:
                hand.append(self._boneyard.pop())
        self._to_move = first_player(self._hands)
        self._phase = Phase.DRAW
        self._chain_from: int | None = None
        self._last_drawn = False
        # Only the wording of a refusal differs when a discard trims an overfull hand.
        self._trimming = False
        self._outcome: Outcome | None = None
        self._layout_now: tuple[list[Laid], int, Layout] = ([], 0, {})

    @classmethod
    def from_position(
        cls,
        players: int = 2,
        *,
        board: Sequence[tuple[int, int, str, str] | tuple[int, int, str, str, int]] = (),
        hands: Sequence[Sequence[tuple[int, int]]] | None = None,
        boneyard: Sequence[tuple[int, int]] | None = None,
        pit: Sequence[tuple[int, int]] = (),
        scores: Sequence[int] | None = None,
        to_move: PlayerId = 0,
        phase: str = Phase.DRAW,
    ) -> Dominoes:
        """A game set up as given, for tests and replays of a table.

        ``board`` lists dominoes as ``(a, b, cell_a, cell_b[, owner])`` in the order
        they were laid, not judged by the placing rules; ``boneyard[0]`` is drawn
        next (default: the rest of the sets, shuffled); ``phase`` is ``"draw"`` or
        ``"play"`` (the turn's domino already drawn).
        """
        game = cls(players)
        game._hands = [[_domino(d) for d in h] for h in (hands or [[]] * players)]
        if len(game._hands) != players:
            raise BadSettings(f"give one hand per player: {players} hands, not {len(game._hands)}")
        game._pit = [_domino(d) for d in pit]
        if boneyard is None:
            rest = double_six_sets(3 if players >= 5 else 2)
            used = [d for h in game._hands for d in h] + game._pit
            used += [Domino(e[0], e[1]).key() for e in board]
            for d in used:
                if d in rest:
                    rest.remove(d)
            game.rng.shuffle(rest)
            game._boneyard = rest
        else:
            game._boneyard = [_domino(d) for d in reversed(boneyard)]
        game._scores = list(scores) if scores is not None else [0] * players
        if len(game._scores) != players:
            raise BadSettings(f"give one score per player: {players}, not {len(game._scores)}")
        if not 0 <= to_move < players:
            raise BadSettings(f"to_move must be a seat from 0 to {players - 1}, not {to_move}")
        game._to_move = to_move
        game.board = Board()
        for entry in board:
            a, b, ca, cb = entry[:4]
            owner = entry[4] if len(entry) == 5 else 0
            ia, ib = cell_index(str(ca)), cell_index(str(cb))
            if ib not in NEIGHBOURS[ia]:
                raise BadSettings(f"{ca} and {cb} are not next to each other")
            for i in (ia, ib):
                if i in game.board.pip:
                    raise BadSettings(f"{NAMES[i]} is covered twice")
            game.board.lay(Domino(_pip(a, "a pip"), _pip(b, "a pip")), ia, ib, int(owner))
        if phase == Phase.DRAW:
            game._start_turn()
        elif phase == Phase.PLAY:
            game._begin_play()
        else:
            raise BadSettings(f"phase must be 'draw' or 'play', not {phase!r}")
        return game

    def copy(self) -> Dominoes:
        """An independent copy of the position (sharing the spent setup generator)."""
        other = object.__new__(Dominoes)
        other.__dict__.update(self.__dict__)
        other.board = self.board.copy()
        other._scores = list(self._scores)
        other._hands = [list(h) for h in self._hands]
        other._pit = list(self._pit)
        other._boneyard = list(self._boneyard)
        other.history = list(self.history)
        other._accepted = None
        return other

    # -- what the table needs to know -------------------------------------------
    @property
    def to_move(self) -> PlayerId:
        return self._to_move

    @property
    def phase(self) -> Phase:
        """Where the turn stands (a ``Phase``; it compares equal to its name)."""
        return self._phase

    @property
    def victory_total(self) -> int:
        return VICTORY_TOTALS[self.players]

    @property
    def boneyard_count(self) -> int:
        return len(self._boneyard)

    @property
    def pit(self) -> list[Domino]:
        return list(self._pit)

    @property
    def chain_double(self) -> str | None:
        """The double the next domino must lie beside, in the ``"chain"`` phase."""
        if self._chain_from is None:
            return None
        return self.board.laid[self._chain_from].where()

    def hand(self, player: PlayerId) -> list[Domino]:
        return list(self._hands[player])

    def scores(self) -> list[int]:
        return list(self._scores)

    def track_space(self, player: PlayerId) -> int:
        """The track space of a player's score piece: 0 is the start spot."""
        return min(self._scores[player], TRACK_LENGTH)

    @staticmethod
    def track_pips(space: int) -> int | None:
        """The pips shown on a track space; ``None`` for the start spot."""
        return track_pips(space)

    def layout(self) -> Layout:
        # Dominoes are only ever added to a board, so the layout made last time for
        # the same board stands, with the dominoes laid since added to a copy of it.
        every = self.board.laid
        made, count, layout = self._layout_now
        if made is not every:
            count, layout = 0, {}
        if count != len(every):
            layout = dict(layout)
            for laid in every[count:]:
                d = laid.domino
                for cell, pip in ((laid.cell_a, d.a), (laid.cell_b, d.b)):
                    layout[NAMES[cell]] = Piece("domino", f"{d}:{pip}", laid.owner)
            self._layout_now = (every, len(every), layout)
        return dict(layout)

    def cells(self) -> list[Cell]:
        return list(NAMES)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def state_dict(self) -> dict[str, Any]:
        out = super().state_dict()
        out.update(
            phase=self._phase,
            boneyard=len(self._boneyard),
            pit=len(self._pit),
            hand_sizes=[len(h) for h in self._hands],
        )
        return out

    # -- legal moves -------------------------------------------------------------
    def placements(self, player: PlayerId | None = None) -> list[Place]:
        """Every placement ``player`` (default: the one to move) could make now."""
        seat = self._to_move if player is None else player
        chain = self._chain_from if self._phase == Phase.CHAIN and seat == self._to_move else None
        return self._placements(self._hands[seat], chain)

    def _placements(self, hand: Sequence[Domino], chain: int | None) -> list[Place]:
        out: list[Place] = []
        kinds = sorted(set(hand))
        for slot in self.board.slots():
            if chain is not None and chain not in slot.dominoes:
                continue
            c1, c2 = NAMES[slot.cells[0]], NAMES[slot.cells[1]]
            for d in kinds:
                for a, b in ((d.a, d.b),) if d.is_double else ((d.a, d.b), (d.b, d.a)):
                    if slot.fits(a, b):
                        out.append(Place(a, b, c1, c2))
        return out

    def _can_place(self, hand: Sequence[Domino]) -> bool:
        kinds = set(hand)
        return any(
            slot.fits(d.a, d.b) or slot.fits(d.b, d.a) for slot in self.board.slots() for d in kinds
        )

    def legal_actions(self) -> list[Action]:
        phase = self._phase
        if phase == Phase.DRAW:
            return [Draw()]
        if phase == Phase.PLAY:
            return list(self.placements())
        if phase == Phase.CHAIN:
            return [*self.placements(), EndTurn()]
        if phase == Phase.DISCARD:
            return [Discard(d.a, d.b) for d in sorted(set(self._hands[self._to_move]))]
        return []

    def _judge(self, action: Action) -> Verdict:
        reason = self._reject_reason(action)
        return Verdict.reject(reason) if reason else Verdict.ok()

    def _reject_reason(self, action: Action) -> str:
        phase = self._phase
        if phase == Phase.OVER:
            return "the game is over"
        if isinstance(action, Draw):
            if phase == Phase.DRAW:
                return ""
            return "you have already drawn this turn"
        if phase == Phase.DRAW:
            return "draw a domino from the boneyard first"
        if isinstance(action, Place):
            return self._place_reason(action)
        if isinstance(action, Discard):
            try:
                domino = Domino(_pip(action.a, "a pip"), _pip(action.b, "a pip")).key()
            except GameError as err:
                return str(err)
            if phase == Phase.PLAY:
                return "you hold a domino that can be played"
            if phase == Phase.CHAIN:
                return "lay a domino beside the double or end the turn; no discarding now"
            if domino not in self._hands[self._to_move]:
                return f"you do not hold {domino}"
            return ""
        if isinstance(action, EndTurn):
            if phase == Phase.CHAIN:
                return ""
            if phase == Phase.DISCARD:
                return "discard a domino into the pit first"
            return "lay a domino first: the turn ends when you have played"
        return f"{self.title} has no {action.type!r} action"

    def _place_reason(self, place: Place) -> str:
        if self._phase == Phase.DISCARD:
            if self._trimming:
                return f"you hold more than {HAND_SIZE}: discard into the pit down to {HAND_SIZE}"
            return "no domino in your hand fits: discard one into the pit"
        try:
            a, b = _pip(place.domino_a, "domino_a"), _pip(place.domino_b, "domino_b")
            ia, ib = cell_index(place.cell_a), cell_index(place.cell_b)
        except GameError as err:
            return str(err)
        domino = Domino(a, b)
        if domino.key() not in self._hands[self._to_move]:
            return f"you do not hold {domino.key()}"
        if ib not in NEIGHBOURS[ia]:
            return f"{NAMES[ia]} and {NAMES[ib]} are not next to each other"
        for i in (ia, ib):
            if i in self.board.pip:
                return f"{NAMES[i]} is already covered by {self._where(i)}"
        slot = self.board.analyse(ia, ib)
        if isinstance(slot, str):
            return slot
        if self._phase == Phase.CHAIN and self._chain_from not in slot.dominoes:
            return (
                "after a double the next domino must lie beside it "
                f"({self.board.laid[self._chain_from or 0].where()})"
            )
        return slot.mismatch(a, b)

    def _where(self, cell: int) -> str:
        return self.board.laid[self.board.domino_at[cell]].where()

    # -- playing -----------------------------------------------------------------
    def _apply(self, action: Action) -> Verdict:
        if isinstance(action, Draw):
            self._draw_one()
            self._begin_play()
            return Verdict.ok()
        if isinstance(action, Place):
            return self._place(action)
        if isinstance(action, Discard):
            hand = self._hands[self._to_move]
            domino = Domino(action.a, action.b).key()
            hand.remove(domino)
            self._pit.append(domino)
            self._end_turn()
            return Verdict.ok()
        if isinstance(action, EndTurn):
            self._end_turn()
            return Verdict.ok()
        raise GameError(f"{self.title} has no {action.type!r} action")

    def gains(self, place: Place) -> list[int]:
        """Points each seat would gain from a legal placement, before it is made."""
        out = [0] * self.players
        for e in self._score_events(place):
            out[e.player] += e.points
        return out

    def _score_events(self, place: Place) -> list[ScoreEvent]:
        domino = place.domino
        mover = self._to_move
        events = []
        for cell in (place.cell_a, place.cell_b):
            value = DIAMONDS.get(cell_index(cell), 0)
            if value:
                doubled = ", doubled for a double" if domino.is_double else ""
                points = value * (2 if domino.is_double else 1)
                events.append(
                    ScoreEvent(mover, points, f"{domino} covers the {value} on {cell}{doubled}")
                )
        # Every bonus is read from where the pieces stood before this domino scored.
        for seat in range(self.players):
            pips = track_pips(self.track_space(seat))
            if pips is not None and pips in (domino.a, domino.b):
                events.append(
                    ScoreEvent(
                        seat,
                        TRACK_BONUS,
                        f"{domino} shows the {pips} of {self.seat_name(seat)}'s track space",
                    )
                )
        return events

    def _place(self, place: Place) -> Verdict:
        mover = self._to_move
        domino = place.domino
        events = self._score_events(place)
        self._hands[mover].remove(domino.key())
        index = self.board.lay(domino, cell_index(place.cell_a), cell_index(place.cell_b), mover)
        for e in events:
            self._scores[e.player] += e.points
        total = self.victory_total
        if max(self._scores) >= total:
            names = " and ".join(
                self.seat_name(p) for p in range(self.players) if self._scores[p] >= total
            )
            self._finish(f"{names} reached the victory total of {total}")
        elif not self.board.slots():
            self._finish("no space is left where a domino can be placed")
        elif domino.is_double and self._placements(self._hands[mover], index):
            self._phase = Phase.CHAIN
            self._chain_from = index
        else:
            self._end_turn()
        return Verdict.ok(events)

    def _draw_one(self) -> None:
        self._hands[self._to_move].append(self._boneyard.pop())
        if not self._boneyard:
            self._last_drawn = True

    def _start_turn(self) -> None:
        self._chain_from = None
        if not self._boneyard:
            self._finish("the boneyard is empty")
        else:
            self._phase = Phase.DRAW

    def _begin_play(self) -> None:
        self._chain_from = None
        self._trimming = False
        if not self._hands[self._to_move]:
            self._end_turn()
            return
        self._phase = Phase.PLAY if self._can_place(self._hands[self._to_move]) else Phase.DISCARD

    def _end_turn(self) -> None:
        hand = self._hands[self._to_move]
        self._chain_from = None
        if len(hand) > HAND_SIZE:
            self._phase = Phase.DISCARD
            self._trimming = True
            return
        while len(hand) < HAND_SIZE and self._boneyard:
            self._draw_one()
        if self._last_drawn:
            self._finish(f"{self.seat_name(self._to_move)} drew the last domino")
            return
        self._to_move = (self._to_move + 1) % self.players
        self._start_turn()

    def _finish(self, why: str) -> None:
        self._phase = Phase.OVER
        self._chain_from = None
        best = max(self._scores)
        leaders = [p for p in range(self.players) if self._scores[p] == best]
        if len(leaders) > 1:
            most = max(sum(d.pips for d in self._hands[p]) for p in leaders)
            leaders = [p for p in leaders if sum(d.pips for d in self._hands[p]) == most]
            why += f"; tied on {best} points, most pips in hand ({most}) wins"
        self._outcome = Outcome(tuple(leaders), why)

    def decode(self, data: Mapping[str, Any]) -> Action:
        kind = data.get("type") if isinstance(data, Mapping) else None
        try:
            if kind == Draw.type:
                return Draw()
            if kind == EndTurn.type:
                return EndTurn()
            if kind == Place.type:
                return Place(
                    _pip(data["domino_a"], "domino_a"),
                    _pip(data["domino_b"], "domino_b"),
                    _text(data["cell_a"], "cell_a"),
                    _text(data["cell_b"], "cell_b"),
                )
            if kind == Discard.type:
                return Discard(_pip(data["a"], "a"), _pip(data["b"], "b"))
        except KeyError as err:
            raise GameError(f"a {kind!r} action needs the field {err.args[0]!r}") from None
        raise GameError(
            f"unknown action type {kind!r}: use 'draw', 'place', 'discard' or 'end-turn'"
        )


class DominoesPlayer(Player):
    """Lays the domino (or chain after a double) worth most to it, counting diamonds and bonuses."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game) -> Action:
        if not isinstance(game, Dominoes):
            raise TypeError(f"DominoesPlayer plays Double Double Dominoes, not {game.title}")
        phase = game.phase
        if phase == Phase.DRAW:
            return Draw()
        if phase == Phase.DISCARD:
            # Pips in hand break ties at the end, so the lightest domino goes.
            d = min(game.hand(game.to_move), key=lambda d: (d.pips, d))
            return Discard(d.a, d.b)
        options = game.placements()
        if not options:
            return EndTurn()
        values = self._values(game, options, depth=0)
        best = max(values)
        if phase == Phase.CHAIN and best < 0:
            return EndTurn()
        return self.rng.choice([p for p, v in zip(options, values, strict=True) if v == best])

    def _values(self, game: Dominoes, options: Sequence[Place], depth: int) -> list[float]:
        """What each placement is worth to the mover: its points, less what it hands others,
        plus the best chain it opens for the few most promising doubles."""
        me = game.to_move
        others = game.players - 1
        values = []
        for place in options:
            gains = game.gains(place)
            mine = gains[me]
            value = mine - (sum(gains) - mine) / others
            if game.scores()[me] + mine >= game.victory_total:
                value += WINNING
            values.append(value)
        if depth >= CHAIN_LOOKAHEAD:
            return values
        doubles = sorted(
            (i for i, p in enumerate(options) if p.domino_a == p.domino_b and values[i] < WINNING),
            key=lambda i: -values[i],
        )
        # Looking past every double is costly and the best openings are rarely far down.
        for i in doubles[:DOUBLES_EXPLORED]:
            after = game.copy()
            after.apply(options[i])
            if after.phase == Phase.CHAIN:
                follow = self._values(after, after.placements(), depth + 1)
                values[i] += max([0.0, *follow])
        return values


GAME = Dominoes
"""The game's class, as ``games.registry`` finds it."""
