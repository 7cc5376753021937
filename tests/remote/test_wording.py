"""What the OLED says of the other board's seat: its move comes from that board (not
from "Computer"), and a move made here for that seat is refused in that board's
words, before it moved and after."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from firmware_bridge.apps.remote_play import refresher, wait_for_table
from firmware_bridge.kits import find_kit
from firmware_bridge.remote import protocol
from firmware_bridge.remote.guest import Guest
from firmware_bridge.remote.host import Host
from firmware_bridge.remote.link import Link
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import Line
from firmware_bridge.spectate.mqtt import BrokerSettings
from games.core import Action
from tests.remote.test_roles import Raw, pump
from tests.spectate.tools import Broker, mosquitto

START = protocol.start_digest("double-take", 2, 1, {})


@pytest.fixture
def broker() -> Iterator[Broker]:
    with mosquitto() as running:
        yield running


def _by_hand(sim: Simulation, action: Action) -> dict[str, str]:
    """The simulated hand makes ``action`` on the board; the board before it."""
    before = dict(sim.interpreter.world.contents)
    for step in sim.hand.steps(action):
        sim.interpreter.carry_out(Line("test", 1, step[0], tuple(step[1:])))
    return before


def _put_back(sim: Simulation, before: dict[str, str]) -> None:
    """The hand puts the board back as it stood (``before``), as the OLED asks."""
    world = sim.interpreter.world
    for cell in [c for c in world.contents if c not in before]:
        world.lift(cell)
        sim.interpreter.advance(sim.interpreter.pace)
    for cell, label in before.items():
        if cell not in world.contents:
            world.place(cell, label)
            sim.interpreter.advance(sim.interpreter.pace)
    sim.interpreter.advance(1.0)
    assert not sim.session.pending_fixes(), sim.session.state().oled


def _refusal(sim: Simulation) -> str:
    verdict = sim.session.last_verdict
    assert verdict is not None and not verdict.accepted
    return verdict.reason


def test_the_hosts_board_names_the_guests_board(broker: Broker) -> None:
    settings = BrokerSettings.from_url(broker.url)
    sim = Simulation(SimOptions(game="double-take", seed=1))
    root = protocol.root("bob")
    link = Link(settings, "bob", "bob", "host", [f"{root}/from/+", f"{root}/presence/+"])
    ann = Raw(broker, "ann", [protocol.to_topic("bob", "ann")])
    try:
        link.start()
        host = Host(sim.session, link, "bob", ["bob", "ann"], refresher(sim))
        sim.start()
        sim.play_computer_seats()  # bob's red moves; green is ann's
        session = sim.session
        game = session.game
        assert host.seats.waiting(game) and len(game.history) == 1
        # Nothing has come from ann's board: a move made here for green is refused,
        # saying it is made at ann's board, not that the computer plays it.
        legal = game.legal_actions()
        board = _by_hand(sim, legal[0])
        reason = _refusal(sim)
        assert reason == "green moves at ann's board: put the board back and wait for its move"
        assert "computer" not in reason.lower()
        assert len(game.history) == 1
        _put_back(sim, board)

        good = legal[1].to_dict()
        after = protocol.digests(START, host.history())[-1]
        move = protocol.Move(
            game_key=host.game_key, number=2, before=after, seat=1, action=good, board="ann"
        )
        ann.send(protocol.from_topic("bob", "ann"), move)
        pump(link, host, lambda: 2 in host.seats.arrived)
        instruction = session.ruling().instruction
        assert instruction and session.note() == f"ann's board: {instruction}"
        oled = " ".join(session.state().oled)
        assert "ann's board:" in oled and "Computer" not in oled
        # Another move than the one ann's board sent: refused in ann's board's words.
        board = _by_hand(sim, legal[0])
        assert _refusal(sim) == f"ann's board played {instruction}: put the board back"
        assert len(game.history) == 1
        _put_back(sim, board)
        sim.play_computer_seats()  # the hand makes ann's move, then bob's own
        assert protocol.same_action(game.history[1].to_dict(), good)
    finally:
        ann.close()
        link.stop()
        sim.close()


def test_the_guests_board_names_the_hosts_board(broker: Broker) -> None:
    settings = BrokerSettings.from_url(broker.url)
    bob = Raw(broker, "bob", [protocol.from_topic("bob", "ann")])
    first = find_kit("double-take").new_game(2, random.Random(1), {}).legal_actions()[0]
    m1: dict[str, Any] = dict(first.to_dict())
    table = protocol.Table(
        protocol=protocol.PROTOCOL,
        host="bob",
        game_key="7@2026-01-01T00:00:00.000+00:00",
        started="2026-01-01T00:00:00.000+00:00",
        game="double-take",
        players=2,
        seed=1,
        options={},
        seats=["bob", "ann"],
        moves=[m1],
        digest=protocol.digests(START, [m1])[-1],
    )
    bob.send(protocol.table_topic("bob"), table, retain=True)
    topics = [
        protocol.table_topic("bob"),
        protocol.moves_topic("bob"),
        protocol.to_topic("bob", "ann"),
        protocol.presence_topic("bob", "bob"),
    ]
    link = Link(settings, "ann", "bob", "guest", topics)
    sim: Simulation | None = None
    try:
        link.start()
        got, _early = wait_for_table(link, "bob", "ann")
        sim = Simulation(SimOptions(game="double-take", seed=1))
        guest = Guest(sim.session, link, "ann", got, refresher(sim))
        sim.start()
        guest.resync()  # bob's move 1 arrives here, to be made by hand
        session = sim.session
        instruction = session.ruling().instruction
        assert instruction and session.note() == f"bob's board: {instruction}"
        other = next(a for a in session.game.legal_actions() if a != first)
        board = _by_hand(sim, other)
        assert _refusal(sim) == f"bob's board played {instruction}: put the board back"
        assert not session.game.history
        _put_back(sim, board)
        sim.play_computer_seats()  # the hand makes bob's move, then ann's own
        assert protocol.same_action(session.game.history[0].to_dict(), m1)
        assert len(session.game.history) == 2
    finally:
        bob.close()
        link.stop()
        if sim is not None:
            sim.close()
