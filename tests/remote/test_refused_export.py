"""A move the host refused is taken back at the guest, which journals it as a
take-back does; the game goes on, and at its end the two boards' exports are the
same: each move is numbered by its place in the game, not by the journal's inputs.

In this process, through the stand-in broker of :mod:`tests.remote.test_abandon`."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from firmware_bridge.apps.export import export_game
from firmware_bridge.apps.remote_play import refresher
from firmware_bridge.remote import protocol
from firmware_bridge.remote.guest import Guest
from firmware_bridge.remote.host import Host
from firmware_bridge.remote.link import Link
from firmware_bridge.sim.runner import SimOptions, Simulation
from tests.remote.test_abandon import Broker, FakeLink, _guest_topics, _host_topics, settle
from tests.remote.test_two_boards import CLOCK_FIELDS

REASON = "the rules refuse it: a test says so"


def _record(journal: Path) -> dict[str, Any]:
    record = export_game(journal)
    for field in CLOCK_FIELDS:
        record.pop(field, None)
    for move in record["moves"]:
        for field in CLOCK_FIELDS:
            move.pop(field, None)
    return record


def test_after_a_refused_move_both_exports_are_the_same(tmp_path: Path) -> None:
    broker = Broker()
    host_sim = Simulation(SimOptions(game="double-take", seed=1, journal=tmp_path / "bob.sqlite"))
    guest_sim = Simulation(SimOptions(game="double-take", seed=1, journal=tmp_path / "ann.sqlite"))
    try:
        host_link = FakeLink(broker, _host_topics())
        owners = ["bob", "ann"]
        host = Host(host_sim.session, cast(Link, host_link), "bob", owners, refresher(host_sim))
        judge = host._judge
        refused: list[int] = []

        def refuse_once(guest: str, move: protocol.Move) -> str | None:
            if not refused and move.number > 10:
                refused.append(move.number)
                return REASON
            return judge(guest, move)

        host._judge = refuse_once  # type: ignore[method-assign]
        host_sim.start()
        host.publish_table()
        guest_link = FakeLink(broker, _guest_topics())
        table = broker.kept(protocol.table_topic("bob"))
        assert isinstance(table, protocol.Table)
        guest = Guest(guest_sim.session, cast(Link, guest_link), "ann", table, refresher(guest_sim))
        guest_sim.start()
        guest.resync()
        sides = ((host, host_link), (guest, guest_link))
        said: list[str] = []
        guest_sim.session.refused.append(said.append)
        for _ in range(2000):
            if host.over() and guest.done():
                break
            settle(*sides)
            host_sim.play_computer_seats()
            host.poll()
            settle(*sides)
            guest_sim.play_computer_seats()
            guest.poll()
        assert host.over() and guest.done()
        kinds = [e.kind for e in guest_sim.journal.entries(guest_sim.session.game_id)]
    finally:
        host_sim.close()
        guest_sim.close()
    assert refused and REASON in said  # taken back at the guest, saying why
    assert kinds.count("takeback") == 1  # the refused move stays in ann's journal
    bob, ann = _record(tmp_path / "bob.sqlite"), _record(tmp_path / "ann.sqlite")
    assert bob["outcome"] is not None
    assert [m["n"] for m in ann["moves"]] == list(range(1, len(ann["moves"]) + 1))
    assert ann == bob
