"""Inviting another board to a game from the start menu, and answering an invitation.

A board at its start menu is on line on the club's broker: its presence, retained,
on its own game's ``presence/<board>`` (``tabletop/remote/<board>/presence/<board>``),
its last will saying it is not. The boards on line are those whose own presence says
so; the menu offers them for a seat. Once the game is chosen, the host sends each
invited board an ``invite`` on the guest's ``to/<guest>`` (its id, the host, the game,
the players, the seats offered, from 0); the guest's menu offers it
(``join: Crosslet from bob's board, seat 2``) and the guest answers on its
``from/<guest>`` (``answer``: the invitation's id, the board, accepted or not). Once
every invited board has answered, or one refused or did not answer in time, the host
tells each invited board whether the game starts (``decided``, on its ``to/<guest>``):
a board that accepted joins only then, and an offer not yet answered is withdrawn.
All within each board's ACL of two boards' games (``tabletop club init``).

Everything received is checked before it is used (:func:`decode`): its size and
nesting by the hub's bounds, its fields by type, the board names as the hub's schema
takes them, that the topic is the sender's, the game one that is played board to
board, its players the game's, and the seats offered seats of it (not all of them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec
from msgspec import Struct

from games.errors import GameError
from games.registry import find_listed

from ..spectate import schema
from ..spectate.errors import MessageRefused
from . import protocol
from .side import check_game

INVITE_ID = re.compile(r"^[0-9a-f]{8,32}$")
"""An invitation's id: the host's random hex, which the answer names."""
MAX_REASON = 200
"""The characters of a refusal's reason."""


class Invite(Struct, frozen=True, tag="invite", forbid_unknown_fields=True):
    """The host ``host`` asks a board to hold ``seats`` (from 0) of a game of ``game``."""

    invite: str
    host: str
    game: str
    players: int
    seats: list[int]


class Answer(Struct, frozen=True, tag="answer", forbid_unknown_fields=True):
    """The board ``board`` joins the game it was invited to, or not (and why)."""

    invite: str
    board: str
    accepted: bool
    reason: str = ""


class Decided(Struct, frozen=True, tag="decided", forbid_unknown_fields=True):
    """The host ``host`` starts the game it invited a board to (every board invited
    accepted), or calls it off, and why (a board refused, or did not answer)."""

    invite: str
    host: str
    starts: bool
    reason: str = ""


Said = Invite | Answer | Decided


def decode(topic: str, payload: bytes, board: str) -> Said:
    """An invitation to ``board`` or the host's decision on it (on ``to/<board>``), or
    an answer to ``board``'s invitation (on its game's ``from/<guest>``), checked.
    Raises :class:`MessageRefused` with why."""
    value = schema.load(payload, protocol.MAX_MOVE_BYTES)
    try:
        said: Said = msgspec.convert(value, Said)
    except msgspec.ValidationError as exc:
        raise MessageRefused(f"it is not an invitation or an answer ({exc})") from None
    if not INVITE_ID.match(said.invite):
        raise MessageRefused(f"its invitation id {said.invite[:40]!r} is not 8 to 32 hex digits")
    name = said.board if isinstance(said, Answer) else said.host
    if not schema.BOARD_NAME.match(name):
        raise MessageRefused(f"it names a board {name[:70]!r} no board can be called")
    if not isinstance(said, Invite) and len(said.reason) > MAX_REASON:
        raise MessageRefused(f"its reason is over {MAX_REASON} characters")
    if isinstance(said, Answer):
        if topic != protocol.from_topic(board, said.board):
            raise MessageRefused(f"it answers for {said.board} but came on {topic}")
        return said
    if topic != protocol.to_topic(said.host, board):
        raise MessageRefused(f"it speaks for {said.host} but came on {topic}")
    if isinstance(said, Decided):
        return said
    if said.host == board:
        raise MessageRefused("it invites this board to its own game")
    try:
        listed = find_listed(said.game)
        check_game(said.game)
    except (GameError, ValueError) as exc:
        raise MessageRefused(f"its game {said.game[:40]!r}: {exc}") from None
    if not listed.min_players <= said.players <= listed.max_players:
        raise MessageRefused(
            f"{listed.title} takes {listed.min_players} to {listed.max_players} players, "
            f"not {said.players}"
        )
    seats = said.seats
    if not seats or len(set(seats)) != len(seats) or len(seats) >= said.players:
        raise MessageRefused("its seats are not some of the game's, each once")
    if any(not 0 <= seat < said.players for seat in seats):
        raise MessageRefused(f"its seats {seats} are not seats of {said.players} players")
    return said


def offer_text(invite: Invite) -> str:
    """What the guest's menu says: ``join: Crosslet from bob's board, seat 2``."""
    title = find_listed(invite.game).title
    seats = ", ".join(str(seat + 1) for seat in sorted(invite.seats))
    many = "s" if len(invite.seats) > 1 else ""
    return f"join: {title} from {invite.host}'s board, seat{many} {seats}"


def presence_of(topic: str, payload: bytes) -> tuple[str, bool] | None:
    """A board's own presence (on its own game's ``presence/<board>``), checked: the
    board and whether it is on line; None for a guest's presence in another board's
    game. Raises :class:`MessageRefused` with why."""
    parts = topic.split("/")
    root = protocol.root("").rstrip("/").split("/")
    if len(parts) != len(root) + 3 or parts[: len(root)] != root or parts[-2] != "presence":
        raise MessageRefused(f"{topic} is not a board's presence")
    host, board = parts[len(root)], parts[-1]
    message = protocol.decode(payload)
    if not isinstance(message, protocol.Presence) or message.board != board:
        raise MessageRefused(f"it is not {board}'s presence")
    return (board, message.online) if host == board else None


def on_line(seen: dict[str, bool], board: str) -> list[str]:
    """The boards on line but ``board`` itself, by name."""
    return sorted(name for name, online in seen.items() if online and name != board)


def invited(owners: Sequence[str], host: str) -> dict[str, list[int]]:
    """Each other board and the seats it is invited to hold."""
    out: dict[str, list[int]] = {}
    for seat, owner in enumerate(owners):
        if owner != host:
            out.setdefault(owner, []).append(seat)
    return out


def check_invited(table: protocol.Table, board: str, game: str, seats: list[int]) -> None:
    """The host's game is the one it invited this board to: that game, those seats."""
    held = [seat + 1 for seat, owner in enumerate(table.seats) if owner == board]
    if table.game != game or held != sorted(seat + 1 for seat in seats):
        raise ValueError(
            f"{table.host}'s board hosts {table.game} with seats {held} for this board, "
            f"not the {game} game, seats {sorted(s + 1 for s in seats)}, it invited it to"
        )
