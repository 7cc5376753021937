"""The shared vocabulary of every game: cells, pieces, actions, verdicts, scores.

Pure: standard library only, no I/O, no clock. Randomness comes only from the
``random.Random`` a game is given.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.errors import BadSettings, IllegalMove
from games.options import OptionSpec

Cell = str
"""A named place a sensor watches: ``"H8"``, ``"a1"``, ``"r9c6"``, a rack slot."""

PlayerId = int
"""A seat at the table, counted from 0 in turn order."""

JSON = dict[str, Any]


@dataclass(frozen=True)
class Piece:
    """What stands on a cell.

    ``kind`` names the sort of piece (``"man"``, ``"tile"``, ``"domino"``,
    ``"ball"``); ``label`` is what a tag reader can tell (a letter, ``"?"`` for a
    blank, a domino half such as ``"6-3:6"``, a colour); ``owner`` is a seat or
    ``None``; ``state`` is the game's word for it (``"stable"``, ``"far-row"``).
    """

    kind: str
    label: str = ""
    owner: PlayerId | None = None
    state: str = ""

    def to_dict(self) -> JSON:
        d: JSON = {"kind": self.kind, "label": self.label}
        if self.owner is not None:
            d["owner"] = self.owner
        if self.state:
            d["state"] = self.state
        return d


Layout = dict[Cell, Piece]
"""What the rules say stands on each occupied cell now."""


@dataclass(frozen=True)
class Action:
    """Anything a game accepts: a move, a roll, a draw, a pass, a resignation.

    Each game defines its actions as frozen dataclass subclasses with a distinct
    ``type`` and turns them to and from plain dicts for the journal.
    """

    type: ClassVar[str] = "action"

    def to_dict(self) -> JSON:
        """A JSON-safe dict with a ``"type"`` key; the game's ``decode`` reverses it."""
        out: JSON = {"type": self.type}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class Pass(Action):
    """The player to move passes (where the game allows it)."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Resign(Action):
    """A player gives the game up."""

    type: ClassVar[str] = "resign"
    player: PlayerId = 0


@dataclass(frozen=True)
class ScoreEvent:
    """Points that changed hands, with why."""

    player: PlayerId
    points: int
    reason: str

    def to_dict(self) -> JSON:
        return {"player": self.player, "points": self.points, "reason": self.reason}


@dataclass(frozen=True)
class Verdict:
    """The rules' answer to an action: accepted (with what it scored) or not (why)."""

    accepted: bool
    reason: str = ""
    events: tuple[ScoreEvent, ...] = ()
    removed: tuple[Cell, ...] = ()
    """Cells whose pieces the rules took off (captures, destroyed tiles)."""

    @classmethod
    def ok(
        cls, events: Sequence[ScoreEvent] = (), removed: Sequence[Cell] = (), reason: str = ""
    ) -> Verdict:
        return cls(True, reason, tuple(events), tuple(removed))

    @classmethod
    def reject(cls, reason: str) -> Verdict:
        return cls(False, reason)

    def points(self, players: int) -> list[int]:
        """Points this verdict gave each seat."""
        out = [0] * players
        for e in self.events:
            out[e.player] += e.points
        return out

    def to_dict(self) -> JSON:
        d: JSON = {"accepted": self.accepted}
        if self.reason:
            d["reason"] = self.reason
        if self.events:
            d["events"] = [e.to_dict() for e in self.events]
        if self.removed:
            d["removed"] = list(self.removed)
        return d


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winners (several for a shared win), or a draw."""

    winners: tuple[PlayerId, ...]
    reason: str
    draw: bool = False

    def to_dict(self) -> JSON:
        return {"winners": list(self.winners), "draw": self.draw, "reason": self.reason}


@dataclass(frozen=True)
class About:
    """What a game is, stated once in its package (``games/<game>/__init__.py``'s
    ``ABOUT``): read by the list of games without importing the rules, and by the
    game's class, which takes its names and player counts from here."""

    name: str
    """The command-line id: ``"double-take"``."""
    title: str
    min_players: int
    max_players: int
    pieces: tuple[str, int]
    """The pieces that carry a magnet (and a tag on an RFID board), and the most a game
    uses: ``("letter tiles", 100)``."""
    options: tuple[OptionSpec, ...] = ()
    """The options the game takes, their values and ranges; the game checks its
    settings against them and the table lists and checks them."""

    def option(self, name: str) -> OptionSpec:
        """The option called ``name``."""
        for spec in self.options:
            if spec.name == name:
                return spec
        raise KeyError(name)

    def players_refused(self, players: int) -> str | None:
        """Why the game cannot be played by ``players``, or None when it can."""
        if self.min_players <= players <= self.max_players:
            return None
        span = (
            str(self.min_players)
            if self.min_players == self.max_players
            else f"{self.min_players} to {self.max_players}"
        )
        return f"{self.title} is for {span} players, not {players}"


class Game(ABC):
    """One game in progress. Subclasses are listed in ``games.registry``.

    A game is fully determined by its class, player count, seed, options and the
    actions played: replaying them rebuilds it exactly. A subclass sets ``about``
    (its package's ``ABOUT``); its ``name``, ``title`` and player counts come from it.
    """

    about: ClassVar[About]
    name: ClassVar[str]
    """The command-line id: ``"double-take"``."""
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    seat_names: ClassVar[tuple[str, ...]] = ()
    """Names of the seats where they have one (``"red"``, ``"green"``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        about = cls.__dict__.get("about")
        if about is not None:
            cls.name = about.name
            cls.title = about.title
            cls.min_players = about.min_players
            cls.max_players = about.max_players

    def option(self, name: str, default: Any = None) -> Any:
        """The setting of option ``name``, refused with ``BadSettings`` (in the words
        the table uses) unless its ``ABOUT`` takes it; ``default`` when not given."""
        value = self.options.get(name)
        if value is None:
            return default
        refused = self.about.option(name).refused(value, self.players)
        if refused is not None:
            raise BadSettings(refused)
        return value

    def __init__(
        self,
        players: int = 2,
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        refused = self.about.players_refused(players)
        if refused is not None:
            raise BadSettings(refused)
        self.players = players
        self.rng = rng if rng is not None else random.Random(0)
        self.options = dict(options or {})
        self.history: list[Action] = []
        self._accepted: tuple[Action, int] | None = None
        """The action ``judge`` last accepted and the length of the history then."""

    # -- what the table needs to know -------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> PlayerId:
        """The seat whose turn it is."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Every seat's score (or the game's count that stands for it)."""

    @abstractmethod
    def layout(self) -> Layout:
        """What should stand on each occupied cell now."""

    @abstractmethod
    def cells(self) -> list[Cell]:
        """Every cell of the board, in reading order."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on."""

    # -- actions -----------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action the player to move may take now."""

    @abstractmethod
    def _judge(self, action: Action) -> Verdict:
        """The game's own judgement of ``action`` while the game goes on; ``judge`` asks it."""

    @abstractmethod
    def _apply(self, action: Action) -> Verdict:
        """Play an action ``_judge`` accepted; return what it scored."""

    @abstractmethod
    def decode(self, data: Mapping[str, Any]) -> Action:
        """Rebuild an action from ``Action.to_dict`` output; raise GameError if malformed."""

    def judge(self, action: Action) -> Verdict:
        """Whether ``action`` may be played now, and why not; the game is unchanged.

        The one way to ask the rules: an action is in ``legal_actions()`` exactly when
        this accepts it. An accepted verdict is remembered for ``apply``.
        """
        if self.outcome is not None:
            return Verdict.reject("the game is over")
        verdict = self._judge(action)
        self._accepted = (action, len(self.history)) if verdict.accepted else None
        return verdict

    def apply(self, action: Action) -> Verdict:
        """Play ``action`` and return what it scored; raise IllegalMove if the rules refuse it.

        An action ``judge`` has just accepted (this very object, nothing played since)
        is not judged a second time; any other is judged first.
        """
        if self._accepted is None or (
            self._accepted[0] is not action or self._accepted[1] != len(self.history)
        ):
            judged = self.judge(action)
            if not judged.accepted:
                raise IllegalMove(judged.reason)
        self._accepted = None
        verdict = self._apply(action)
        self.history.append(action)
        return verdict

    def out_of_turn_seats(self) -> tuple[PlayerId, ...]:
        """The seats, other than the one to move, that the rules let act now (a player
        who may end the game out of turn); most games have none."""
        return ()

    def seat_name(self, player: PlayerId) -> str:
        if player < len(self.seat_names):
            return self.seat_names[player]
        return f"player {player + 1}"

    def state_dict(self) -> JSON:
        """A JSON-safe picture of the position for reports and the ``--json`` stream."""
        out = self.outcome
        return {
            "game": self.name,
            "players": self.players,
            "to_move": self.to_move,
            "scores": self.scores(),
            "layout": {cell: piece.to_dict() for cell, piece in sorted(self.layout().items())},
            "outcome": out.to_dict() if out else None,
        }


class Player(ABC):
    """A computer player: picks an action for the seat to move."""

    @abstractmethod
    def choose(self, game: Game) -> Action:
        """An action that ``game.judge`` accepts."""

    def out_of_turn(self, game: Game, seat: PlayerId) -> Action | None:
        """What ``seat`` (one of ``game.out_of_turn_seats()``, played by the computer)
        does now, or None to let the seat to move play."""
        return None
