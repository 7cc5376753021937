"""Host and guest through a real Mosquitto, in this process: the host's referee judges
every guest move (seat, number, digest, rules), a duplicate is dropped, and a guest
that misses a move or gets one from another position takes the host's journaled
moves, never guessing."""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.apps.remote_play import refresher, wait_for_table
from firmware_bridge.kits import find_kit
from firmware_bridge.remote import protocol
from firmware_bridge.remote.guest import Guest
from firmware_bridge.remote.host import Host
from firmware_bridge.remote.link import Link
from firmware_bridge.remote.side import RemoteError, Side
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import Line
from firmware_bridge.spectate.mqtt import BrokerSettings
from games.core import Game
from tests.spectate.tools import Broker, mosquitto

START = protocol.start_digest("double-take", 2, 1, {})


class Raw:
    """A plain MQTT client standing in for the other board."""

    def __init__(self, broker: Broker, name: str, topics: list[str]) -> None:
        self.got: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"raw-{name}")
        self.client.on_message = lambda c, u, m: self.got.put((m.topic, m.payload))
        self.client.connect("127.0.0.1", broker.port)
        for topic in topics:
            self.client.subscribe(topic, qos=1)
        self.client.loop_start()

    def send(self, topic: str, message: protocol.Message | bytes, retain: bool = False) -> None:
        data = message if isinstance(message, bytes) else protocol.encode(message)
        self.client.publish(topic, data, qos=1, retain=retain).wait_for_publish(5)

    def next(self, topic: str, kind: type = object, timeout: float = 10.0) -> Any:
        """The next message of type ``kind`` on ``topic`` (others are passed over)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                got, payload = self.got.get(timeout=0.1)
            except queue.Empty:
                continue
            if got == topic:
                message = protocol.decode(payload, protocol.MAX_TABLE_BYTES)
                if isinstance(message, kind):
                    return message
        raise AssertionError(f"no {kind.__name__} on {topic} within {timeout} s")

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def pump(link: Link, side: Side, until: Callable[[], bool], timeout: float = 10.0) -> None:
    """Hand the side what arrives until ``until`` holds."""
    end = time.monotonic() + timeout
    while not until():
        if time.monotonic() > end:
            raise AssertionError("the condition did not come about in time")
        try:
            topic, payload = link.inbox.get(timeout=0.1)
        except queue.Empty:
            continue
        side.take(topic, payload)


def settled(bob: Raw, link: Link, guest: Guest, duplicate: protocol.Move) -> None:
    """Everything sent on the moves topic so far has been taken: a duplicate sent after
    it (QoS 1 keeps one sender's order on a topic) is dropped."""
    dropped = guest.dropped
    bob.send(protocol.moves_topic("bob"), duplicate)
    pump(link, guest, lambda: guest.dropped > dropped)


def _game(moves: list[dict[str, Any]]) -> Game:
    game = find_kit("double-take").new_game(2, random.Random(1), {})
    for move in moves:
        game.apply(game.decode(move))
    return game


def _legal(moves: list[dict[str, Any]], which: int = 0) -> dict[str, Any]:
    return dict(_game(moves).legal_actions()[which].to_dict())


@pytest.fixture
def broker() -> Iterator[Broker]:
    with mosquitto() as running:
        yield running


def test_the_host_judges_every_guest_move(broker: Broker) -> None:
    settings = BrokerSettings.from_url(broker.url)
    sim = Simulation(SimOptions(game="double-take", seed=1))
    root = protocol.root("bob")
    link = Link(settings, "bob", "bob", "host", [f"{root}/from/+", f"{root}/presence/+"])
    ann = Raw(broker, "ann", [protocol.to_topic("bob", "ann"), protocol.moves_topic("bob")])
    try:
        link.start()
        host = Host(sim.session, link, "bob", ["bob", "ann"], refresher(sim))
        sim.start()
        host.publish_table()
        sim.play_computer_seats()  # bob's red makes its first move; green is ann's
        game = sim.session.game
        first = game.history[0].to_dict()
        assert len(game.history) == 1 and host.seats.waiting(game)
        published = ann.next(protocol.moves_topic("bob"), protocol.Move)
        assert isinstance(published, protocol.Move)
        assert (published.number, published.before, published.board) == (1, START, "bob")
        after = protocol.next_digest(START, first)
        good = _legal([first])

        def move(**changes: Any) -> protocol.Move:
            fields: dict[str, Any] = {
                "game_key": host.game_key,
                "number": 2,
                "before": after,
                "seat": 1,
                "action": good,
                "board": "ann",
            }
            fields.update(changes)
            return protocol.Move(**fields)

        refusals = {
            "does not hold seat 1": move(seat=0, action=_legal([])),
            "another position": move(before=START),
            "leaves a gap": move(number=3),
            "another game": move(game_key="2@later"),
            "names the board eve": move(board="eve"),
            "the rules refuse it": move(action={**good, "to": "a1"}),
        }
        for count, (reason, bad) in enumerate(refusals.items(), 1):
            ann.send(protocol.from_topic("bob", "ann"), bad)
            pump(link, host, partial(_refused_count, host, count))
            refused = ann.next(protocol.to_topic("bob", "ann"), protocol.Refused)
            assert isinstance(refused, protocol.Refused)
            assert reason in refused.reason
        ann.send(protocol.from_topic("bob", "ann"), b'{"type": "move"')
        pump(link, host, lambda: len(host.refused) == len(refusals) + 1)
        assert "not JSON" in host.refused[-1]
        assert len(game.history) == 1  # nothing refused was played

        ann.send(protocol.from_topic("bob", "ann"), move())
        pump(link, host, lambda: 2 in host.seats.arrived)
        assert sim.session.state().oled  # the arrived move is shown as a computer's is
        assert sim.session.ruling().expected is not None
        sim.play_computer_seats()  # the hand makes ann's move, then bob's next
        assert protocol.same_action(sim.session.game.history[1].to_dict(), good)
        echoed = ann.next(protocol.moves_topic("bob"), protocol.Move)
        assert isinstance(echoed, protocol.Move) and echoed.number == 2
        assert echoed.board == "ann" and echoed.before == after
        # The same move again (a QoS 1 resend): dropped, not played twice.
        ann.send(protocol.from_topic("bob", "ann"), move())
        pump(link, host, lambda: host.dropped == 1)
        assert protocol.same_action(sim.session.game.history[1].to_dict(), good)
        assert host.table().digest == protocol.digests(START, host.history())[-1]

        # Ann's seat to move again, nothing arrived: a move made at this board for it
        # is refused, as one made for a computer seat is, and nothing is sent.
        session = sim.session
        moves = len(session.game.history)
        # (ann here is a plain client that never said it is on line: the game waits for it)
        assert host.seats.waiting(session.game) and host.waiting_for() == "ann"
        by_hand = session.game.legal_actions()[0]
        for step in sim.hand.steps(by_hand):
            sim.interpreter.carry_out(Line("test", 1, step[0], tuple(step[1:])))
        assert len(session.game.history) == moves
        assert session.last_verdict is not None and not session.last_verdict.accepted
        assert session.pending_fixes()  # the board is to be put back
    finally:
        ann.close()
        link.stop()
        sim.close()


def test_a_guest_takes_the_hosts_journaled_moves_after_a_gap(broker: Broker) -> None:
    settings = BrokerSettings.from_url(broker.url)
    bob = Raw(broker, "bob", [protocol.from_topic("bob", "ann")])
    m1 = _legal([])
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
        assert got == table
        sim = Simulation(SimOptions(game="double-take", seed=1))
        guest = Guest(sim.session, link, "ann", got, refresher(sim))
        sim.start()
        guest.resync()
        guest.ask()  # as a guest does when it starts: the table kept may be old
        sim.play_computer_seats()  # bob's move 1 made here, then ann's own move 2
        history = guest.history()
        assert len(history) == 2 and protocol.same_action(history[0], m1)
        asked = bob.next(protocol.from_topic("bob", "ann"), protocol.Sync)
        assert asked == protocol.Sync(game_key=table.game_key, have=0)
        sent = bob.next(protocol.from_topic("bob", "ann"), protocol.Move)
        assert isinstance(sent, protocol.Move)
        assert (sent.number, sent.seat, sent.board) == (2, 1, "ann")
        assert sent.before == protocol.digests(START, [m1])[-1]
        assert not guest.done() and guest.confirmed() == 1

        # The host's echo of move 2 is a duplicate here: dropped.
        bob.send(protocol.moves_topic("bob"), sent)
        pump(link, guest, lambda: guest.dropped >= 1)
        m3 = _legal(history)
        chain = protocol.digests(START, [*history, m3])
        # Move 3 from another position: the guest does not play it, it resynchronises
        # from the table, which does not have it yet.
        wrong = protocol.Move(
            game_key=table.game_key, number=3, before=START, seat=0, action=m3, board="bob"
        )
        bob.send(protocol.moves_topic("bob"), wrong)
        settled(bob, link, guest, sent)
        assert 3 not in guest.seats.arrived
        asked = bob.next(protocol.from_topic("bob", "ann"), protocol.Sync)
        assert asked.have == 2
        # Move 4 before move 3 (a gap): kept aside, and the table is read again.
        m4 = _legal([*history, m3])
        ahead = protocol.Move(
            game_key=table.game_key, number=4, before=chain[3], seat=1, action=m4, board="ann"
        )
        bob.send(protocol.moves_topic("bob"), ahead)
        settled(bob, link, guest, sent)
        assert 3 not in guest.seats.arrived and len(guest.history()) == 2
        # The host's table with move 3: the guest takes it from there.
        newer = protocol.Table(
            **{
                **{f: getattr(table, f) for f in table.__struct_fields__},
                "moves": [*history, m3],
                "digest": chain[3],
            }
        )
        bob.send(protocol.table_topic("bob"), newer, retain=True)
        pump(link, guest, lambda: 3 in guest.seats.arrived)
        assert guest.confirmed() == 2
        sim.play_computer_seats()
        assert protocol.same_action(guest.history()[2], m3)

        # A table whose game differs from this board's: the guest stops, saying where.
        other = _legal([], 1)
        diverged = protocol.Table(
            **{
                **{f: getattr(table, f) for f in table.__struct_fields__},
                "moves": [other, *guest.history()[1:]],
            }
        )
        bob.send(protocol.table_topic("bob"), diverged, retain=True)
        with pytest.raises(RemoteError, match="differs from bob's at move 1"):
            pump(link, guest, lambda: False)
    finally:
        bob.close()
        link.stop()
        if sim is not None:
            sim.close()


def test_a_guests_dice_are_the_hosts(broker: Broker, tmp_path: Path) -> None:
    settings = BrokerSettings.from_url(broker.url)
    journal, dice_file = tmp_path / "bob.sqlite", tmp_path / "bob.sqlite.guest-dice"
    sim = Simulation(SimOptions(game="doubles-wild", seed=1, journal=journal))
    root = protocol.root("bob")
    topics = [f"{root}/from/+", f"{root}/presence/+"]
    link = Link(settings, "bob", "bob", "host", topics)
    ann = Raw(broker, "ann", [protocol.to_topic("bob", "ann")])
    try:
        link.start()
        host = Host(sim.session, link, "bob", ["bob", "ann"], refresher(sim), dice_file)
        sim.start()
        sim.play_computer_seats()  # bob's blue rolls (the host's own dice) and places
        game = sim.session.game
        assert game.to_move == 1 and host.seats.waiting(game)
        n = len(game.history) + 1
        chain = protocol.digests(host.start_digest(), host.history())

        def roll(faces: list[int]) -> protocol.Move:
            action = {"type": "roll", "red": faces[:2], "blue": faces[2:]}
            return protocol.Move(
                game_key=host.game_key, number=n, before=chain[-1], seat=1, action=action,
                board="ann",
            )  # fmt: skip

        # Dice the guest made up are refused: a guest's roll is the host's.
        ann.send(protocol.from_topic("bob", "ann"), roll([6, 6, 6, 6]))
        pump(link, host, lambda: len(host.refused) == 1)
        assert "not the ones the host rolled" in host.refused[0]
        assert "not the ones" in ann.next(protocol.to_topic("bob", "ann"), protocol.Refused).reason
        ask = protocol.RollAsk(game_key=host.game_key, number=n, count=4)
        ann.send(protocol.from_topic("bob", "ann"), ask)
        pump(link, host, lambda: n in host.issued)
        rolled = ann.next(protocol.to_topic("bob", "ann"), protocol.Rolled)
        assert rolled.number == n and rolled.faces == host.issued[n] and len(rolled.faces) == 4
        # Asked again (a resend): the same dice, not new ones.
        ann.send(protocol.from_topic("bob", "ann"), ask)
        pump(link, host, lambda: not ann.got.empty())  # the host answered
        again = ann.next(protocol.to_topic("bob", "ann"), protocol.Rolled)
        assert again.faces == rolled.faces

        # The host loses its power before ann's roll reaches it; when it is back, the
        # dice it rolled for ann are still the ones it takes.
        link.stop()
        sim.close()
        sim = Simulation(SimOptions(game="doubles-wild", seed=1, journal=journal))
        link = Link(settings, "bob", "bob", "host", topics)
        link.start()
        host = Host(sim.session, link, "bob", ["bob", "ann"], refresher(sim), dice_file)
        assert sim.resumed and host.issued == {n: rolled.faces}
        sim.start()
        sim.set_up()
        ann.send(protocol.from_topic("bob", "ann"), roll(rolled.faces))
        pump(link, host, lambda: n in host.seats.arrived)
        sim.play_computer_seats()  # the host's station rolls the dice the host gave ann
        made = sim.session.game.history[n - 1].to_dict()
        assert [*made["red"], *made["blue"]] == rolled.faces
    finally:
        ann.close()
        link.stop()
        sim.close()


def test_a_guest_takes_back_a_move_the_host_refused(broker: Broker, tmp_path: Path) -> None:
    settings = BrokerSettings.from_url(broker.url)
    bob = Raw(broker, "bob", [protocol.from_topic("bob", "ann")])
    m1 = _legal([])
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
    journal = tmp_path / "ann.sqlite"
    sim: Simulation | None = None
    try:
        link.start()
        got, _early = wait_for_table(link, "bob", "ann")
        sim = Simulation(SimOptions(game="double-take", seed=1, journal=journal))
        guest = Guest(sim.session, link, "ann", got, refresher(sim))
        sim.start()
        guest.resync()
        sim.play_computer_seats()  # bob's move 1 made here, then ann's own move 2
        assert len(guest.history()) == 2
        sent = bob.next(protocol.from_topic("bob", "ann"), protocol.Move)
        assert sent.number == 2
        board_after = dict(sim.interpreter.world.contents)

        # Bob's referee does not take it: ann's board takes it back, as a take-back
        # does (journaled), and its set-up screen says why; the game goes on.
        reason = "the rules refuse it: a test says so"
        refused = protocol.Refused(game_key=table.game_key, number=2, reason=reason)
        bob.send(protocol.to_topic("bob", "ann"), refused)
        pump(link, guest, lambda: len(guest.history()) == 1)
        session = sim.session
        assert session.restoring and session.pending_fixes()  # the piece goes back
        oled = session.state().oled
        assert oled[0] == "Refused by bob" and oled[1] == reason[: len(oled[1])], oled
        assert session.restore_reason == reason
        kinds = [entry.kind for entry in session.journal.entries(session.game_id)]
        assert kinds.count("takeback") == 1 and kinds.count("action") == 2
        assert not guest.done() and guest.confirmed() == 1
        # A refusal of a move this board no longer has is dropped.
        dropped = guest.dropped
        stale = protocol.Refused(game_key=table.game_key, number=3, reason="late")
        bob.send(protocol.to_topic("bob", "ann"), stale)
        pump(link, guest, lambda: guest.dropped > dropped)
        assert len(guest.history()) == 1

        # The board is set up again and ann's seat moves again; the move is sent again,
        # numbered 2. Refused again at the same position, the boards disagree: it stops.
        sim.play_computer_seats()
        assert dict(sim.interpreter.world.contents) == board_after
        again = bob.next(protocol.from_topic("bob", "ann"), protocol.Move)
        assert again.number == 2 and protocol.same_action(again.action, sent.action)
        bob.send(protocol.to_topic("bob", "ann"), refused)
        with pytest.raises(RemoteError, match=r"refused move 2: .*\(again; the boards disagree\)"):
            pump(link, guest, lambda: False)
    finally:
        bob.close()
        link.stop()
        if sim is not None:
            sim.close()


def _refused_count(host: Any, count: int) -> bool:
    return len(host.refused) == count
