"""A host of a game of hidden pieces, without a broker: every message it sends is
inspected. The guest's board is sent its own hand and the others' counts, never the
seed; a guest's move played from another view than the host's is refused; and a
guest's game dealt from its views agrees with the host's digest for digest."""

from __future__ import annotations

import queue
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.apps.remote_play import refresher
from firmware_bridge.remote import protocol
from firmware_bridge.remote.host import Host
from firmware_bridge.remote.privacy import seat_view, view_digest
from firmware_bridge.remote.sealed import Views, ViewsDisagree
from firmware_bridge.sim.runner import SimOptions, Simulation
from games.dominoes.game import Dominoes


class Wire:
    """Stands in for the board's link: keeps every message it is given to send."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes]] = []
        self.inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self.connects = 1

    def publish(self, topic: str, message: protocol.Message, retain: bool = False) -> None:
        self.sent.append((topic, protocol.encode(message)))


@pytest.fixture
def hosted(tmp_path: Path) -> Iterator[tuple[Simulation, Host, Wire]]:
    sim = Simulation(
        SimOptions(game="dominoes", players=2, seed=3, journal=tmp_path / "bob.sqlite")
    )
    wire = Wire()
    host = Host(sim.session, wire, "bob", ["bob", "ann"], refresher(sim))  # type: ignore[arg-type]
    sim.start()
    sim.set_up()
    try:
        yield sim, host, wire
    finally:
        sim.close()


def _check_sent(wire: Wire, game: Dominoes) -> list[protocol.Seen]:
    """Every message sent: none names bob's hand or the seed; the views are ann's."""
    bob = [str(d) for d in game.hand(0)]
    views = []
    for topic, payload in wire.sent:
        message = protocol.decode(payload, protocol.MAX_TABLE_BYTES)
        if isinstance(message, protocol.Table):
            assert message.seed is None and not message.finished
        elif isinstance(message, protocol.Seen):
            assert topic == protocol.to_topic("bob", "ann")
            hands = message.view["hands"]
            assert isinstance(hands[0], int) and isinstance(hands[1], list)
            assert ("layout" in message.view) == (message.number == 0)  # the deal's alone
            views.append(message)
        else:
            assert isinstance(message, protocol.Move), message
            assert topic == protocol.moves_topic("bob")
    # bob's hand now is named nowhere but in the moves that laid its dominoes.
    views_text = b"".join(p for t, p in wire.sent if t.endswith("/to/ann")).decode()
    assert all(f'"{d}"' not in views_text for d in bob if d not in _annish(game))
    return views


def _annish(game: Dominoes) -> set[str]:
    return {str(d) for d in game.hand(1)} | {
        str(p.kind) for p in game.layout().values()
    }  # a domino of ann's, or one also in her hand (two sets)


def _play_guest_moves(sim: Simulation, host: Host, wire: Wire, moves: int) -> None:
    """ann's moves, as her board would send them, until ``moves`` are played."""
    game = sim.session.game
    while len(game.history) < moves and game.outcome is None:
        sim.play_computer_seats()
        if game.to_move != 1 or len(game.history) >= moves:
            continue
        n = len(game.history) + 1
        action = game.legal_actions()[0]
        move = protocol.Move(
            game_key=host.game_key,
            number=n,
            before=host.digests()[-1],
            seat=1,
            action=action.to_dict(),
            board="ann",
            seen=view_digest(game, {1}),
        )
        host.take(protocol.from_topic("bob", "ann"), protocol.encode(move))
        sim.play_computer_seats()
        assert len(game.history) >= n, host.refused


def test_the_guest_is_sent_its_own_hand_and_only_counts_of_the_others(
    hosted: tuple[Simulation, Host, Wire],
) -> None:
    sim, host, wire = hosted
    host.publish_table()
    host.publish_views()
    _play_guest_moves(sim, host, wire, 12)
    game: Any = sim.session.game
    views = _check_sent(wire, game)
    assert [v.number for v in views] == list(range(len(game.history) + 1))
    assert len(game.history) >= 12
    assert views[-1].digest == view_digest(game, {1})
    assert views[-1].view["hands"][1] == [str(d) for d in game.hand(1)]
    assert host.refused == []
    sizes = [len(p) for t, p in wire.sent if t.endswith("/to/ann")]
    assert max(sizes) < 400  # the layout is left out: the moves give it


def test_a_guest_move_from_another_view_is_refused(hosted: tuple[Simulation, Host, Wire]) -> None:
    sim, host, wire = hosted
    game = sim.session.game
    sim.play_computer_seats()
    if game.to_move != 1:
        pytest.skip("the seed gives bob a move the computer did not make")
    move = protocol.Move(
        game_key=host.game_key,
        number=len(game.history) + 1,
        before=host.digests()[-1],
        seat=1,
        action={"type": "draw"},
        board="ann",
        seen="0" * protocol.DIGEST_CHARS,
    )
    host.take(protocol.from_topic("bob", "ann"), protocol.encode(move))
    assert "another view of the position" in host.refused[-1]
    refused = protocol.decode(wire.sent[-1][1])
    assert isinstance(refused, protocol.Refused) and wire.sent[-1][0].endswith("/to/ann")


def test_a_guest_dealt_from_its_views_agrees_and_a_wrong_view_stops_it(
    hosted: tuple[Simulation, Host, Wire],
) -> None:
    sim, host, wire = hosted
    host.publish_views()
    _play_guest_moves(sim, host, wire, 8)
    real: Any = sim.session.game
    seen = [protocol.decode(p) for t, p in wire.sent if t.endswith("/to/ann")]
    views = Views("dominoes", {1})
    for message in seen:
        assert isinstance(message, protocol.Seen)
        views.take(message)
    guest = Dominoes(2, random.Random(0))
    assert views.deal(guest)
    for n, action in enumerate(real.history, start=1):
        assert views.can_make(guest, n)
        views.prepare(guest, n, action)
        guest.apply(action)
        views.played(guest, n)
    assert seat_view(guest, {1}) == seat_view(real, {1})
    assert guest.hand(0) != real.hand(0) or guest.boneyard_count == real.boneyard_count
    # A view that is not this board's game stops it, naming what differs.
    wrong = Views("dominoes", {1})
    first = seen[0]
    assert isinstance(first, protocol.Seen)
    wrong.take(protocol.Seen(first.game_key, 0, first.view, "f" * protocol.DIGEST_CHARS))
    with pytest.raises(ViewsDisagree, match="not the host's"):
        wrong.deal(Dominoes(2, random.Random(0)))
