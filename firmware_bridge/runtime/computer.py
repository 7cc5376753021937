"""The computer's seats at a real table: what the computer plays next, and whether the
table carried exactly that out.

The computer's move is shown as an instruction; the people at the table make it on
the board, and the referee recognises it as it would a person's. A move that is not
the computer's is refused like an illegal one, so the board is fixed back.

At a table on a loop the computer thinks on a worker thread (:mod:`.thinking`): until
its move is known, the computer's seat is "thinking" and a move made for it is
refused like any other not its own. A hint is thought there too (:meth:`Computer.hint`):
the long press of ok returns at once, and the hint is shown when it comes back.
"""

from __future__ import annotations

import importlib
import logging
import random
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any

from games.core import Action, Game, Player, Resign
from games.errors import BadSettings
from games.levels import DEFAULT as DEFAULT_LEVEL
from games.levels import STRONGEST, level_name, parse_level

from ..referees.referee import HintThinking
from .thinking import THINKING_AFTER_S, Asked, Deliver, Thought, thinker

log = logging.getLogger("tabletop")

ROLLED = ("red", "blue", "values")
"""Fields of an action that the station's dice fill in (a roll's faces): the computer
chooses to roll, the dice say what comes up."""


def same_move(expected: Action, made: Action) -> bool:
    """Whether the table made the computer's move (whatever the dice rolled)."""
    if type(expected) is not type(made):
        return False
    ours, theirs = expected.to_dict(), made.to_dict()
    for name in ROLLED:
        ours.pop(name, None)
        theirs.pop(name, None)
    return bool(_canonical(ours) == _canonical(theirs))


def _canonical(value: Any) -> Any:
    """``value`` with every list in one order: the tiles of a word, the pieces a capture
    takes, the letters exchanged are the same move in whatever order they are named."""
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return sorted((_canonical(v) for v in value), key=repr)
    return value


def parse_seats(text: str, players: int) -> frozenset[int]:
    """Seats counted from 1, comma-separated (``"1,3"``), as seat indices from 0.

    Raises ValueError naming what is wrong and what is accepted.
    """
    seats: list[int] = []
    for raw in text.split(","):
        part = raw.strip()
        if not part.isdigit() or not 1 <= int(part) <= players:
            raise ValueError(
                f"--humans {text!r}: {part!r} is not a seat; give seats from 1 to {players} "
                "separated by commas, e.g. --humans 1 or --humans 1,3"
            )
        if int(part) - 1 in seats:
            raise ValueError(f"--humans {text!r}: seat {part} is named twice")
        seats.append(int(part) - 1)
    return frozenset(seats)


def parse_levels(pairs: Iterable[str], every: Iterable[str], players: int) -> dict[int, int]:
    """Levels from ``--level SEAT=N`` pairs (seats from 1) over ``--option level=N``
    (``every``: a level for every seat), as seat indices from 0 to levels; the default
    level is left out. Raises ValueError naming what is wrong and what is accepted."""
    out: dict[int, int] = {}
    try:
        for text in every:
            level = parse_level(text)
            out = dict.fromkeys(range(players), level)
        for pair in pairs:
            seat, sep, text = pair.partition("=")
            if not sep or not seat.strip().isdigit() or not 1 <= int(seat) <= players:
                raise ValueError(
                    f"--level {pair!r}: give SEAT=LEVEL with a seat from 1 to {players}, "
                    "e.g. --level 2=expert or --level 2=3"
                )
            out[int(seat) - 1] = parse_level(text)
    except BadSettings as bad:
        raise ValueError(f"--level: {bad}") from None
    return {seat: level for seat, level in out.items() if level != DEFAULT_LEVEL}


class Computer:
    """The computer's choice for the seat to move, the same for the same position."""

    def __init__(
        self,
        make_player: Callable[..., Player],
        seed: int,
        seats: Iterable[int] = (),
        levels: Mapping[int, int] | None = None,
    ) -> None:
        self.make_player = make_player
        self.seed = seed
        self.seats = frozenset(seats)
        """The seats the computer plays; the others are people's."""
        self.levels: dict[int, int] = dict(levels or {})
        """Each computer seat's level (``games.levels``); a seat not named plays at the
        default level, as the computer always has."""
        self._cached: tuple[int, int, int, Action] | None = None
        self._failed: tuple[int, int] | None = None
        self.deliver: Deliver | None = None
        """Where the worker's thoughts go (the loop's ``put``): set, the computer's moves
        are chosen off the caller's thread; None, at once on it (a replay, a test)."""
        self.clock: Callable[[], float] = lambda: 0.0
        """The loop's clock (the session's ``now``), which a thought's time is kept on."""
        self.asked: Asked | None = None
        """The move last asked of the worker."""
        self.hint_asked: Asked | None = None
        """The hint last asked of the worker."""
        self.automatic: Callable[[Action], bool] = lambda action: False
        """Whether the table plays ``action`` itself (a pass for a seat that cannot
        move, the referee's): made while the computer thinks, it is not refused."""

    def seat(self, seats: Iterable[int], levels: Mapping[int, int] | None = None) -> None:
        """Play ``seats`` from now on, each at its level in ``levels`` (default: the
        default level)."""
        self.seats = frozenset(seats)
        self.levels = dict(levels or {})
        self.asked = None

    def level(self, seat: int) -> int:
        """The level the computer plays ``seat`` at; for a person's seat, the level its
        hints come from: the strongest."""
        return self.levels.get(seat, DEFAULT_LEVEL) if seat in self.seats else STRONGEST

    def level_names(self) -> dict[int, str]:
        """Each computer seat's level by name, for the OLED, export and the spectators."""
        return {seat: level_name(self.level(seat)) for seat in sorted(self.seats)}

    def _player(self, game: Game, rng: random.Random, seat: int) -> Player:
        level = self.level(seat)
        if level == DEFAULT_LEVEL:
            return self.make_player(game, rng)
        return self.make_player(game, rng, level)

    def advise(self, game: Game) -> Action:
        """What the computer would play now for the seat to move (a hint, or its move).

        Its random source is seeded by the game's seed and the number of actions
        played, so the same position always gets the same advice, also after a restart.
        """
        key = (id(game), len(game.history), self.level(game.to_move))
        if self._cached is not None and self._cached[:3] == key:
            return self._cached[3]
        rng = random.Random(f"{self.seed}:{len(game.history)}")
        action = self._player(game, rng, game.to_move).choose(game)
        self._cached = (*key, action)
        return action

    def hint(self, game: Game, work: Callable[[], Action | None] | None = None) -> Action:
        """The hint for the seat to move (:meth:`advise`, or the game's own ``work``); at a
        table on a loop thought on the worker: until it is known, raises
        :class:`HintThinking`, and the table is told once it is (:meth:`hint_came`).
        Raises ValueError when there is no hint."""
        if self.deliver is None:
            if work is None:
                return self.advise(game)
            action = work()
            if action is None:
                raise ValueError("no hint here")
            return action
        asked = self.hint_asked
        if asked is not None and asked.of(game) and asked.known(self.clock()):
            thought = asked.thought
            assert thought is not None
            if thought.action is None:
                raise ValueError(thought.failure or "the computer has no move here")
            return thought.action
        if asked is None or not asked.of(game):
            self.hint_asked = Asked(game, len(game.history), game.to_move, self.clock())
            chosen = partial(self.advise, game) if work is None else work
            thinker().ask(game, chosen, self.deliver, hint=True)
        raise HintThinking

    def hint_thinking(self, game: Game) -> Asked | None:
        """The hint asked of the worker for ``game`` as it stands, while it is not known."""
        asked = self.hint_asked
        if asked is None or not asked.of(game) or asked.known(self.clock()):
            return None
        return asked

    def learn_hint(self, thought: Thought, game: Game) -> bool:
        """Keep the worker's hint if it is for ``game`` as it stands (else it is dropped:
        a take-back, a move made); whether it is known now."""
        asked = self.hint_asked
        if asked is None or asked.game is not thought.game or asked.played != thought.played:
            return False
        if not asked.of(game) or asked.thought is not None:
            return False
        asked.thought = thought
        return asked.known(self.clock())

    def hint_came(self, game: Game) -> bool:
        """Whether the hint asked for ``game`` as it stands is known now and not yet shown
        (it is shown now: the session decides :class:`~..referees.referee.HintCame`)."""
        asked = self.hint_asked
        if asked is None or not asked.of(game) or asked.given or not asked.known(self.clock()):
            return False
        asked.given = True
        return True

    def hint_note(self, game: Game) -> str:
        """What the OLED says while a hint is thought for ``game`` as it stands."""
        asked = self.hint_asked
        return "Hint: thinking…" if asked and asked.of(game) and not asked.given else ""

    def why(self, game: Game, action: Action) -> str:
        """The few words the game gives on what ``action`` does (``"takes 2"``, ``"+34 and
        keeps S, E"``), for the hint screen; "" where the game gives none."""
        package = type(game).__module__.rpartition(".")[0]  # games.<game>
        try:
            module = importlib.import_module(f"{package}.player")
        except ImportError:
            return ""
        words = getattr(module, "why", None)
        if not callable(words):
            return ""
        text = words(game, action)
        return text if isinstance(text, str) else ""

    def expected(self, game: Game) -> Action | None:
        """The move the computer makes now, or None when a person is to move and no
        computer seat acts out of turn (the last passer ending a DoubleCross game), or
        while the computer thinks (:meth:`thinking`): the worker is asked for it once."""
        if game.outcome is not None:
            return None
        if self.deliver is None or not self._plays_now(game):
            return self._choose(game)
        asked = self.asked
        if asked is None or not asked.of(game):
            seat = next(iter(self._waiting(game)), game.to_move)
            self.asked = Asked(game, len(game.history), seat, self.clock())
            thinker().ask(game, partial(self._choose, game), self.deliver)
            return None
        if asked.thought is not None and asked.known(self.clock()):
            asked.given = True  # nothing more to tick for
            return asked.thought.action
        return None

    def _waiting(self, game: Game) -> list[int]:
        return [seat for seat in game.out_of_turn_seats() if seat in self.seats]

    def _plays_now(self, game: Game) -> bool:
        """Whether a computer seat is to move or may act out of turn now."""
        return game.to_move in self.seats or bool(self._waiting(game))

    def thinking(self, game: Game) -> Asked | None:
        """The move asked of the worker for ``game`` as it stands, while it is not known."""
        asked = self.asked
        if asked is None or not asked.of(game) or asked.known(self.clock()):
            return None
        return asked

    def learn(self, thought: Thought, game: Game) -> bool:
        """Keep the worker's ``thought`` if it is for ``game`` as it stands (else it is
        dropped: a take-back, a move made, the game over); whether it is known now."""
        asked = self.asked
        if asked is None or asked.game is not thought.game or asked.played != thought.played:
            return False
        if not asked.of(game) or asked.thought is not None:
            return False
        asked.thought = thought
        return asked.known(self.clock())

    def wants_ticks(self, game: Game, now: float) -> bool:
        """Whether the loop should tick now: to say the computer thinks, or to make its
        move (or a hint) known once the clock has passed the time it took (a simulated
        clock)."""
        hinted = self.hint_asked
        if hinted is not None and hinted.of(game) and not hinted.given and hinted.known(now):
            return True  # to show the hint
        asked = self.asked
        if asked is None or not asked.of(game) or asked.given:
            return False
        if asked.known(now):
            return True  # until a ruling has it (expected)
        return not asked.told and now >= asked.since + THINKING_AFTER_S - 1e-9

    def thinking_note(self, game: Game) -> str:
        """What the OLED says while the computer has thought for a while: "Thinking…",
        the seat and its level; "" otherwise."""
        asked = self.thinking(game)
        if asked is None or self.clock() < asked.since + THINKING_AFTER_S - 1e-9:
            return ""
        asked.told = True
        name = game.seat_name(asked.seat).capitalize()
        return f"Thinking… {name} ({level_name(self.level(asked.seat))})"

    def _choose(self, game: Game) -> Action | None:
        """The computer's move now, chosen on the caller's thread."""
        if game.outcome is not None:
            return None
        waiting = self._waiting(game)
        if waiting:
            for seat in waiting:
                rng = random.Random(f"{self.seed}:{len(game.history)}")
                action = self._player(game, rng, seat).out_of_turn(game, seat)
                if action is not None:
                    return action
        if game.to_move not in self.seats:
            return None
        key = (id(game), len(game.history))
        if self._failed == key:
            return None
        try:
            return self.advise(game)
        except ValueError as exc:
            # The computer cannot choose here (a rack it never saw): people play the turn.
            log.warning("the computer has no move for %s: %s", game.seat_name(game.to_move), exc)
            self._failed = key
            return None

    def holds(self, game: Game, action: Action, mover: int) -> bool:
        """Whether ``action``, judged legal, is held as the board shows it until another
        board has made it first (a person's move at a guest board, ``remote/seats.py``)."""
        return False

    def refuses(self, game: Game, action: Action, mover: int) -> Action | None:
        """The computer's move, when ``action`` is made for it but is not that move."""
        if isinstance(action, Resign) or mover != game.to_move:
            return None
        if game.to_move in self.seats and self.thinking(game) is not None:
            # Not known yet: the computer's seat waits for its move, but for one the
            # table makes itself.
            return None if self.automatic(action) else action
        expected = self.expected(game)
        if expected is None or same_move(expected, action):
            return None
        # A decision the station takes one press at a time (Doubles Wild's battle dice
        # kept one by one) is made in steps, each on the way to it.
        rng = random.Random(f"{self.seed}:{len(game.history)}")
        on_the_way = getattr(self._player(game, rng, mover), "on_the_way", None)
        if on_the_way is not None and on_the_way(game, expected, action):
            return None
        return expected

    def speaker(self, game: Game) -> str:
        """Who the OLED says makes the move the table is to carry out now."""
        return "Computer"

    def refusal(self, game: Game, instruction: str) -> str:
        """Why a move made at the board for the seat to move is refused when it is not
        the move ``instruction`` names."""
        if self.thinking(game) is not None:
            return "the computer is thinking: put the board back"
        return f"the computer plays {instruction}: put the board back"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"computer": sorted(self.seats)}
        levels = self.journaled_levels()
        if levels:
            out["levels"] = {str(seat): level for seat, level in levels.items()}
        return out

    def journaled_levels(self) -> dict[int, int]:
        """The computer seats whose level is not the default, with their level: what
        the journal records (a seat at the default level is recorded as it always was)."""
        return {
            seat: self.levels[seat]
            for seat in sorted(self.seats)
            if self.levels.get(seat, DEFAULT_LEVEL) != DEFAULT_LEVEL
        }
