"""What the referee reads of a session, kept in its facts: the board as last read,
the squares' labels, the profile, the clock, whether the board is being set
up, and the last accepted action; what the session reads of the referee's last
ruling; and where the lights go and the computer's thoughts come from."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from games.core import Action, Game
from wiring.profile import Profile

from ..journal import GameRecord, Journal, JournalError
from ..referees.decisions import Played
from ..referees.facts import Facts
from ..referees.fixes import Fix
from ..referees.referee import Referee
from ..referees.ruling import Ruling
from ..referees.view import View
from . import seats as seats_
from .computer import Computer
from .lights import Lighting
from .lightsink import LightSink
from .thinking import Deliver

G = TypeVar("G", bound=Game)


def record_of(journal: Journal, game_id: int) -> GameRecord | None:
    """The game's record in ``journal``; None when the journal cannot give it."""
    try:
        return journal.game(game_id)
    except JournalError:
        return None


class FactsView(Generic[G]):
    """The facts the referee reads, as attributes of the session that keeps them."""

    facts: Facts
    game: G

    @property
    def observation(self) -> dict[str, str]:
        return self.facts.observation

    @property
    def labels(self) -> Callable[[str], str | None] | None:
        return self.facts.labels

    @property
    def profile(self) -> Profile | None:
        return self.facts.profile

    @property
    def now(self) -> float:
        return self.facts.now

    @now.setter
    def now(self, value: float) -> None:
        self.facts.now = value

    @property
    def restoring(self) -> bool:
        return self.facts.restoring

    @restoring.setter
    def restoring(self, value: bool) -> None:
        self.facts.restoring = value

    @property
    def restore_title(self) -> str:
        """The title of the fixes that set the board up (after a resume or a take-back)."""
        return self.facts.restore_title

    @restore_title.setter
    def restore_title(self, value: str) -> None:
        self.facts.restore_title = value

    @property
    def restore_reason(self) -> str:
        return self.facts.restore_reason

    @restore_reason.setter
    def restore_reason(self, value: str) -> None:
        self.facts.restore_reason = value

    @property
    def last(self) -> Played | None:
        """The last accepted action."""
        return self.facts.last

    @property
    def last_move(self) -> dict[str, Any] | None:
        """The last accepted action as the ``--json`` stream reports it."""
        last = self.facts.last
        return last.to_dict(self.game.seat_name) if last is not None else None


class RulingView(FactsView[G], Generic[G]):
    """What the referee ruled on the last event, as the session that keeps it reads it."""

    _ruling: Ruling
    computer: Computer | None
    referee: Referee[G]
    lighting: Lighting
    _lights: LightSink
    think_wait: Callable[[], None] | None

    @property
    def view(self) -> View[G]:
        """What the table shows of the game: the view the kit made with the referee."""
        return self.referee.view

    @property
    def lights(self) -> LightSink:
        """Where what is lit goes (the LED chain); a new sink gets the whole map next."""
        return self._lights

    @lights.setter
    def lights(self, sink: LightSink) -> None:
        self._lights = sink
        self.lighting.shown = None

    def thinks_to(self, deliver: Deliver) -> None:
        """Let the computer think off the loop's thread, its thoughts sent by ``deliver``
        (the loop's ``put``), their time kept on the loop's clock."""
        if self.computer is not None:
            self.computer.deliver = deliver
            self.computer.clock = lambda: self.now
            self.computer.automatic = lambda action: bool(self.referee.automatic(action))

    def expected(self) -> Action | None:
        """The computer's move now, when it is a computer seat's turn; while it thinks,
        None, unless ``think_wait`` (the simulation's) lets the clock run on until known."""
        if self.computer is not None and self.think_wait is not None:
            self.think_wait()
        return self.computer.expected(self.game) if self.computer is not None else None

    def ruling(self) -> Ruling:
        """What the referee ruled on the last event (or as the game was taken up)."""
        return self._ruling

    def fixes(self) -> list[Fix]:
        """Fixes that make the game's cells match its layout."""
        return self._ruling.board_fixes

    def pending_fixes(self) -> list[Fix]:
        """The fixes the table must carry out now, first one first."""
        if self.restoring:
            return self.fixes()
        return self._ruling.pending_fixes

    def note(self) -> str:
        """What the OLED says above the game's screen: a hint, or the computer's move."""
        ruled, hint, computer = self._ruling, self.facts.prompt.hint, self.computer
        if not hint and computer is not None:
            hint = computer.hint_note(self.game)  # the hint asked for, while thought
        thinking = computer.thinking_note(self.game) if computer is not None else ""
        if thinking and not hint:
            return thinking  # after THINKING_AFTER_S of the computer's thinking
        who = computer.speaker(self.game) if computer is not None else "Computer"
        return seats_.note(hint, ruled.expected, ruled.instruction, who)
