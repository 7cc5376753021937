"""The views a guest of a game of hidden pieces was sent, kept beside its journal.

The guest's journal holds its game under no seed of its own: the pieces it cannot
see are stand-ins, arranged before each move as the host's view after it says
(:mod:`.sealed`). Its journal alone cannot replay that game, so the views are kept
too, in ``<journal>.views``, written whole and synced as each one comes and before
the move after it is made: a guest started again on its journal replays its game
from the two (:class:`.sealed.Views` arranges the stand-ins as it did) and takes the
game up where it was. The file is dropped once the game is over and its journal has
the seed that dealt it.

What is read back is checked as a message from the host is (:func:`.protocol.decode`),
and against the game the host hosts: a file that does not pass is refused with the
reason, and neither it nor the journal is changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec
from msgspec import Struct

from ..spectate.errors import MessageRefused
from ..storage.files import write_whole
from . import protocol


class ViewsUnreadable(ValueError):
    """The views kept beside a journal cannot be taken up (damaged, or another game's)."""


class KeptViews(Struct, frozen=True, forbid_unknown_fields=True):
    """What ``<journal>.views`` holds."""

    game_key: str
    """The host's key of the game (:attr:`.protocol.Table.game_key`)."""
    game: str
    seats: list[int]
    """The guest's seats, from 0."""
    views: list[dict[str, Any]]
    """Each view the host sent (a :class:`.protocol.Seen`, as it came), by its number."""


def views_path(journal: Path) -> Path:
    """Where the views of the game in ``journal`` are kept."""
    return journal.with_name(f"{journal.name}.views")


def write(
    path: Path, game_key: str, game: str, seats: Iterable[int], views: Iterable[protocol.Seen]
) -> None:
    """Keep ``views`` at ``path``, whole and synced (or the file as it was)."""
    kept = KeptViews(
        game_key=game_key,
        game=game,
        seats=sorted(seats),
        views=[msgspec.to_builtins(seen) for seen in sorted(views, key=lambda s: s.number)],
    )
    write_whole(path, msgspec.json.encode(kept))


def read(path: Path, game_key: str, game: str, seats: Iterable[int]) -> list[protocol.Seen]:
    """The views kept at ``path`` for the game ``game_key``; raises
    :class:`ViewsUnreadable` saying why when there are none to take up."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise _unreadable(path, "there is no such file") from None
    except OSError as exc:
        raise _unreadable(path, str(exc)) from None
    try:
        kept = msgspec.json.decode(data, type=KeptViews)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise _unreadable(path, f"it is not a file of kept views: {exc}") from None
    if kept.game_key != game_key or kept.game != game or sorted(set(seats)) != kept.seats:
        raise _unreadable(path, f"it holds the views of another game ({kept.game} {kept.game_key})")
    views: dict[int, protocol.Seen] = {}
    for i, value in enumerate(kept.views):
        try:
            seen = protocol.decode(msgspec.json.encode(value))
        except MessageRefused as exc:
            raise _unreadable(path, f"its view {i + 1} is refused: {exc}") from None
        if not isinstance(seen, protocol.Seen) or seen.game_key != game_key:
            raise _unreadable(path, f"its view {i + 1} is not a view of this game")
        if seen.number in views:
            raise _unreadable(path, f"it holds the view after move {seen.number} twice")
        views[seen.number] = seen
    if 0 not in views:
        raise _unreadable(path, "it holds no deal (the view before the first move)")
    return [views[n] for n in sorted(views)]


def key_of(path: Path) -> str | None:
    """The host's key of the game whose views are kept at ``path`` (None: none can be
    read there)."""
    try:
        return msgspec.json.decode(path.read_bytes(), type=KeptViews).game_key
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None


def forget(path: Path) -> None:
    """The game is over and its journal replays from its seed: the views go."""
    path.unlink(missing_ok=True)


def _unreadable(path: Path, why: str) -> ViewsUnreadable:
    return ViewsUnreadable(
        f"the views of this board's game kept in {path} cannot be taken up ({why}); "
        "its journal holds the game without the seed that dealt it, so it cannot go "
        "on without them. Nothing was changed in either: restore the file, or play "
        "on with another --journal"
    )
