"""A person's move at a guest's board in a game of hidden pieces: judged at once,
held as the board shows it and sent to the host, which makes it first (what it draws
is known once the host has); made at the guest when the host publishes it back with
the view after it. A whole Dominoes game, the guest's seat played by a person's hand.

In this process, through the stand-in broker of :mod:`tests.remote.test_abandon`."""

from __future__ import annotations

import random
from pathlib import Path
from typing import cast

import pytest

from firmware_bridge.apps.remote_play import refresher
from firmware_bridge.remote import protocol
from firmware_bridge.remote.guest import Guest
from firmware_bridge.remote.host import Host
from firmware_bridge.remote.joining import seal_journal
from firmware_bridge.remote.link import Link
from firmware_bridge.remote.sealed import dealing_options
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import Line
from tests.remote.test_abandon import Broker, FakeLink, _guest_topics, _host_topics, settle
from tests.remote.test_refused_export import _record


def _person_moves(sim: Simulation, guest: Guest, rng: random.Random) -> bool:
    """Ann, at her board, makes her seat's move by hand if it is hers to make now;
    whether she did."""
    game = guest.game
    n = len(game.history) + 1
    seats = guest.seats
    if (
        game.outcome is not None
        or game.to_move != 1
        or guest.views is None
        or not guest.views.ready(game)
    ):
        return False
    if seats.held is not None or n in seats.arrived or n in guest.pending:
        return False
    action = sim.interpreter.kit.make_player(game, rng).choose(game)
    for step in sim.interpreter.hand.steps(action):
        sim.interpreter.carry_out(Line("person", n, step[0], tuple(step[1:])))
    return True


@pytest.mark.parametrize(("game", "seed"), [("dominoes", 3), ("doublecross", 1)])
def test_a_persons_move_at_the_guest_is_made_by_the_host_first(
    tmp_path: Path, game: str, seed: int
) -> None:
    broker = Broker()
    host_sim = Simulation(SimOptions(game=game, seed=seed, journal=tmp_path / "bob.sqlite"))
    host_link = FakeLink(broker, _host_topics())
    owners = ["bob", "ann"]
    host = Host(host_sim.session, cast(Link, host_link), "bob", owners, refresher(host_sim))
    host_sim.start()
    guest_link = FakeLink(broker, _guest_topics())
    host.publish_table()
    host.publish_views()
    table = broker.kept(protocol.table_topic("bob"))
    assert isinstance(table, protocol.Table) and table.seed is None
    early = []
    while not guest_link.inbox.empty():
        early.append(guest_link.inbox.get_nowait())
    deal = [m for _, p in early if isinstance(m := protocol.decode(p, 1 << 20), protocol.Seen)]
    options = dealing_options(game, deal[0], {1}, 2) or {}  # DoubleCross's, from the deal
    guest_sim = Simulation(
        SimOptions(game=game, seed=0, journal=tmp_path / "ann.sqlite", options=options)
    )
    try:
        guest = Guest(
            guest_sim.session,
            cast(Link, guest_link),
            "ann",
            table,
            refresher(guest_sim),
            people=frozenset({1}),
        )
        for topic, payload in early:
            guest.take(topic, payload)
        guest_sim.start()
        guest.resync()
        sides = ((host, host_link), (guest, guest_link))
        rng = random.Random(seed)
        held = 0
        for _ in range(5000):
            if host.over() and guest.done():
                break
            settle(*sides)
            host_sim.play_computer_seats()
            host.poll()
            settle(*sides)
            guest_sim.play_computer_seats()  # bob's moves, made by hand at ann's board
            guest.poll()
            before = len(guest.game.history)
            if _person_moves(guest_sim, guest, rng):
                # Judged and held as the board shows it, not yet played here.
                assert len(guest.game.history) == before
                assert guest.seats.held is not None and guest.seats.held[0] == before + 1
                assert not guest_sim.session.restoring  # nothing to put back
                held += 1
                guest.poll()  # sent to the host
                assert guest.seats.held is not None
                assert "Waiting for bob's board" in " ".join(guest_sim.session.state().oled)
        assert host.over() and guest.done(), guest_sim.session.state().oled
        assert "Waiting for" not in " ".join(guest_sim.session.state().oled)
        seal_journal(guest)  # the seed, from the host's table of the game over
    finally:
        host_sim.close()
        guest_sim.close()
    assert held > 10
    assert host.refused == [] and guest.refused == []
    bob, ann = _record(tmp_path / "bob.sqlite"), _record(tmp_path / "ann.sqlite")
    assert bob["outcome"] is not None and ann == bob
