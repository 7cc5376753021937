"""The messages two boards exchange: checked whole at intake, refused with a reason."""

from __future__ import annotations

import json

import pytest

from firmware_bridge.remote import protocol
from firmware_bridge.spectate.errors import MessageRefused


def _table(**changes: object) -> dict[str, object]:
    table: dict[str, object] = {
        "type": "table",
        "protocol": protocol.PROTOCOL,
        "host": "bob",
        "game_key": "1@2026-01-01T00:00:00.000+00:00",
        "started": "2026-01-01T00:00:00.000+00:00",
        "game": "double-take",
        "players": 2,
        "seed": 1,
        "options": {},
        "seats": ["bob", "ann"],
        "moves": [],
        "digest": protocol.start_digest("double-take", 2, 1, {}),
    }
    table.update(changes)
    return table


def _move(**changes: object) -> dict[str, object]:
    move: dict[str, object] = {
        "type": "move",
        "game_key": "1@x",
        "number": 2,
        "before": "0" * 32,
        "seat": 1,
        "action": {"type": "step", "frm": "e7", "to": "e5", "captures": []},
        "board": "ann",
    }
    move.update(changes)
    return move


def test_every_message_comes_back_as_it_was_sent() -> None:
    messages: list[protocol.Message] = [
        protocol.decode(json.dumps(_table()).encode(), protocol.MAX_TABLE_BYTES),
        protocol.decode(json.dumps(_move()).encode()),
        protocol.Refused(game_key="k", number=3, reason="the rules refuse it"),
        protocol.Presence(board="ann", online=False),
    ]
    for message in messages:
        assert protocol.decode(protocol.encode(message), protocol.MAX_TABLE_BYTES) == message


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"{", "not JSON"),
        (b"[" * 40 + b"]" * 40, "nested 40 deep"),
        (json.dumps(_move(number=0)).encode(), "not counted from 1"),
        (json.dumps(_move(seat=99)).encode(), "seat 99 is not a seat"),
        (json.dumps(_move(board="a/b")).encode(), "no board can be called"),
        (json.dumps(_move(board="ann", extra=1)).encode(), "unknown field"),
        (json.dumps(_move(number="2")).encode(), "Expected `int`"),
        (json.dumps({"type": "shout"}).encode(), "not a message of two boards"),
        (json.dumps(_table(protocol=9)).encode(), "of protocol 9"),
        (json.dumps(_table(seats=["bob"])).encode(), "seats do not match"),
        (json.dumps(_move(action={"x": "y" * 2000})).encode(), "a text of 2,000 characters"),
        (b" " * (protocol.MAX_MOVE_BYTES + 1), "bytes long"),
    ],
)
def test_a_bad_message_is_refused_with_its_reason(payload: bytes, reason: str) -> None:
    with pytest.raises(MessageRefused, match=reason):
        protocol.decode(payload, protocol.MAX_MOVE_BYTES)


def test_the_digest_is_of_the_whole_game_before() -> None:
    start = protocol.start_digest("double-take", 2, 1, {})
    a = {"type": "step", "frm": "e3", "to": "e5", "captures": []}
    b = {"type": "step", "frm": "e7", "to": "e5", "captures": []}
    chain = protocol.digests(start, [a, b])
    assert len(chain) == 3 and len(set(chain)) == 3
    assert chain[2] == protocol.next_digest(protocol.next_digest(start, a), b)
    # The same moves in another order, another seed or another move: another digest.
    assert protocol.digests(start, [b, a])[2] != chain[2]
    assert protocol.start_digest("double-take", 2, 2, {}) != start
    assert protocol.next_digest(start, {**a, "to": "e4"}) != chain[1]
    # The order of an action's fields is not part of it.
    assert protocol.next_digest(start, dict(reversed(list(a.items())))) == chain[1]
