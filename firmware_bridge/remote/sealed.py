"""A guest's game of hidden pieces (:data:`.privacy.SEALED`): it is never given the
seed, which deals every hand, only its own view of each position.

The host sends the guest, on ``to/<guest>``, what its seats may know after each move
(:class:`.protocol.Seen`: the deal first, as move 0). The guest's game holds its own
hands as the views give them and stand-ins for the pieces it cannot see; before a
move is made at the guest, the stand-ins are arranged so that the rules, playing it,
reach the view the host sent (:func:`games.dominoes.seen.arrange`); after, the
guest's view of its game must be the host's, digest for digest, or the game stops.

A guest's own move is sent to the host before it is made here (what it draws is
known once the host has made it) and made when the host publishes it back with the
view after it; so a guest never plays a move of its own on stand-ins.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from msgspec import Struct

from games.core import Action, Game, Outcome
from games.dominoes import seen as dominoes_seen
from games.dominoes.board import Domino
from games.dominoes.game import Discard, Dominoes, Place
from games.doublecross import seen as doublecross_seen
from games.doublecross.actions import NewLetters, PlaceTile
from games.doublecross.game import DoubleCross
from games.errors import GameError

from . import kept_views, protocol
from .privacy import SEALED, seat_facts, seat_view, view_digest


class ViewsDisagree(RuntimeError):
    """This board's game cannot be brought to the view the host sent."""


class Sealing(Struct, frozen=True):
    """How a game of hidden pieces is kept to a guest's views."""

    deal: Callable[[Any, dict[str, Any], frozenset[int]], None]
    """Give a new game the guest's seats' pieces from the first view."""
    arrange: Callable[[Any, frozenset[int], Action, Callable[[Any], bool], dict[str, Any]], bool]
    """Arrange the stand-ins so that a move reaches a view; False if none does."""
    settle: Callable[[Any, dict[str, Any]], None]
    """Take every hand and the outcome from the view of a game over."""
    options: Callable[[dict[str, Any], frozenset[int], int], dict[str, Any]] | None = None
    """The options that deal the guest's game from the first view (None: it is dealt
    by ``deal`` once made)."""


def _hands(view: dict[str, Any]) -> list[Any]:
    hands = view.get("hands")
    if not isinstance(hands, list):
        raise ViewsDisagree("the view names no hands")
    return hands


def _dominoes(held: Any) -> list[Any]:
    if not isinstance(held, list):
        raise ViewsDisagree(f"{held!r} is not a hand of dominoes")
    return [dominoes_seen.domino_of(str(text)) for text in held]


def _deal_dominoes(game: Dominoes, view: dict[str, Any], seats: frozenset[int]) -> None:
    hands = _hands(view)
    mine = {seat: _dominoes(hands[seat]) for seat in seats if seat < len(hands)}
    dominoes_seen.seat_deal(game, mine, int(view["to_move"]))


def _arrange_dominoes(
    game: Dominoes,
    seats: frozenset[int],
    action: Action,
    check: Callable[[Dominoes], bool],
    view: dict[str, Any],
) -> bool:
    drawn: list[Any] = []
    mover = game.to_move
    if mover in seats and view.get("outcome") is None:
        # What the mover's own hand took: the view's hand after, less what it kept.
        kept = list(game.hand(mover))
        played = None
        if isinstance(action, Place):
            played = action.domino
        elif isinstance(action, Discard):
            played = Domino(action.a, action.b)
        if played is not None and played.key() in kept:
            kept.remove(played.key())
        after = _dominoes(_hands(view)[mover])
        drawn = after[len(kept) :] if after[: len(kept)] == kept else after
    return dominoes_seen.arrange(game, seats, action, check, drawn)


def _settle_dominoes(game: Dominoes, view: dict[str, Any]) -> None:
    outcome = view.get("outcome")
    if not isinstance(outcome, dict):
        raise ViewsDisagree("the view of a game over has no outcome")
    hands = [_dominoes(held) for held in _hands(view)]
    winners = tuple(int(seat) for seat in outcome.get("winners", []))
    reason, draw = str(outcome.get("reason", "")), bool(outcome.get("draw", False))
    dominoes_seen.settle(game, hands, Outcome(winners, reason, draw))


def _dealt(game: Any, view: dict[str, Any], seats: frozenset[int]) -> None:
    """Dealt by its options (:func:`_doublecross_options`): nothing left to do."""


def _doublecross_options(
    view: dict[str, Any], seats: frozenset[int], players: int
) -> dict[str, Any]:
    layout = view.get("layout")
    racks = view.get("racks")
    if not isinstance(layout, dict) or not isinstance(racks, list) or len(racks) != players:
        raise ViewsDisagree("the first view names no layout or racks")
    start = {cell: str(tile["label"]) for cell, tile in layout.items() if tile["owner"] is None}
    mine = {seat: [str(t) for t in racks[seat]] for seat in seats}
    specials = {str(cell): str(kind) for cell, kind in dict(view.get("specials", {})).items()}
    return doublecross_seen.seat_options(players, int(view["to_move"]), start, specials, mine)


def _arrange_doublecross(
    game: DoubleCross,
    seats: frozenset[int],
    action: Action,
    check: Callable[[DoubleCross], bool],
    view: dict[str, Any],
) -> bool:
    drawn: list[str] = []
    mover = game.to_move
    if mover in seats and view.get("outcome") is None:
        kept = [] if isinstance(action, NewLetters) else game.rack(mover)
        if isinstance(action, PlaceTile) and action.letter.upper() in kept:
            kept.remove(action.letter.upper())
        after = [str(t) for t in view["racks"][mover]]
        drawn = after[len(kept) :] if after[: len(kept)] == kept else after
    return doublecross_seen.arrange(game, seats, action, check, drawn)


def _settle_doublecross(game: DoubleCross, view: dict[str, Any]) -> None:
    outcome = view.get("outcome")
    if not isinstance(outcome, dict) or not isinstance(view.get("racks"), list):
        raise ViewsDisagree("the view of a game over has no outcome")
    racks = [[str(t) for t in rack] for rack in view["racks"]]
    winners = tuple(int(seat) for seat in outcome.get("winners", []))
    reason, draw = str(outcome.get("reason", "")), bool(outcome.get("draw", False))
    doublecross_seen.settle(game, racks, Outcome(winners, reason, draw))


SEALINGS: dict[str, Sealing] = {
    "dominoes": Sealing(_deal_dominoes, _arrange_dominoes, _settle_dominoes),
    "doublecross": Sealing(_dealt, _arrange_doublecross, _settle_doublecross, _doublecross_options),
}
assert set(SEALINGS) == SEALED


class Views:
    """The views a guest was sent, and how far its game agrees with them; kept at
    ``keep_at`` (:mod:`.kept_views`) as each comes, when given, and how the journal's
    game is replayed (:class:`..runtime.takeback.Unseen`)."""

    def __init__(
        self,
        game_name: str,
        seats: Iterable[int],
        keep_at: Path | None = None,
        game_key: str = "",
        views: Iterable[protocol.Seen] = (),
    ) -> None:
        self.game_name = game_name
        self.sealing = SEALINGS[game_name]
        self.seats = frozenset(seats)
        self.views: dict[int, protocol.Seen] = {seen.number: seen for seen in views}
        """The host's view after each move, by the move's number (0: the deal)."""
        self.kept = -1
        """The moves this board's game agrees with the views over (-1: not dealt)."""
        self.keep_at = keep_at
        """Where the views are kept, written whole as each comes (None: in memory)."""
        self.game_key = game_key

    @classmethod
    def taken_up(cls, path: Path, game_key: str, game_name: str, seats: Iterable[int]) -> Views:
        """The views kept at ``path`` for the game ``game_key`` (raises
        :class:`.kept_views.ViewsUnreadable` saying why there are none)."""
        views = kept_views.read(path, game_key, game_name, seats)
        return cls(game_name, seats, path, game_key, views)

    def take(self, seen: protocol.Seen) -> bool:
        """Keep a view (written whole before it is used); False for one already here
        (sent again)."""
        if seen.number in self.views:
            return False
        self.views[seen.number] = seen
        if self.keep_at is not None:
            kept_views.write(
                self.keep_at, self.game_key, self.game_name, self.seats, self.views.values()
            )
        return True

    def forget(self) -> None:
        """The game is over and the journal has its seed: the kept views go."""
        if self.keep_at is not None:
            kept_views.forget(self.keep_at)

    # -- replaying the journal's game (runtime.takeback.Unseen) -----------------------
    def dealt(self, game: Game) -> None:
        self.kept = -1
        try:
            if not self.deal(game):
                raise ValueError("the host's deal is not among the views kept")
        except ViewsDisagree as exc:
            raise ValueError(str(exc)) from None

    def before(self, game: Game, action: Action) -> None:
        n = len(game.history) + 1
        if not self.can_make(game, n):
            raise ValueError(f"the host's view after move {n} is not among the views kept")
        try:
            self.prepare(game, n, action)
        except ViewsDisagree as exc:
            raise ValueError(str(exc)) from None

    def after(self, game: Game) -> None:
        try:
            self.played(game, len(game.history))
        except ViewsDisagree as exc:
            raise ValueError(str(exc)) from None

    def ready(self, game: Game) -> bool:
        """Whether the game agrees with the host's view of the position now."""
        return self.kept == len(game.history)

    def deal(self, game: Game) -> bool:
        """Deal the game from the first view, once it has come; whether it is dealt."""
        if self.kept >= 0:
            return True
        first = self.views.get(0)
        if first is None or game.history:
            return False
        try:
            self.sealing.deal(game, first.view, self.seats)
        except (GameError, KeyError, TypeError, ValueError) as exc:
            raise ViewsDisagree(f"the host's deal cannot be this board's: {exc}") from None
        self._agree(game, 0)
        return True

    def can_make(self, game: Game, number: int) -> bool:
        """Whether move ``number`` can be made here now: the position before it agrees
        with the host's and the view after it has come."""
        return self.kept == number - 1 == len(game.history) and number in self.views

    def prepare(self, game: Game, number: int, action: Action) -> None:
        """Arrange the stand-ins so that ``action``, move ``number``, reaches the view
        after it."""
        want = self.views[number].view
        over = want.get("outcome") is not None

        def check(after: Game) -> bool:
            seen = seat_facts(seat_view(after, self.seats))
            if over:
                # Every hand is shown, and the outcome breaks a tie on them: both
                # are the view's once the move is made (settle).
                return (after.outcome is not None) and _public(seen) == _public(want)
            return seen == want

        try:
            done = self.sealing.arrange(game, self.seats, action, check, want)
        except (GameError, KeyError, TypeError, ValueError) as exc:
            raise ViewsDisagree(f"move {number} cannot be made here: {exc}") from None
        if not done:
            raise ViewsDisagree(
                f"no arrangement of the pieces this board cannot see gives the host's "
                f"view after move {number}"
            )

    def played(self, game: Game, number: int) -> None:
        """Move ``number`` was made here: the game's view must be the host's."""
        seen = self.views.get(number)
        if seen is None or self.kept != number - 1:
            raise ViewsDisagree(f"move {number} was made here before the host's view of it")
        if seen.view.get("outcome") is not None:
            self.sealing.settle(game, seen.view)
        self._agree(game, number)

    def _agree(self, game: Game, number: int) -> None:
        seen = self.views[number]
        if view_digest(game, self.seats) != seen.digest:
            ours = seat_facts(seat_view(game, self.seats))
            differ = sorted(
                k for k in set(ours) | set(seen.view) if ours.get(k) != seen.view.get(k)
            )
            raise ViewsDisagree(
                f"this board's view after move {number} is not the host's "
                f"(they differ in {', '.join(differ) or 'the layout'})"
            )
        self.kept = number


def _public(view: dict[str, Any]) -> dict[str, Any]:
    drop = ("hands", "racks", "outcome")
    return {key: value for key, value in view.items() if key not in drop}


def dealing_options(
    game_name: str, seen: protocol.Seen, seats: Iterable[int], players: int
) -> dict[str, Any] | None:
    """The options that deal a guest's game from its first view, if the game is dealt
    so (None: it is dealt once made)."""
    sealing = SEALINGS[game_name]
    if sealing.options is None:
        return None
    try:
        return sealing.options(seen.view, frozenset(seats), players)
    except (KeyError, TypeError, ValueError, GameError) as exc:
        raise ViewsDisagree(f"the host's deal cannot be this board's: {exc}") from None
