"""A board playing with other boards thinks as a table of one board does: its computer
seats choose on the worker (:mod:`firmware_bridge.runtime.thinking`), so a press or a
piece lifted while one thinks is handled at once; the OLED says it thinks after
300 ms; its move shows, is made and goes to the other board once it is back; a move
thought for a position no longer on the table is dropped; a hint is thought there too.

The boards' messages are carried in this process by the stand-in broker of
``test_abandon``; the computer's thinking is held by the test, on the simulated clock.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import cast

import pytest

from firmware_bridge.apps.remote_play import refresher
from firmware_bridge.kits import KITS
from firmware_bridge.remote import protocol
from firmware_bridge.remote.abandon import WaitingMenu
from firmware_bridge.remote.guest import Guest
from firmware_bridge.remote.host import Host
from firmware_bridge.remote.link import Link
from firmware_bridge.runtime.thinking import THINKING_AFTER_S, Thought, thinker
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import Line
from games.core import Game, Player, Resign
from games.double_take.game import Step
from tests.firmware_bridge.test_thinking import WAIT_S, Slow, SlowPlayer, shown
from tests.remote.test_abandon import Broker, FakeLink, _guest_topics, _host_topics, settle


def _slowed(computer: object, slow: Slow) -> None:
    """Hold the thinking of ``computer``'s seats until the test lets it answer."""
    make = KITS["double-take"].make_player

    def make_slow(game: Game, rng: random.Random, *level: int) -> Player:
        return SlowPlayer(make(game, rng, *level), slow.started, slow.release)

    computer.make_player = make_slow  # type: ignore[attr-defined]


@pytest.fixture
def thinking_host() -> Iterator[tuple[Simulation, Host, FakeLink, Slow]]:
    """Bob's board hosts Double Take: red is its computer's, green ann's board's. Red's
    first move is being thought, held by the test."""
    sim = Simulation(SimOptions(game="double-take", seed=1))
    slow = Slow()
    try:
        link = FakeLink(Broker(), _host_topics())
        host = Host(sim.session, cast(Link, link), "bob", ["bob", "ann"], refresher(sim))
        _slowed(host.seats, slow)
        sim.start()
        host.publish_table()
        assert slow.started.wait(WAIT_S), "the computer was never asked for red's move"
        yield sim, host, link, slow
    finally:
        slow.release.set()
        thinker().wait(WAIT_S)
        sim.close()


def _moves_sent(link: FakeLink) -> list[protocol.Move]:
    return [m for _, m, _ in link.sent if isinstance(m, protocol.Move)]


def test_a_press_and_a_piece_are_handled_while_the_hosts_computer_thinks(
    thinking_host: tuple[Simulation, Host, FakeLink, Slow],
) -> None:
    sim, host, link, slow = thinking_host
    asked = host.seats.thinking(sim.session.game)
    assert asked is not None and asked.seat == 0
    sim.advance(THINKING_AFTER_S)  # past 300 ms of thinking (sim.start() took some)
    assert "Thinking... Red (standard)" in shown(sim)  # the font's "…"
    # A press: the back menu opens at once, the computer still thinking.
    sim.run_line(Line("person", 1, "hold", ("back",)))
    assert "take back?" in shown(sim)
    sim.run_line(Line("person", 2, "press", ("ok",)))  # "no, play on"
    assert "take back?" not in shown(sim)
    # A piece lifted and put back: read and shown at once.
    game = sim.session.game
    cell = next(a.frm for a in game.legal_actions() if isinstance(a, Step))
    sim.run_line(Line("person", 3, "lift", (cell,), deliberate=True))
    assert "Put the piece down." in shown(sim)
    sim.run_line(Line("person", 4, "place", (cell, "red"), deliberate=True))
    assert "Put the piece down." not in shown(sim)
    assert not slow.release.is_set() and sim.session.game.history == []
    assert _moves_sent(link) == []
    # Let the computer answer: its move shows, is made, and goes to ann's board.
    slow.release.set()
    assert thinker().wait(WAIT_S)
    sim.advance(sim.step_s)
    expected = sim.session.expected()
    assert isinstance(expected, Step)
    assert f"Computer: {sim.session.view.instruct(expected)}" in shown(sim)
    assert "Thinking" not in shown(sim)
    sim.play_computer_seats()
    assert sim.session.game.history == [expected]
    sent = _moves_sent(link)
    assert [(m.number, m.seat, m.action) for m in sent] == [(1, 0, expected.to_dict())]
    assert host.seats.waiting(sim.session.game)  # green's move is ann's board's


def test_a_move_made_for_the_hosts_computer_while_it_thinks_is_refused(
    thinking_host: tuple[Simulation, Host, FakeLink, Slow],
) -> None:
    sim, host, link, slow = thinking_host
    game = sim.session.game
    step = next(a for a in game.legal_actions() if isinstance(a, Step) and not a.captures)
    sim.run_line(Line("person", 1, "lift", (step.frm,), deliberate=True))
    sim.run_line(Line("person", 2, "place", (step.to, "red"), deliberate=True))
    state = sim.session.state()
    assert state.verdict is not None
    assert state.verdict["reason"] == "the computer is thinking: put the board back"
    assert game.history == [] and _moves_sent(link) == [] and not slow.release.is_set()
    assert host.seats.thinking(game) is not None  # still thinking red's move


def test_a_move_thought_for_a_position_no_longer_on_the_table_is_dropped(
    thinking_host: tuple[Simulation, Host, FakeLink, Slow],
) -> None:
    sim, host, link, slow = thinking_host
    learnt: list[bool] = []
    learn = host.seats.learn

    def counted(thought: Thought, game: Game) -> bool:
        learnt.append(learn(thought, game))
        return learnt[-1]

    host.seats.learn = counted  # type: ignore[method-assign]
    sim.run_line(Line("person", 1, "hold", ("back",)))
    sim.choose(True)  # "Red resigns", while the computer thinks red's move
    game = sim.session.game
    assert [type(a) for a in game.history] == [Resign] and game.outcome is not None
    slow.release.set()
    assert thinker().wait(WAIT_S)
    sim.advance(0.2)
    assert learnt == [False], "the move thought before red resigned is dropped"
    assert [type(a) for a in sim.session.game.history] == [Resign]
    assert "Computer:" not in shown(sim)
    assert [m.number for m in _moves_sent(link)] == [1]  # the resignation, alone


def test_a_hint_at_the_host_is_thought_on_the_worker(
    thinking_host: tuple[Simulation, Host, FakeLink, Slow],
) -> None:
    sim, host, _, slow = thinking_host
    sim.run_line(Line("person", 1, "hold", ("ok",)))  # a hint, while red's move is thought
    assert "Hint: thinking... " in shown(sim) + " "
    assert sim.session.facts.prompt.hint_action is None and not slow.release.is_set()
    assert host.seats.hint_thinking(sim.session.game) is not None  # asked of the worker
    slow.release.set()
    assert thinker().wait(WAIT_S)
    sim.computer.await_thought()
    hinted = sim.session.facts.prompt.hint_action
    assert isinstance(hinted, Step)
    assert f"Hint: {sim.session.view.instruct(hinted)}" in shown(sim)


def test_the_guests_computer_thinks_on_the_worker_too() -> None:
    """Ann's board holds green; bob's red moves first, then green is thought at ann's
    board while a press there is handled at once."""
    broker = Broker()
    host_sim = Simulation(SimOptions(game="double-take", seed=1))
    guest_sim = Simulation(SimOptions(game="double-take", seed=1))
    slow = Slow()
    try:
        host_link = FakeLink(broker, _host_topics())
        host = Host(
            host_sim.session, cast(Link, host_link), "bob", ["bob", "ann"], refresher(host_sim)
        )
        host_sim.loop.switch(WaitingMenu(host_sim.session, host))
        host_sim.start()
        host.publish_table()
        host_sim.play_computer_seats()  # red's first move, at bob's board
        guest_link = FakeLink(broker, _guest_topics())
        table = broker.kept(protocol.table_topic("bob"))
        assert isinstance(table, protocol.Table)
        guest = Guest(guest_sim.session, cast(Link, guest_link), "ann", table, refresher(guest_sim))
        _slowed(guest.seats, slow)
        guest_sim.start()
        guest.resync()
        guest.ask()
        settle((host, host_link), (guest, guest_link))
        red = guest.seats.arrived[1]  # bob's move, made by hand at ann's board
        for step in guest_sim.hand.steps(red):
            guest_sim.run_line(Line("person", 1, step[0], tuple(step[1:]), deliberate=True))
        assert len(guest_sim.session.game.history) == 1
        assert slow.started.wait(WAIT_S), "ann's computer was never asked for green's move"
        sim = guest_sim
        sim.advance(THINKING_AFTER_S * 1.5)
        assert "Thinking... Green (standard)" in shown(sim)
        sim.run_line(Line("person", 1, "hold", ("back",)))
        assert "take back?" in shown(sim)
        sim.run_line(Line("person", 2, "press", ("ok",)))
        assert "take back?" not in shown(sim) and not slow.release.is_set()
        assert len(sim.session.game.history) == 1
        slow.release.set()
        assert thinker().wait(WAIT_S)
        sim.play_computer_seats()
        assert len(sim.session.game.history) == 2
        settle((host, host_link), (guest, guest_link))
        assert host.seats.arrived.get(2) == sim.session.game.history[1]  # sent to the host
        host_sim.play_computer_seats()  # made by hand at bob's board, then red's next
        assert host_sim.session.game.history[:2] == sim.session.game.history
    finally:
        slow.release.set()
        thinker().wait(WAIT_S)
        host_sim.close()
        guest_sim.close()
