"""Abandoning a game that waits for a board that is off line: the back menu offers it
only then; chosen, the game ends on this board (journaled as ended, abandoned here)
and the other board, told by a retained message, ends it too when it takes what the
broker kept for it, saying who abandoned it. An abandon of another game, or from a
board that holds no seat, is refused at intake with a reason.

In this process: the boards' messages carried by a stand-in for the broker that keeps
the retained ones and routes by MQTT's topic filters, and once through a real
Mosquitto.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator
from typing import Any, cast

import paho.mqtt.client as mqtt
import pytest

from firmware_bridge.apps.remote_play import refresher, wait_for_table
from firmware_bridge.remote import protocol
from firmware_bridge.remote.abandon import ABANDON, LABEL, WaitingMenu
from firmware_bridge.remote.guest import Guest
from firmware_bridge.remote.host import Host
from firmware_bridge.remote.link import Link
from firmware_bridge.remote.side import Side
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import Line
from firmware_bridge.spectate.errors import MessageRefused
from firmware_bridge.spectate.mqtt import BrokerSettings
from tests.remote.test_roles import Raw, pump
from tests.spectate.tools import mosquitto

START = protocol.start_digest("double-take", 2, 1, {})
KEY = "7@2026-01-01T00:00:00.000+00:00"


class Broker:
    """What the club's broker does for these tests: each message to every link
    subscribed to a filter matching its topic, and the last retained one of each topic
    to a link that subscribes later."""

    def __init__(self) -> None:
        self.links: list[FakeLink] = []
        self.retained: dict[str, bytes] = {}

    def publish(self, topic: str, data: bytes, retain: bool) -> None:
        if retain:
            self.retained[topic] = data
        for link in self.links:
            if any(mqtt.topic_matches_sub(sub, topic) for sub in link.topics):
                link.inbox.put((topic, data))

    def connect(self, link: FakeLink) -> None:
        self.links.append(link)
        for topic, data in self.retained.items():
            if any(mqtt.topic_matches_sub(sub, topic) for sub in link.topics):
                link.inbox.put((topic, data))

    def kept(self, topic: str) -> protocol.Message:
        return protocol.decode(self.retained[topic], protocol.MAX_TABLE_BYTES)


class FakeLink:
    """A board's link as :class:`Link` is to the sides: what it sends, what came."""

    def __init__(self, broker: Broker, topics: list[str]) -> None:
        self.broker = broker
        self.topics = topics
        self.inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self.sent: list[tuple[str, protocol.Message, bool]] = []
        broker.connect(self)

    def publish(self, topic: str, message: protocol.Message, retain: bool = False) -> None:
        self.sent.append((topic, message, retain))
        self.broker.publish(topic, protocol.encode(message), retain)


def drain(link: FakeLink, side: Side) -> None:
    while True:
        try:
            topic, payload = link.inbox.get_nowait()
        except queue.Empty:
            return
        side.take(topic, payload)


def _table(moves: list[dict[str, Any]]) -> protocol.Table:
    return protocol.Table(
        protocol=protocol.PROTOCOL,
        host="bob",
        game_key=KEY,
        started="2026-01-01T00:00:00.000+00:00",
        game="double-take",
        players=2,
        seed=1,
        options={},
        seats=["bob", "ann"],
        moves=moves,
        digest=protocol.digests(START, moves)[-1],
    )


def _host_topics() -> list[str]:
    root = protocol.root("bob")
    return [f"{root}/from/+", f"{root}/presence/+"]


def _guest_topics() -> list[str]:
    return [
        protocol.table_topic("bob"),
        protocol.moves_topic("bob"),
        protocol.to_topic("bob", "ann"),
        protocol.presence_topic("bob", "bob"),
    ]


def _back_menu(sim: Simulation) -> list[Any]:
    """Hold back: the values the menu that opens offers."""
    sim.run_line(Line("test", 1, "hold", ("back",)))
    menu = sim.session.facts.prompt.menu
    assert menu is not None
    return [value for _, value in menu.options]


def _oled(sim: Simulation) -> str:
    return " ".join(sim.session.state().oled)


def _journaled_end(sim: Simulation) -> dict[str, Any] | None:
    journal = sim.journal
    assert journal.unfinished() is None  # never taken up again
    record = journal.game(sim.session.game_id)
    assert record.finished is not None
    return record.outcome


@pytest.fixture
def host_sim() -> Iterator[Simulation]:
    sim = Simulation(SimOptions(game="double-take", seed=1))
    yield sim
    sim.close()


@pytest.fixture
def guest_sim() -> Iterator[Simulation]:
    sim = Simulation(SimOptions(game="double-take", seed=1))
    yield sim
    sim.close()


def _host(broker: Broker, sim: Simulation) -> tuple[Host, FakeLink]:
    link = FakeLink(broker, _host_topics())
    host = Host(sim.session, cast(Link, link), "bob", ["bob", "ann"], refresher(sim))
    sim.loop.switch(WaitingMenu(sim.session, host))
    sim.start()
    host.publish_table()
    return host, link


def _guest(broker: Broker, sim: Simulation) -> tuple[Guest, FakeLink]:
    link = FakeLink(broker, _guest_topics())
    got = broker.kept(protocol.table_topic("bob"))
    assert isinstance(got, protocol.Table)
    guest = Guest(sim.session, cast(Link, link), "ann", got, refresher(sim))
    sim.loop.switch(WaitingMenu(sim.session, guest))
    sim.start()
    guest.resync()
    guest.ask()  # the host's table now: the retained one may be older
    return guest, link


def settle(*pairs: tuple[Side, FakeLink]) -> None:
    """Each side takes what came for it, until nothing more comes."""
    while any(not link.inbox.empty() for _, link in pairs):
        for side, link in pairs:
            drain(link, side)


def test_the_host_abandons_and_the_guest_ends_when_it_comes_back(
    host_sim: Simulation, guest_sim: Simulation
) -> None:
    broker = Broker()
    host, host_link = _host(broker, host_sim)
    here = protocol.Presence(board="ann", online=True)
    broker.publish(protocol.presence_topic("bob", "ann"), protocol.encode(here), True)
    drain(host_link, host)
    host_sim.play_computer_seats()  # bob's red moves; green is ann's, whose board is on line
    assert host.seats.waiting(host.game) and host.waiting_for() is None
    values = _back_menu(host_sim)
    assert ABANDON not in values  # the other board is on line: nothing to abandon
    host_sim.choose(False)  # play on

    guest, guest_link = _guest(broker, guest_sim)  # ann's board joins, then is away
    settle((host, host_link), (guest, guest_link))
    assert 1 in guest.seats.arrived and not guest.over()  # bob's move, to be made here
    away = protocol.Presence(board="ann", online=False)
    broker.publish(protocol.presence_topic("bob", "ann"), protocol.encode(away), True)
    drain(host_link, host)
    assert host.waiting_for() == "ann"
    host_sim.advance(0.5)
    host.note_waiting(host.waiting_for())
    assert "Waiting for ann's board" in _oled(host_sim)

    menu = host_sim.session.facts.prompt
    values = _back_menu(host_sim)
    assert values[-1] is ABANDON
    assert menu.menu is not None and menu.menu.options[-1][0] == LABEL
    host_sim.choose(ABANDON)
    assert host.abandoned_by == "bob" and host.over()
    assert host_sim.session.game.outcome is None  # ended, not played to an end
    assert "bob abandoned the game" in _oled(host_sim)
    outcome = _journaled_end(host_sim)
    assert outcome == {
        "winners": [],
        "draw": False,
        "reason": "bob abandoned the game",
        "abandoned": "bob",
    }
    told = broker.kept(protocol.to_topic("bob", "ann"))
    assert told == protocol.Abandoned(game_key=host.game_key, board="bob")
    table = broker.kept(protocol.table_topic("bob"))
    assert isinstance(table, protocol.Table) and table.finished and table.abandoned == "bob"
    abandons = [retain for _, m, retain in host_link.sent if isinstance(m, protocol.Abandoned)]
    assert abandons == [True]

    # Ann's board takes what came while it was away: its game ends too, once.
    drain(guest_link, guest)
    assert guest.abandoned_by == "bob" and guest.done()
    assert "bob abandoned the game" in _oled(guest_sim)
    assert _journaled_end(guest_sim) == {**outcome}
    assert guest.refused == [] and guest.dropped >= 1  # the table said it again
    assert host.refused == []


def test_the_guest_abandons_and_the_host_ends(host_sim: Simulation, guest_sim: Simulation) -> None:
    broker = Broker()
    host, host_link = _host(broker, host_sim)
    host_sim.play_computer_seats()  # bob's red moves
    guest, guest_link = _guest(broker, guest_sim)
    settle((host, host_link), (guest, guest_link))
    guest_sim.play_computer_seats()  # bob's move made here, then ann's own
    assert len(guest.game.history) == 2
    gone = protocol.Presence(board="bob", online=False)
    broker.publish(protocol.presence_topic("bob", "bob"), protocol.encode(gone), True)
    drain(guest_link, guest)
    assert guest.waiting_for() == "bob"
    values = _back_menu(guest_sim)
    assert values[-1] is ABANDON
    guest_sim.choose(ABANDON)
    assert guest.abandoned_by == "ann" and guest.done()
    assert "ann abandoned the game" in _oled(guest_sim)
    assert _journaled_end(guest_sim) == protocol_outcome("ann")
    told = broker.kept(protocol.from_topic("bob", "ann"))
    assert told == protocol.Abandoned(game_key=host.game_key, board="ann")

    drain(host_link, host)  # ann's move 2, then the abandon
    assert host.abandoned_by == "ann"
    assert "ann abandoned the game" in _oled(host_sim)
    assert _journaled_end(host_sim) == protocol_outcome("ann")
    table = broker.kept(protocol.table_topic("bob"))
    assert isinstance(table, protocol.Table) and table.abandoned == "ann" and table.finished
    assert host.refused == [] and guest.refused == []


def protocol_outcome(board: str) -> dict[str, Any]:
    reason = f"{board} abandoned the game"
    return {"winners": [], "draw": False, "reason": reason, "abandoned": board}


def test_a_foreign_abandon_is_refused(host_sim: Simulation, guest_sim: Simulation) -> None:
    broker = Broker()
    host, host_link = _host(broker, host_sim)
    host_sim.play_computer_seats()
    key = host.game_key
    sends = [
        ("carol", protocol.Abandoned(game_key=key, board="carol")),
        ("ann", protocol.Abandoned(game_key=key, board="carol")),
        ("ann", protocol.Abandoned(game_key="1@2025-01-01T00:00:00.000+00:00", board="ann")),
    ]
    for sender, message in sends:
        broker.publish(protocol.from_topic("bob", sender), protocol.encode(message), True)
    broker.publish(protocol.from_topic("bob", "ann"), b'{"type":"abandoned","board":"a/b"}', True)
    drain(host_link, host)
    reasons = [r.partition(": ")[2] for r in host.refused]
    assert reasons[:3] == [
        "carol holds no seat of this game",
        "it names the board carol but came from ann",
        "it abandons another game",
    ]
    assert len(reasons) == 4 and "not a message of two boards' play" in reasons[3]
    assert not host.over() and _open(host_sim)

    guest, guest_link = _guest(broker, guest_sim)
    to_ann = protocol.to_topic("bob", "ann")
    for message in (
        protocol.Abandoned(game_key=key, board="ann"),  # not the host's own name
        protocol.Abandoned(game_key="other", board="bob"),
    ):
        broker.publish(to_ann, protocol.encode(message), False)
    drain(guest_link, guest)
    assert [r.partition(": ")[2] for r in guest.refused] == [
        "it names the board ann but came from bob",
        "it abandons another game",
    ]
    assert not guest.over() and _open(guest_sim)


def _open(sim: Simulation) -> bool:
    return sim.journal.unfinished() is not None


def test_an_abandoned_table_must_be_finished() -> None:
    table = protocol.Table(**{**_fields(_table([])), "abandoned": "bob"})
    with pytest.raises(MessageRefused, match="abandoned but not finished"):
        protocol.decode(protocol.encode(table), protocol.MAX_TABLE_BYTES)
    done = protocol.Table(**{**_fields(_table([])), "abandoned": "bob", "finished": True})
    assert protocol.decode(protocol.encode(done), protocol.MAX_TABLE_BYTES) == done
    bad = protocol.Table(**{**_fields(_table([])), "abandoned": "no one", "finished": True})
    with pytest.raises(MessageRefused, match="no board can be called"):
        protocol.decode(protocol.encode(bad), protocol.MAX_TABLE_BYTES)


def _fields(table: protocol.Table) -> dict[str, Any]:
    return {name: getattr(table, name) for name in table.__struct_fields__}


def test_through_mosquitto_a_guest_away_learns_of_the_abandon_when_back(
    host_sim: Simulation, guest_sim: Simulation
) -> None:
    """The host abandons while the guest's board is away (its link stopped); the guest
    comes back (the same client id, its session kept) and ends its game: the retained
    abandon and table reach it through a real broker."""
    with mosquitto() as running:
        settings = BrokerSettings.from_url(running.url)
        host_link = Link(settings, "bob", "bob", "host", _host_topics())
        guest_link = Link(settings, "ann", "bob", "guest", _guest_topics())
        again: Link | None = None
        try:
            host_link.start()
            host = Host(host_sim.session, host_link, "bob", ["bob", "ann"], refresher(host_sim))
            host_sim.loop.switch(WaitingMenu(host_sim.session, host))
            host_sim.start()
            host.publish_table()
            host_sim.play_computer_seats()  # bob's red moves; green is ann's
            guest_link.start()
            table, _early = wait_for_table(guest_link, "bob", "ann")
            guest = Guest(guest_sim.session, guest_link, "ann", table, refresher(guest_sim))
            guest_sim.start()
            guest.resync()
            pump(host_link, host, lambda: host.online.get("ann", False))
            guest_link.stop()  # ann's board is away
            pump(host_link, host, lambda: host.waiting_for() == "ann")
            assert _back_menu(host_sim)[-1] is ABANDON
            host_sim.choose(ABANDON)
            assert host.abandoned_by == "bob"
            assert host_link.flush()
            # Retained: a client new to the broker (no session of its own) has both.
            fresh = Raw(
                running, "fresh", [protocol.to_topic("bob", "ann"), protocol.table_topic("bob")]
            )
            try:
                told = fresh.next(protocol.to_topic("bob", "ann"), protocol.Abandoned)
                assert told == protocol.Abandoned(game_key=host.game_key, board="bob")
                kept = fresh.next(protocol.table_topic("bob"), protocol.Table)
                assert kept.abandoned == "bob" and kept.finished
            finally:
                fresh.close()

            again = Link(settings, "ann", "bob", "guest", _guest_topics())
            again.start()
            guest.link = again
            pump(again, guest, guest.done)
            assert guest.abandoned_by == "bob" and "bob abandoned the game" in _oled(guest_sim)
            assert _journaled_end(guest_sim) == protocol_outcome("bob")
            assert guest.refused == [] and host.refused == []
        finally:
            if again is not None:
                again.stop()
            host_link.stop()
