"""A message the brokers lose between them (a bridge whose far end restarts while it
carries it): the board that waits on the other asks again once it has heard nothing for
``QUIET_S``, and the game goes on with nothing doubled. In this process, through the
stand-in broker of test_abandon made to lose what is published while it is "down"."""

from __future__ import annotations

from firmware_bridge.remote.side import QUIET_S
from firmware_bridge.sim.runner import Simulation
from tests.remote.test_abandon import Broker, _guest, _host, guest_sim, host_sim, settle

__all__ = ["guest_sim", "host_sim"]  # the fixtures, used by name


class LossyBroker(Broker):
    """Loses (neither delivers nor keeps) what is published while ``down``."""

    down = False
    lost = 0

    def publish(self, topic: str, data: bytes, retain: bool) -> None:
        if self.down:
            self.lost += 1
            return
        super().publish(topic, data, retain)


def test_a_lost_move_is_asked_for_again_and_made_once(
    host_sim: Simulation, guest_sim: Simulation
) -> None:
    broker = LossyBroker()
    host, host_link = _host(broker, host_sim)
    guest, guest_link = _guest(broker, guest_sim)
    pair = ((host, host_link), (guest, guest_link))
    settle(*pair)
    assert guest.nudge(0.0) is False  # the clock starts

    broker.down = True
    host_sim.play_computer_seats()  # bob's red moves; the move is lost on the way
    broker.down = False
    assert broker.lost >= 1 and len(host.game.history) == 1
    settle(*pair)
    assert 1 not in guest.seats.arrived and guest.awaits_other()
    assert guest.nudge(QUIET_S - 0.1) is False  # not yet
    assert guest.nudge(QUIET_S) is True
    settle(*pair)
    assert 1 in guest.seats.arrived  # the host said its table again

    broker.down = True
    guest_sim.play_computer_seats()  # bob's move made here, then ann's green: lost
    broker.down = False
    assert len(guest.game.history) == 2
    settle(*pair)
    host_sim.play_computer_seats()
    assert len(host.game.history) == 1 and guest.unconfirmed() and not host.awaits_other()
    assert host.nudge(2 * QUIET_S) is False  # the guests ask again, never the host
    assert guest.nudge(2 * QUIET_S + 0.1) is True
    settle(*pair)
    host_sim.play_computer_seats()  # the move come again is made
    settle(*pair)
    assert len(host.game.history) >= 2 and host.dropped == 0
    n = min(len(host.game.history), len(guest.game.history))
    assert [a.to_dict() for a in host.game.history[:n]] == [
        a.to_dict() for a in guest.game.history[:n]
    ]
    assert host.refused == [] and guest.refused == []
