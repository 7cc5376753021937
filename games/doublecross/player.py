"""DoubleCross's computer players, one per level (``games.levels``). The standard one
plays the planner's best plan one action at a time (``games.doublecross.planner``)
and ends the turn when nothing pays; the beginner often plays a lesser plan that
pays; the expert weighs more words, counts every point it hands the others, fears
unstable tiles more while the others hold bombs, values tiles made stable, and plays
its best plans out against the next player's reply on a rack dealt from the tiles it
cannot see. Choosing for the seat to move, it never ends the game: after a round of
passes that is the last passer's choice, which a computer seat makes out of turn
(``out_of_turn``).
"""

from __future__ import annotations

import random

from games.core import Action, Game, Player, PlayerId
from games.doublecross.actions import EndGame, EndTurn
from games.doublecross.game import DoubleCross
from games.doublecross.planner import Plan, Planner
from games.doublecross.play import State
from games.errors import GameError
from games.levels import BEGINNER, DEFAULT, EXPERT, STANDARD, Whim, parse_level


class DoubleCrossPlayer(Player):
    """A computer player for DoubleCross (``games.core.Player``): plays its best plan
    one action at a time."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(0)
        self._plan: list[Action] = []
        self._at = -1

    def choose(self, game: Game) -> Action:
        if not isinstance(game, DoubleCross):
            raise GameError(f"this player plays DoubleCross, not {game.title}")
        planner = self.planner(game)
        if self._plan and self._at == len(game.history):
            action = self._plan[0]
            if game.judge(action).accepted:
                self._plan.pop(0)
                self._at += 1
                return action
        self._plan = []
        best = self.pick([p for p in planner.plans() if p.value > 0], game)
        if best is None:
            return planner.fallback()
        self._plan = best.actions[1:]
        self._at = len(game.history) + 1
        return best.actions[0]

    def planner(self, game: DoubleCross) -> Planner:
        """The planner that proposes and values this player's plans."""
        return Planner(game.rules, game.state, game.word_judge)

    def pick(self, paying: list[Plan], game: DoubleCross) -> Plan | None:
        """The plan to play of those that pay, best first; None: nothing pays."""
        return paying[0] if paying else None

    def out_of_turn(self, game: Game, seat: PlayerId) -> Action | None:
        """The last passer of a full round of passes ends the game: the computer passes
        only when nothing it could play pays, and a round of passes means no one else
        found anything either, so waiting longer only passes the turn round again."""
        return EndGame(seat) if seat in game.out_of_turn_seats() else None


BEGINNER_FANCY = 0.75
"""How often the beginner plays a plan of its own fancy rather than the best one."""
EXPERT_SIMULATED = 24
"""Word plays the expert tries on a copy of the position (the standard player 10)."""
EXPERT_OTHERS_WEIGHT = 1.0
BOMB_FEAR = 0.75
"""More an unstable tile of ours costs for each bomb the others hold."""
STABLE_GAIN = 1.0
"""What a tile of ours made stable is worth beyond its points."""
LOOKAHEAD = 2
"""The expert's best plans played out against the next player's reply."""
LOOKAHEAD_RACKS = 1
"""The next player's racks sampled from the tiles this seat cannot see, per decision."""
REPLY_SIMULATED = 4
"""Word plays the sampled reply tries (a quick standard player)."""


class DoubleCrossBeginner(DoubleCrossPlayer):
    """Plays a plan that pays, picked at random more often than not."""

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.whim = Whim(self.rng, BEGINNER_FANCY)

    def pick(self, paying: list[Plan], game: DoubleCross) -> Plan | None:
        moment = len(game.history)
        if not paying or not self.whim.strays(moment):
            return super().pick(paying, game)
        return self.whim.rng(moment).choice(paying)


class ExpertPlanner(Planner):
    """The planner with more words tried, every point handed out counted, the risk to
    unstable tiles by the bombs the others hold, and tiles made stable valued."""

    simulated = EXPERT_SIMULATED

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        s = self.state
        if not self.endgame:
            bombs = sum(len(t) for p, t in enumerate(s.trays) if p != self.seat)
            self.loose_cost += BOMB_FEAR * bombs

    def value(self, actions: list[Action]) -> float | None:
        """As the standard planner's, with every point handed out counted and each
        tile of ours made stable valued."""
        s = self.state.copy()
        rng = random.Random(0)
        gained = [0] * s.players
        for action in actions:
            if self.rules.problem(s, action) is not None:
                return None
            before = list(s.scores)
            self.rules.apply(s, action, rng)
            for p in range(s.players):
                gained[p] += s.scores[p] - before[p]
            if s.turn != self.seat:
                break
        was, now = self.state.board, s.board
        loose = sum(1 for i in now.unstable() if now.owners[i] == self.seat)
        loose_before = sum(1 for i in was.unstable() if was.owners[i] == self.seat)
        stable = sum(
            1
            for i, owner in enumerate(now.owners)
            if owner == self.seat and now.stable[i] and not was.stable[i]
        )
        others = sum(g for p, g in enumerate(gained) if p != self.seat)
        value = gained[self.seat] - EXPERT_OTHERS_WEIGHT * others + STABLE_GAIN * stable
        return value - self.loose_cost * (loose - loose_before)

    def plans(self) -> list[Plan]:
        """The best ``LOOKAHEAD`` plans by the expert's own worth, valued again by the
        score race after the next player's reply (``lookahead``) against ending the turn
        at once, best first; the others, not played out, are left out. With no plan
        that pays, or more than two players, the plans by the expert's own worth."""
        plans = super().plans()
        top = [p for p in plans[:LOOKAHEAD] if p.value > 0]
        if not top or self.state.players != 2:
            return plans
        deals = self.deals()
        if not deals:
            return plans
        stay = self.lookahead([], deals)
        for plan in top:
            plan.value = self.lookahead(plan.actions, deals) - stay
        top.sort(key=lambda p: -p.value)
        return top

    def deals(self) -> list[tuple[list[str], list[str]]]:
        """The other seat's rack and the bag, dealt afresh ``LOOKAHEAD_RACKS`` times from
        the tiles this seat cannot see (their rack and the bag together, sorted: their
        real order is never looked at), by a source fixed by the position."""
        s = self.state
        other = 1 - self.seat
        hidden = sorted(s.racks[other] + s.bag)
        if not hidden:
            return []
        size = len(s.racks[other])
        rng = random.Random(f"{self.seat}:{len(s.bag)}:{s.scores}:{size}")
        out = []
        for _ in range(LOOKAHEAD_RACKS):
            pool = list(hidden)
            rng.shuffle(pool)
            out.append((pool[:size], pool[size:]))
        return out

    def lookahead(self, actions: list[Action], deals: list[tuple[list[str], list[str]]]) -> float:
        """This seat's lead after ``actions``, the turn's end and the other seat's best
        reply (a quick standard planner on each dealt rack), less the fear of its tiles
        left unstable; the mean over ``deals``."""
        total = 0.0
        for rack, bag in deals:
            s = self.state.copy()
            s.racks[1 - self.seat], s.bag = list(rack), list(bag)
            self._play(s, actions, self.seat)
            if s.outcome is None and s.turn == self.seat:
                self._play(s, [EndTurn()], self.seat)
            if s.outcome is None and s.turn != self.seat:
                reply = _ReplyPlanner(self.rules, s, self.judge).plans()
                if reply and reply[0].value > 0:
                    self._play(s, reply[0].actions, s.turn)
            mine = s.scores[self.seat] - s.scores[1 - self.seat]
            loose = sum(1 for i in s.board.unstable() if s.board.owners[i] == self.seat)
            total += mine - self.loose_cost * loose
        return total / len(deals)

    def _play(self, s: State, actions: list[Action], seat: int) -> None:
        rng = random.Random(0)
        for action in actions:
            if s.outcome is not None or s.turn != seat:
                return
            if self.rules.problem(s, action) is not None:
                return
            self.rules.apply(s, action, rng)


class _ReplyPlanner(Planner):
    """The other seat's reply in the expert's look ahead: the standard planner, fewer
    words tried."""

    simulated = REPLY_SIMULATED


class DoubleCrossExpert(DoubleCrossPlayer):
    """Plays the expert planner's best plan (``ExpertPlanner``)."""

    def planner(self, game: DoubleCross) -> Planner:
        return ExpertPlanner(game.rules, game.state, game.word_judge)


def make_player(game: Game, rng: random.Random, level: int = DEFAULT) -> Player:
    """The computer player of ``level`` for a game of DoubleCross."""
    level = parse_level(level)
    if level == BEGINNER:
        return DoubleCrossBeginner(rng)
    if level == EXPERT:
        return DoubleCrossExpert(rng)
    assert level == STANDARD
    return DoubleCrossPlayer(rng)


__all__ = [
    "DoubleCrossBeginner",
    "DoubleCrossExpert",
    "DoubleCrossPlayer",
    "Planner",
    "make_player",
]
