"""What two boards playing one game say to each other through the club's broker.

The host board's referee decides; a guest board holds some of the seats. Topics,
under ``tabletop/remote/<host board>/``, all QoS 1:

- ``table`` retained, host → guests: the game (its kind, players, seed, options), who
  holds each seat, and every move the host has journaled. Published when the game
  starts, when the host connects, when it ends, and when a guest asks for it (a
  ``Sync`` on ``from/<guest>``): a guest starts from it, and resynchronises from it
  after a gap or a mismatch.
- ``moves`` host → guests: each move the host journaled, numbered from 1, with the
  digest of the game before it.
- ``from/<guest board>`` guest → host: a move the guest made for one of its seats,
  or a request for the table.
- ``to/<guest board>`` host → guest: why the host refused a guest's move; the dice it
  rolled for one; in a game of hidden pieces, the guest's view after each move.
- ``presence/<board>`` retained: whether a board is on line (its last will says
  it is not).

A player may abandon a game that waits for a board that is off line: the board says
so in an ``Abandoned``, retained, on its own topic of the game (a guest: its
``from/<guest>``; the host: each guest's ``to/<guest>``, and its ``table``, which then
names the board that abandoned it), so that the other board learns it also when it
comes back later.

Everything received is checked before it is used: its size and nesting by the
hub's bounds (:func:`..spectate.schema.load`), then its fields by type
(:func:`decode`). A message that fails is refused whole with a reason.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec
from msgspec import Struct

from ..runtime.computer import ROLLED
from ..spectate import schema
from ..spectate.errors import MessageRefused
from ..spectate.mqtt import TOPIC_ROOT

PROTOCOL = 1
"""The protocol's version: a board refuses a table of another version."""
MAX_TABLE_BYTES = schema.MAX_PAYLOAD
"""A table message holds every move: a long Double Take game is some 200 of about 60
bytes, a Crosslet game some 40 of up to 400. The bound is the hub's, which is also the
``max_packet_size`` of the club's broker (``tabletop club init``)."""
MAX_MOVE_BYTES = 16 * 1024
"""A move message holds one action (a Crosslet word of 15 tiles is under 1 KB)."""
MAX_DICE = 8
"""Dice in one roll (Doubles Wild rolls four at most)."""
DICE_GAMES = frozenset({"doubles-wild"})
"""The games whose actions carry rolled dice."""
DIGEST_CHARS = 32
"""The digest's hex digits: 128 bits of SHA-256."""


class Table(Struct, frozen=True, tag="table", forbid_unknown_fields=True):
    """The game as the host journals it (retained)."""

    protocol: int
    host: str
    """The host board's name."""
    game_key: str
    """The host's id of this game: a new game at the host has a new key."""
    started: str
    """When the host began the game (ISO 8601, UTC): of two tables, the later one's
    game is the host's game now."""
    game: str
    players: int
    seed: int | None
    """The seed that dealt the game; None while a game of hidden pieces is played (it
    deals every hand): given once it is over."""
    options: dict[str, Any]
    seats: list[str]
    """Who holds each seat: a board's name (the host's own name for its seats)."""
    moves: list[dict[str, Any]]
    """Every action the host journaled, in order."""
    digest: str
    """The digest of the game after ``moves``."""
    finished: bool = False
    abandoned: str | None = None
    """The board at which the game was abandoned (it is then ``finished``)."""


class Move(Struct, frozen=True, tag="move", forbid_unknown_fields=True):
    """One move: the ``number``-th action of the game, played from the state ``before``."""

    game_key: str
    number: int
    before: str
    seat: int
    action: dict[str, Any]
    board: str
    """The board that made it."""
    seen: str | None = None
    """In a game of hidden pieces, a guest's move: the digest of the guest's view of
    the position it was played from (:func:`.privacy.view_digest`)."""


class Seen(Struct, frozen=True, tag="seen", forbid_unknown_fields=True):
    """In a game of hidden pieces, what a guest's seats may know after move ``number``
    (0: the deal), on ``to/<guest>``: its view of the position but for the layout,
    which the moves give (:func:`.privacy.seat_facts`), and the digest of the whole
    view."""

    game_key: str
    number: int
    view: dict[str, Any]
    digest: str


class Refused(Struct, frozen=True, tag="refused", forbid_unknown_fields=True):
    """The host did not take a guest's move, and why."""

    game_key: str
    number: int
    reason: str


class Sync(Struct, frozen=True, tag="sync", forbid_unknown_fields=True):
    """A guest asks the host for its table: it joined, came back, or missed a move."""

    game_key: str
    have: int
    """The moves the guest has."""


class RollAsk(Struct, frozen=True, tag="roll", forbid_unknown_fields=True):
    """A guest's seat is to roll for move ``number``: the host rolls ``count`` dice."""

    game_key: str
    number: int
    count: int


class Rolled(Struct, frozen=True, tag="rolled", forbid_unknown_fields=True):
    """The dice the host rolled for a guest's move ``number``."""

    game_key: str
    number: int
    faces: list[int]


class Abandoned(Struct, frozen=True, tag="abandoned", forbid_unknown_fields=True):
    """A player at ``board`` abandoned the game while it waited for another board."""

    game_key: str
    board: str


class Presence(Struct, frozen=True, tag="presence", forbid_unknown_fields=True):
    board: str
    online: bool


Message = Table | Move | Seen | Refused | Sync | RollAsk | Rolled | Abandoned | Presence


def root(host: str) -> str:
    return f"{TOPIC_ROOT}/remote/{host}"


def table_topic(host: str) -> str:
    return f"{root(host)}/table"


def moves_topic(host: str) -> str:
    return f"{root(host)}/moves"


def from_topic(host: str, guest: str) -> str:
    return f"{root(host)}/from/{guest}"


def to_topic(host: str, guest: str) -> str:
    return f"{root(host)}/to/{guest}"


def presence_topic(host: str, board: str) -> str:
    return f"{root(host)}/presence/{board}"


def encode(message: Message | Struct) -> bytes:
    return msgspec.json.encode(message)


def decode(payload: bytes, limit: int = MAX_MOVE_BYTES) -> Message:
    """One message, checked: within the hub's bounds and of the protocol's types.

    Raises :class:`MessageRefused` with the reason.
    """
    value = schema.load(payload, limit)
    try:
        message: Message = msgspec.convert(value, Message)
    except msgspec.ValidationError as exc:
        raise MessageRefused(f"it is not a message of two boards' play ({exc})") from None
    names = [message.board] if isinstance(message, Move | Abandoned | Presence) else []
    if isinstance(message, Table):
        names = [message.host, *message.seats, *filter(None, [message.abandoned])]
        if message.abandoned is not None and not message.finished:
            raise MessageRefused("it is abandoned but not finished")
        if message.protocol != PROTOCOL:
            raise MessageRefused(
                f"it is of protocol {message.protocol}; this board speaks {PROTOCOL}"
            )
        if not 1 <= message.players <= schema.MAX_SEATS or len(message.seats) != message.players:
            raise MessageRefused("its seats do not match its players")
    for name in names:
        if not schema.BOARD_NAME.match(name):
            raise MessageRefused(f"it names a board {name[:70]!r} no board can be called")
    if isinstance(message, Move) and not 0 <= message.seat < schema.MAX_SEATS:
        raise MessageRefused(f"its seat {message.seat} is not a seat")
    if isinstance(message, RollAsk) and not 1 <= message.count <= MAX_DICE:
        raise MessageRefused(f"it asks for {message.count} dice (1 to {MAX_DICE})")
    if isinstance(message, Rolled) and (
        not 1 <= len(message.faces) <= MAX_DICE or any(not 1 <= f <= 6 for f in message.faces)
    ):
        raise MessageRefused("its dice are not 1 to 8 faces of 1 to 6")
    if isinstance(message, Move | Refused | RollAsk | Rolled) and message.number < 1:
        raise MessageRefused(f"its move number {message.number} is not counted from 1")
    if isinstance(message, Seen) and message.number < 0:
        raise MessageRefused(f"its move number {message.number} is not counted from 0")
    return message


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def start_digest(game: str, players: int, seed: int | None, options: Mapping[str, Any]) -> str:
    """The digest of a game before its first move: its kind, players, seed and options
    (a game of hidden pieces: without its seed, which a guest is not given)."""
    setup: dict[str, Any] = {"game": game, "players": players, "options": dict(options)}
    if seed is not None:
        setup["seed"] = seed
    return hashlib.sha256(_canonical(setup)).hexdigest()[:DIGEST_CHARS]


def value_digest(value: Any) -> str:
    """The digest of a JSON value (a board's view of a position)."""
    return hashlib.sha256(_canonical(value)).hexdigest()[:DIGEST_CHARS]


def next_digest(before: str, action: Mapping[str, Any]) -> str:
    """The digest after ``action`` is played from the state whose digest is ``before``."""
    return hashlib.sha256(before.encode() + _canonical(dict(action))).hexdigest()[:DIGEST_CHARS]


def digests(start: str, actions: Iterable[Mapping[str, Any]]) -> list[str]:
    """The digest before each action and after the last: ``len(actions) + 1`` of them."""
    out = [start]
    for action in actions:
        out.append(next_digest(out[-1], action))
    return out


def digest_of(action: Mapping[str, Any]) -> str:
    """The digest of one action alone."""
    return hashlib.sha256(_canonical(dict(action))).hexdigest()[:DIGEST_CHARS]


def same_action(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return _canonical(dict(a)) == _canonical(dict(b))


def rolled_faces(game: str, action: Mapping[str, Any]) -> list[int]:
    """The faces the station's dice rolled for ``action`` (none for other actions), in
    the order they were rolled: the fields of ``ROLLED`` in turn (Doubles Wild's
    ``dice_action`` fills red, then blue)."""
    if game not in DICE_GAMES:
        return []
    faces: list[int] = []
    for name in ROLLED:
        value = action.get(name)
        if isinstance(value, list | tuple):
            faces.extend(int(face) for face in value)
    return faces
