"""Doubles Wild: roll two red and two blue dice, place balls, battle, score lines of three.

The rules as played are in docs/rules.md.

The engine never rolls: every die arrives as the value of an action, so a journal
replays exactly. ``legal_actions`` lists dice actions with placeholder values (all
ones); the station supplies the real faces.

A turn, for the seat to move (``phase``):

- ``"roll"``: ``Roll(red, blue)``, two faces each.
- ``"reroll-or-act"``: ``Reroll(pair, values)`` once per turn (``"red"`` or ``"blue"``
  with two faces, ``"both"`` with four: red, red, blue, blue); or act on the roll:
  ``Place(cell)`` on an empty spot of ``target()``, ``Attack(cell)`` on an opponent's
  unprotected ball there, or ``EndTurn()`` when ``target()`` is empty.
- ``"place"``: after the re-roll the same acts, one of which must be taken.
- ``"battle"``: ``to_move`` is the side to roll. The attacker rolls three dice
  (``BattleRoll`` with three faces), then the defender; then twice more each, attacker
  first. Before its second and third rolls a side may send ``Keep(dice)`` (indices
  0–2 of its dice, replacing any earlier choice; none kept if it sends nothing) and
  then ``BattleRoll`` with one face per die not kept. Kept flags clear after each
  roll. After the defender's third roll the higher total wins, a tie going to the
  defender, and the turn ends.
- ``"over"``: ``outcome`` is set.

When the main game ends tied, the tied seats play off on a cleared board (``playoff``);
the first to make a line wins. If the play-off ends with no line, the tied seats share
the game. ``scores()`` stays at the main game's final count during the play-off.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from enum import StrEnum
from typing import Any, ClassVar

from games.core import (
    JSON,
    Action,
    Cell,
    Game,
    Layout,
    Outcome,
    Piece,
    PlayerId,
    ScoreEvent,
    Verdict,
)
from games.doubles_wild import ABOUT
from games.doubles_wild import board as geo
from games.doubles_wild.actions import (
    ACTIONS,
    BATTLE_DICE,
    DICE_KINDS,
    PAIRS,
    Attack,
    BattleRoll,
    BattleState,
    EndTurn,
    Keep,
    Pair,
    Place,
    Reroll,
    Roll,
    dice_action,
    face_error,
)
from games.errors import BadSettings, GameError, IllegalMove

COLOURS = ("blue", "red", "purple", "green")
BALLS = {2: 24, 3: 18, 4: 12}
"""Balls per player by player count."""

__all__ = [
    "BALLS",
    "COLOURS",
    "DICE_KINDS",
    "Attack",
    "BattleRoll",
    "BattleState",
    "DoublesWild",
    "EndTurn",
    "Keep",
    "Place",
    "Reroll",
    "Roll",
    "dice_action",
]


class Phase(StrEnum):
    """Where a turn stands (see the module's docstring)."""

    ROLL = "roll"
    REROLL_OR_ACT = "reroll-or-act"
    PLACE = "place"
    BATTLE = "battle"
    OVER = "over"


ROLL, REROLL_OR_ACT, PLACE, BATTLE, OVER = Phase


_BALLS: tuple[tuple[Piece, Piece], ...] = tuple(
    (Piece("ball", colour, seat), Piece("ball", colour, seat, "protected"))
    for seat, colour in enumerate(COLOURS)
)
"""Each seat's ball in ``layout``: on its own, and part of a line."""


def _pair_name(red: Pair, blue: Pair) -> str:
    return f"red {red[0]}+{red[1]}, blue {blue[0]}+{blue[1]}"


class DoublesWild(Game):
    """Doubles Wild for 2–4 players (see the module docstring for the turn)."""

    about = ABOUT
    seat_names: ClassVar[tuple[str, ...]] = COLOURS

    def __init__(
        self,
        players: int = 2,
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(players, rng, options)
        balls: int = self.option("balls", BALLS[players])
        # A board full of lines with balls still in hand would block every spot for
        # every seat for ever.
        most = len(geo.CELLS) // players
        if balls > most:
            raise BadSettings(
                f"balls: {players} players with {balls} each would not fit the "
                f"{len(geo.CELLS)} spots; give at most {most} each"
            )
        self.start_balls: int = balls
        self._board: geo.Board = [geo.EMPTY] * len(geo.CELLS)
        self._supply = [balls] * players
        self._seats: tuple[PlayerId, ...] = tuple(range(players))
        self._playoff: tuple[PlayerId, ...] | None = None
        self.playoff_began: int | None = None
        """The number of actions played when the tie's play-off began (None: no play-off)."""
        self._turn: PlayerId = 0
        self._phase = ROLL
        self._red: Pair | None = None
        self._blue: Pair | None = None
        self._rerolled = False
        self._battle: BattleState | None = None
        self._last_battle: BattleState | None = None
        self._scores = [0] * players
        self._outcome: Outcome | None = None
        self._layout_now: tuple[tuple[int, ...], Layout] = ((), {})

    @classmethod
    def from_position(
        cls,
        board: Mapping[Cell, PlayerId | str],
        players: int = 2,
        to_move: PlayerId = 0,
        balls: Sequence[int] | None = None,
        playoff: Sequence[PlayerId] | None = None,
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> DoublesWild:
        """A game at the start of ``to_move``'s turn with ``board`` (spot → seat or colour).

        ``balls`` is what each seat has left to play; by default the starting count
        less its balls on the board. ``playoff`` names the tied seats when the
        position is a play-off (the main game's scores are then all 0).
        """
        game = cls(players, rng, options)
        for cell, who in board.items():
            i = geo.INDEX.get(cell, -1)
            if i < 0:
                raise BadSettings(
                    f"{cell!r} is not a spot: spots are r<row>c<column> with both from 3 to 11"
                )
            seat = COLOURS.index(who) if isinstance(who, str) and who in COLOURS else who
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
                raise BadSettings(f"{cell}: {who!r} is not a seat of a {players}-player game")
            game._board[i] = seat
        if playoff is not None:
            seats = tuple(sorted(set(playoff)))
            if len(seats) < 2 or not all(0 <= s < players for s in seats):
                raise BadSettings(f"a play-off needs two or more seats of the game, not {playoff}")
            game._playoff = game._seats = seats
            game.playoff_began = 0
            game.start_balls = game._playoff_balls()
        if to_move not in game._seats:
            raise BadSettings(f"seat {to_move} does not play in this position")
        if balls is None:
            game._supply = [
                max(0, game.start_balls - game._board.count(p)) if p in game._seats else 0
                for p in range(players)
            ]
        else:
            if len(balls) != players or any(
                isinstance(b, bool) or not isinstance(b, int) or b < 0 for b in balls
            ):
                raise BadSettings(f"give balls left for each of {players} seats, 0 or more")
            game._supply = list(balls)
        game._turn = to_move
        if game._playoff is None:
            game._scores = [geo.points(game._board, p) for p in range(players)]
        if game._supply[to_move] == 0:
            game._finish()
            if game._playoff is not None:
                game.playoff_began = 0  # the position itself is the play-off's start
        return game

    # -- what the table needs to know -------------------------------------------
    @property
    def to_move(self) -> PlayerId:
        if self._battle is not None:
            return self._battle.roller
        return self._turn

    @property
    def turn(self) -> PlayerId:
        """The seat whose turn it is (in a battle, the attacker)."""
        return self._turn

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def dice(self) -> tuple[Pair, Pair] | None:
        """The turn's red and blue pairs, once rolled."""
        if self._red is None or self._blue is None:
            return None
        return self._red, self._blue

    @property
    def rerolled(self) -> bool:
        return self._rerolled

    @property
    def battle(self) -> BattleState | None:
        return self._battle

    @property
    def last_battle(self) -> BattleState | None:
        """The most recent finished battle, with its dice, for the screen."""
        return self._last_battle

    @property
    def playoff(self) -> tuple[PlayerId, ...] | None:
        """The tied seats while a tie is played off."""
        return self._playoff

    @property
    def seats(self) -> tuple[PlayerId, ...]:
        """The seats still taking turns."""
        return self._seats

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def cells(self) -> list[Cell]:
        return list(geo.CELLS)

    def scores(self) -> list[int]:
        return list(self._scores)

    def balls_left(self, player: PlayerId) -> int:
        return self._supply[player]

    def owner(self, cell: Cell) -> PlayerId | None:
        seat = self._board[self._index(cell)]
        return None if seat == geo.EMPTY else seat

    def board(self) -> dict[Cell, PlayerId]:
        """Every ball on the board now: spot → seat."""
        return {geo.CELLS[i]: p for i, p in enumerate(self._board) if p != geo.EMPTY}

    def is_blocked(self, cell: Cell) -> bool:
        """Whether the player whose turn it is may not play ``cell``: own ball or a line."""
        i = self._index(cell)
        seat = self._board[i]
        return seat == self._turn or (seat != geo.EMPTY and geo.protected(self._board, i))

    def spots(self) -> set[Cell]:
        """Every spot the roll names, blocked or not."""
        if self._red is None or self._blue is None:
            return set()
        row, col = sum(self._red), sum(self._blue)
        red_double = self._red[0] == self._red[1]
        blue_double = self._blue[0] == self._blue[1]
        if red_double and blue_double:
            return set(geo.CELLS)
        if red_double:
            return {geo.CELLS[i] for i in geo.col_cells(col)}
        if blue_double:
            return {geo.CELLS[i] for i in geo.row_cells(row)}
        return {geo.cell_name(row, col)}

    def target(self) -> set[Cell]:
        """The spots the roll allows: named by it and not blocked."""
        if self._phase not in (REROLL_OR_ACT, PLACE):
            return set()
        return {cell for cell in self.spots() if not self.is_blocked(cell)}

    def lines(self) -> dict[int, list[tuple[Cell, ...]]]:
        """Each seat's lines on the board now, as spots in order."""
        return {
            p: [tuple(geo.CELLS[i] for i in run) for run in geo.lines(self._board, p)]
            for p in range(self.players)
        }

    def layout(self) -> Layout:
        # Worked out again only when a ball has come or gone: the screen, the fixes
        # and the referee all ask for it after every event.
        board = tuple(self._board)
        if board != self._layout_now[0]:
            layout = {
                geo.CELLS[i]: _BALLS[p][geo.protected(board, i)]
                for i, p in enumerate(board)
                if p != geo.EMPTY
            }
            self._layout_now = (board, layout)
        return dict(self._layout_now[1])

    def state_dict(self) -> JSON:
        out = super().state_dict()
        out.update(
            {
                "phase": self._phase,
                "turn": self._turn,
                "dice": None
                if self.dice is None
                else {"red": list(self.dice[0]), "blue": list(self.dice[1])},
                "rerolled": self._rerolled,
                "target": sorted(self.target(), key=geo.INDEX.__getitem__),
                "battle": None if self._battle is None else self._battle.to_dict(),
                "balls_left": list(self._supply),
                "playoff": None if self._playoff is None else list(self._playoff),
            }
        )
        return out

    # -- actions -----------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every kind of action open now; dice values are placeholders (all ones)."""
        if self._phase == ROLL:
            return [Roll(red=(1, 1), blue=(1, 1))]
        if self._phase in (REROLL_OR_ACT, PLACE):
            out: list[Action] = []
            if self._phase == REROLL_OR_ACT:
                out += [Reroll("red", (1, 1)), Reroll("blue", (1, 1)), Reroll("both", (1,) * 4)]
            target = sorted(self.target(), key=geo.INDEX.__getitem__)
            out += [Place(cell) if self.owner(cell) is None else Attack(cell) for cell in target]
            if not target:
                out.append(EndTurn())
            return out
        if self._phase == BATTLE and self._battle is not None:
            battle = self._battle
            out = [BattleRoll((1,) * (BATTLE_DICE - battle.kept_count()))]
            if battle.rolls[battle.side] > 0:
                out += [
                    Keep(tuple(i for i in range(BATTLE_DICE) if mask >> i & 1))
                    for mask in range(2**BATTLE_DICE)
                ]
            return out
        return []

    def _judge(self, action: Action) -> Verdict:
        try:
            self._check(action)
        except IllegalMove as e:
            return Verdict.reject(e.reason)
        return Verdict.ok()

    def decode(self, data: Mapping[str, Any]) -> Action:
        kind = data.get("type") if isinstance(data, Mapping) else None
        cls = ACTIONS.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise GameError(
                f"unknown Doubles Wild action type {kind!r}: use one of {', '.join(ACTIONS)}"
            )
        try:
            if cls is Roll:
                red, blue = _faces(data["red"], 2), _faces(data["blue"], 2)
                return Roll(red=_pair(red), blue=_pair(blue))
            if cls is Reroll:
                return Reroll(pair=str(data["pair"]), values=_faces(data["values"]))
            if cls is Place or cls is Attack:
                cell = data["cell"]
                if not isinstance(cell, str):
                    raise GameError(f"{kind}: the cell must be a name like 'r9c6', not {cell!r}")
                return Place(cell) if cls is Place else Attack(cell)
            if cls is BattleRoll:
                return BattleRoll(values=_faces(data["values"]))
            if cls is Keep:
                return Keep(dice=_faces(data["dice"]))
        except KeyError as e:
            raise GameError(f"{kind} action is missing its {e.args[0]!r} field") from None
        return EndTurn()

    # -- checking ----------------------------------------------------------------
    def _index(self, cell: Cell) -> int:
        i = geo.INDEX.get(cell) if isinstance(cell, str) else None
        if i is None:
            raise IllegalMove(
                f"{cell!r} is not a spot: spots are r<row>c<column> with both from 3 to 11"
            )
        return i

    def _seat(self, player: PlayerId | None = None) -> str:
        return self.seat_name(self._turn if player is None else player)

    def _roll_words(self) -> str:
        if self._red is None or self._blue is None:
            return "no roll yet"
        spots = self.spots()
        if len(spots) == 1:
            return f"{_pair_name(self._red, self._blue)} names {next(iter(spots))}"
        if len(spots) == len(geo.CELLS):
            return f"{_pair_name(self._red, self._blue)}: double doubles, the whole board is wild"
        if self._red[0] == self._red[1]:
            return (
                f"{_pair_name(self._red, self._blue)}: red double, column {sum(self._blue)} is wild"
            )
        return f"{_pair_name(self._red, self._blue)}: blue double, row {sum(self._red)} is wild"

    def _check(self, action: Action) -> None:
        if self._outcome is not None:
            raise IllegalMove("the game is over")
        phase = self._phase
        if isinstance(action, Roll):
            if phase != ROLL:
                raise IllegalMove(f"{self._seat()} has already rolled this turn")
            for name, pair in (("red", action.red), ("blue", action.blue)):
                if not isinstance(pair, tuple | list) or len(pair) != 2:
                    raise IllegalMove(f"a roll takes two {name} dice, not {pair!r}")
                bad = face_error(pair, f"{name} dice")
                if bad:
                    raise IllegalMove(bad)
        elif isinstance(action, Reroll):
            if phase != REROLL_OR_ACT:
                raise IllegalMove(self._not_now("re-roll", "the dice may be re-rolled once a turn"))
            if action.pair not in PAIRS:
                raise IllegalMove(
                    f"re-roll which dice? {action.pair!r} is not 'red', 'blue' or 'both'"
                )
            need = 4 if action.pair == "both" else 2
            values = tuple(action.values) if isinstance(action.values, tuple | list) else ()
            if len(values) != need:
                raise IllegalMove(f"re-rolling {action.pair} takes {need} dice, not {len(values)}")
            bad = face_error(values, f"re-roll of {action.pair}")
            if bad:
                raise IllegalMove(bad)
        elif isinstance(action, Place | Attack):
            self._check_spot(action)
        elif isinstance(action, EndTurn):
            if phase not in (REROLL_OR_ACT, PLACE):
                raise IllegalMove(self._not_now("end the turn", "the turn ends after the roll"))
            target = self.target()
            if target:
                listing = ", ".join(sorted(target, key=geo.INDEX.__getitem__)[:5])
                raise IllegalMove(
                    f"the roll allows {listing}{' …' if len(target) > 5 else ''}: "
                    "a ball must be placed or a battle fought"
                )
        elif isinstance(action, Keep):
            self._check_keep(action)
        elif isinstance(action, BattleRoll):
            self._check_battle_roll(action)
        else:
            raise IllegalMove(f"Doubles Wild has no {action.type!r} action")

    def _not_now(self, what: str, rule: str) -> str:
        if self._phase == ROLL:
            return f"cannot {what} now: {self._seat()} must roll the dice first"
        if self._phase == BATTLE:
            return f"cannot {what} now: a battle is being fought"
        return f"cannot {what} now ({rule})"

    def _check_spot(self, action: Place | Attack) -> None:
        verb = "place a ball" if isinstance(action, Place) else "attack"
        if self._phase not in (REROLL_OR_ACT, PLACE):
            raise IllegalMove(self._not_now(verb, "a ball is played after the roll"))
        i = self._index(action.cell)
        cell = geo.CELLS[i]
        if cell not in self.spots():
            raise IllegalMove(f"{cell} is not a spot this roll allows ({self._roll_words()})")
        seat = self._board[i]
        if seat == self._turn:
            raise IllegalMove(f"{cell} is blocked: it already holds {self._seat()}'s ball")
        if seat != geo.EMPTY and geo.protected(self._board, i):
            raise IllegalMove(
                f"{cell} is blocked: {self._seat(seat)}'s ball there is part of a line"
            )
        if isinstance(action, Place) and seat != geo.EMPTY:
            raise IllegalMove(
                f"{cell} holds {self._seat(seat)}'s ball: attack it to battle for the spot"
            )
        if isinstance(action, Attack) and seat == geo.EMPTY:
            raise IllegalMove(f"{cell} is empty: place a ball there, there is nothing to attack")

    def _check_keep(self, action: Keep) -> None:
        battle = self._battle
        if battle is None:
            raise IllegalMove("dice are kept only in a battle")
        if battle.rolls[battle.side] == 0:
            raise IllegalMove(
                f"{self._seat(battle.roller)} has not rolled yet: the first roll uses all "
                "three dice"
            )
        dice = tuple(action.dice) if isinstance(action.dice, tuple | list) else None
        if (
            dice is None
            or any(isinstance(d, bool) or d not in range(BATTLE_DICE) for d in dice)
            or len(set(dice)) != len(dice)
        ):
            raise IllegalMove(
                f"keep names dice by number 0, 1 or 2, each at most once; not {action.dice!r}"
            )

    def _check_battle_roll(self, action: BattleRoll) -> None:
        battle = self._battle
        if battle is None:
            raise IllegalMove(self._not_now("roll battle dice", "no battle is being fought"))
        values = tuple(action.values) if isinstance(action.values, tuple | list) else None
        need = BATTLE_DICE - battle.kept_count()
        if values is None or len(values) != need:
            got = "nothing" if values is None else f"{len(values)}"
            kept = battle.kept_count()
            why = f"keeps {kept} of 3 dice" if kept else "keeps no dice"
            raise IllegalMove(
                f"{self._seat(battle.roller)} {why}, so the battle roll takes {need} dice, "
                f"not {got}"
            )
        bad = face_error(values, "battle roll")
        if bad:
            raise IllegalMove(bad)

    # -- playing -----------------------------------------------------------------
    def _apply(self, action: Action) -> Verdict:
        if isinstance(action, Roll):
            self._red, self._blue = _pair(action.red), _pair(action.blue)
            self._phase = REROLL_OR_ACT
            return Verdict.ok(reason=self._roll_words())
        if isinstance(action, Reroll):
            values = tuple(action.values)
            if action.pair == "red":
                self._red = _pair(values)
            elif action.pair == "blue":
                self._blue = _pair(values)
            else:
                self._red, self._blue = _pair(values[:2]), _pair(values[2:])
            self._rerolled = True
            self._phase = PLACE
            return Verdict.ok(reason=self._roll_words())
        if isinstance(action, Place):
            i = geo.INDEX[action.cell]
            self._board[i] = self._turn
            self._supply[self._turn] -= 1
            return self._end_turn(f"{self._seat()} places a ball on {action.cell}")
        if isinstance(action, Attack):
            defender = self._board[geo.INDEX[action.cell]]
            self._battle = BattleState(action.cell, self._turn, defender)
            self._phase = BATTLE
            return Verdict.ok(
                reason=f"{self._seat()} attacks {self._seat(defender)}'s ball on {action.cell}"
            )
        if isinstance(action, Keep):
            assert self._battle is not None
            battle = self._battle
            flags = tuple(i in action.dice for i in range(BATTLE_DICE))
            kept = list(battle.kept)
            kept[battle.side] = flags
            self._battle = replace(battle, kept=(kept[0], kept[1]))
            return Verdict.ok()
        if isinstance(action, BattleRoll):
            return self._battle_roll(tuple(action.values))
        return self._end_turn(f"{self._seat()} cannot play ({self._roll_words()})")

    def _battle_roll(self, values: tuple[int, ...]) -> Verdict:
        assert self._battle is not None
        battle = self._battle
        side = battle.side
        faces = iter(values)
        dice = tuple(
            old if keep else next(faces)
            for old, keep in zip(battle.dice[side], battle.kept[side], strict=True)
        )
        all_dice, all_kept, rolls = list(battle.dice), list(battle.kept), list(battle.rolls)
        all_dice[side], all_kept[side] = dice, (False,) * BATTLE_DICE
        rolls[side] += 1
        battle = replace(
            battle,
            dice=(all_dice[0], all_dice[1]),
            kept=(all_kept[0], all_kept[1]),
            rolls=(rolls[0], rolls[1]),
        )
        self._battle = battle
        if not battle.finished:
            return Verdict.ok()
        self._last_battle = battle
        self._battle = None
        attack, defence = battle.totals()
        i = geo.INDEX[battle.cell]
        self._supply[battle.attacker] -= 1
        if battle.winner == battle.attacker:
            self._board[i] = battle.attacker
            return self._end_turn(
                f"{self._seat(battle.attacker)} wins the battle for {battle.cell}, "
                f"{attack} to {defence}",
                removed=(battle.cell,),
            )
        how = "ties" if attack == defence else "wins"
        return self._end_turn(
            f"{self._seat(battle.defender)} {how} the battle for {battle.cell}, "
            f"{defence} to {attack}, and keeps the spot"
        )

    def _end_turn(self, reason: str, removed: tuple[Cell, ...] = ()) -> Verdict:
        self._red = self._blue = None
        self._rerolled = False
        self._phase = ROLL
        events: list[ScoreEvent] = []
        if self._playoff is not None:
            if geo.lines(self._board, self._turn):
                self._phase = OVER
                self._outcome = Outcome(
                    (self._turn,), f"{self._seat()} makes the first line of the play-off"
                )
                return Verdict.ok(removed=removed, reason=reason)
        else:
            for p in range(self.players):
                now = geo.points(self._board, p)
                if now != self._scores[p]:
                    events.append(ScoreEvent(p, now - self._scores[p], "lines of three or more"))
                    self._scores[p] = now
        at = self._seats.index(self._turn)
        self._turn = self._seats[(at + 1) % len(self._seats)]
        if self._supply[self._turn] == 0:
            # A won battle's spot is cleared with the rest for a play-off: name it once.
            removed = removed + tuple(c for c in self._finish() if c not in removed)
        return Verdict.ok(events, removed, reason)

    def _playoff_balls(self) -> int:
        balls = self.options.get("balls")
        return balls if isinstance(balls, int) else BALLS[len(self._seats)]

    def _finish(self) -> tuple[Cell, ...]:
        """End the game or its play-off; return the spots cleared for a play-off."""
        out_of_balls = f"{self._seat()} has no balls left"
        if self._playoff is not None:
            self._phase = OVER
            names = " and ".join(self._seat(p) for p in self._playoff)
            self._outcome = Outcome(
                self._playoff, f"{out_of_balls} and nobody made a line: {names} share the game"
            )
            return ()
        best = max(self._scores)
        leaders = tuple(p for p in range(self.players) if self._scores[p] == best)
        if len(leaders) == 1:
            self._phase = OVER
            others = ", ".join(str(s) for p, s in enumerate(self._scores) if p != leaders[0])
            self._outcome = Outcome(leaders, f"{out_of_balls}, {best} to {others}")
            return ()
        cleared = tuple(cell for cell in geo.CELLS if self._board[geo.INDEX[cell]] != geo.EMPTY)
        self._board = [geo.EMPTY] * len(geo.CELLS)
        self._playoff = self._seats = leaders
        # The action ending the main game is being played: it is the history's next.
        self.playoff_began = len(self.history) + 1
        self.start_balls = self._playoff_balls()
        self._supply = [self.start_balls if p in leaders else 0 for p in range(self.players)]
        self._turn = leaders[0]
        self._phase = ROLL
        return cleared


def _pair(values: Sequence[int]) -> Pair:
    return (values[0], values[1])


def _faces(value: object, count: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise GameError(f"expected a list of whole numbers, not {value!r}")
    faces = tuple(value)
    if count is not None and len(faces) != count:
        raise GameError(f"expected {count} dice, got {len(faces)}")
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int):
            raise GameError(f"{face!r} is not a whole number")
    return faces


GAME = DoublesWild
"""The game's class, as ``games.registry`` finds it."""
