"""The take-back: which journal entries a take-back withdraws, and the game replayed
from its journal without them."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Protocol

from games.core import Action, Game, Verdict

from ..journal import ActionEntry, Journal, JournalError
from ..referees.decisions import Played
from .errors import TakeBackRefused
from .replay import in_force, replay_action, replay_entries

LastPlayed = tuple[int, Action, Verdict]
"""An accepted action with the seat it is credited to and its verdict."""


class Unseen(Protocol):
    """How a game journaled without the seed that dealt it is replayed: a guest's game
    of hidden pieces (``remote/sealed.py``) holds stand-ins for the pieces it cannot
    see, arranged before each move as the host's views say. Each raises ValueError
    when the game cannot be brought to them."""

    def dealt(self, game: Game) -> None:
        """The game is made: its pieces dealt as they were."""

    def before(self, game: Game, action: Action) -> None:
        """``action`` is to be replayed: the stand-ins arranged as they were for it."""

    def after(self, game: Game) -> None:
        """The action was replayed: the game is what it was after it."""


def rebuild(
    journal: Journal,
    game_id: int,
    make_game: Callable[..., Game],
    unseen: Unseen | None = None,
) -> tuple[Game, LastPlayed | None]:
    """Rebuild a game, with its last accepted action (its mover, itself, its verdict);
    ``unseen`` arranges what its seed did not deal (None: the seed dealt it all)."""
    record = journal.game(game_id)
    game = make_game(record.players, random.Random(record.seed), record.options)
    last: LastPlayed | None = None
    if unseen is None:
        for _, mover, verdict in replay_entries(journal, game_id, game):
            last = (mover, game.history[-1], verdict)
    else:
        last = _replay_unseen(journal, game_id, game, unseen)
    if game.outcome is not None and record.finished is None:
        # The power went between journaling the last input and marking the game
        # over; left so, the ended game would be resumed at every start.
        journal.finish(game_id, game.outcome.to_dict())
    return game, last


def _replay_unseen(journal: Journal, game_id: int, game: Game, unseen: Unseen) -> LastPlayed | None:
    where = f"journal {journal.path}, game {game_id}"
    last: LastPlayed | None = None
    try:
        unseen.dealt(game)
        for entry in in_force(journal.entries(game_id), where):
            unseen.before(game, game.decode(entry.action))
            mover, verdict = replay_action(game, entry.action, f"{where}, entry {entry.seq}")
            unseen.after(game)
            last = (mover, game.history[-1], verdict)
    except ValueError as exc:
        raise JournalError(f"{where} does not replay: {exc}") from None
    return last


def take_back(
    journal: Journal,
    game_id: int,
    game: Game,
    automatic: Callable[[Action], bool],
    seats: frozenset[int],
    last: Played | None,
) -> str:
    """Journal the take-back of ``game``'s last action (with the automatic ones after
    it, such as a pass the table made for a player who could not move) as an entry of
    its own; return what the set-up screen says was taken back. The game is then
    replayed without them (:func:`rebuild`): it is deterministic from its seed, so no
    engine needs an undo. Raises TakeBackRefused, journaling nothing, when nothing can be
    taken back."""
    standing = in_force(journal.entries(game_id), f"journal {journal.path}, game {game_id}")
    if game.outcome is not None or not standing:
        why = "there is nothing to take back" if not standing else "the game is over"
        raise TakeBackRefused(why)
    to_move = partial(computer_to_move_after, journal, game_id, game.name, game.players, seats)
    undo = withdrawn(standing, game.history, automatic, to_move)
    journal.append(game_id, "takeback", {"undo": undo})
    return reason(undo, last)


def withdrawn(
    standing: list[ActionEntry],
    history: list[Action],
    automatic: Callable[[Action], bool],
    computer_to_move_after: Callable[[list[ActionEntry]], bool],
) -> list[int]:
    """The entries a take-back withdraws from ``standing`` (which it shortens): the last
    action with the automatic ones after it, such as a pass the table made for a
    player who could not move."""
    undo: list[int] = []
    while standing:
        undo.append(standing.pop().seq)
        if automatic(history[len(standing)]):
            continue
        if standing and computer_to_move_after(standing):
            continue  # against the computer, a take-back gives the people their move back
        break
    return undo


def computer_to_move_after(
    journal: Journal,
    game_id: int,
    game_name: str,
    players: int,
    seats: frozenset[int],
    standing: list[ActionEntry],
) -> bool:
    """Whether, with only ``standing`` played, a computer seat would be to move while
    people play other seats."""
    if not seats or len(seats) == players:
        return False
    from ..kits import find_kit

    record = journal.game(game_id)
    game = find_kit(game_name).new_game(record.players, random.Random(record.seed), record.options)
    where = f"journal {journal.path}, game {game_id}"
    for entry in standing:
        replay_action(game, entry.action, f"{where}, entry {entry.seq}")
    return game.to_move in seats


def reason(undo: list[int], last: Played | None) -> str:
    """What the set-up screen says was taken back."""
    if len(undo) == 1 and last is not None:
        return f"Taken back: {last.text}"
    return f"{len(undo)} moves taken back"


def marked(history: list[Action], automatic: tuple[bool, ...]) -> Callable[[Action], bool]:
    """Whether an action of ``history`` is one the table played itself, as ``automatic``
    (a flag an action, in order) says."""
    played = {id(action) for action, flag in zip(history, automatic, strict=False) if flag}
    return lambda action: id(action) in played


def withdraw(journal: Journal, game_id: int, count: int) -> None:
    """Journal the take-back of the last ``count`` actions in force, as a player's is."""
    standing = in_force(journal.entries(game_id), f"journal {journal.path}, game {game_id}")
    if not 0 < count <= len(standing):
        raise ValueError(f"{count} moves cannot be taken back of the {len(standing)} played")
    undo = [entry.seq for entry in reversed(standing[-count:])]
    journal.append(game_id, "takeback", {"undo": undo})
