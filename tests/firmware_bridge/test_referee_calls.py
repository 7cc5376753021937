"""The runtime asks a referee one thing per event: ``decide``, whose ruling holds all
the table needs of the referee and its view until the next event.

Whole seeded games of every game are played in the simulator with each session's
referee behind a spy that notes every attribute the runtime's own modules read of it.
The simulated person (the script's hand, the computer's play) may look at the referee
as a player looks at the board; only the runtime is counted.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from firmware_bridge.kits import KITS
from firmware_bridge.referees.events import BoardChanged, Committed, Refused, TakenUp, Tick
from firmware_bridge.runtime.session import Session
from firmware_bridge.sim.runner import SimOptions, Simulation
from hardware.board import BoardSettled, ButtonEvent

RUNTIME = "firmware_bridge.runtime."
EXTERNAL = (Tick, BoardChanged, ButtonEvent)
"""The referee events that come from outside: each is one event the session dispatched."""
INTERNAL = (Committed, Refused, TakenUp)
"""The events the session itself tells the referee of: a commit's fate, a game taken up."""


class Spy:
    """Stands for a referee; notes what the runtime reads of it, and each ``decide``."""

    def __init__(self, real: Any, log: list[tuple[str, str]]) -> None:
        object.__setattr__(self, "_real", real)
        object.__setattr__(self, "_log", log)

    def __getattr__(self, name: str) -> Any:
        real, log = object.__getattribute__(self, "_real"), object.__getattribute__(self, "_log")
        found = getattr(real, name)
        if not sys._getframe(1).f_globals.get("__name__", "").startswith(RUNTIME):
            return found
        if name != "decide":
            log.append(("read", name))
            return found

        def decide(event: Any) -> Any:
            log.append(("decide", type(event).__name__))
            return found(event)

        return decide

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "_real"), name, value)


@pytest.fixture
def spied(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """The log of every session's referee reads and of the events it dispatched."""
    log: list[tuple[str, str]] = []

    def get(session: Session[Any]) -> Any:
        return session.__dict__["_spied_referee"]

    def put(session: Session[Any], referee: Any) -> None:
        session.__dict__["_spied_referee"] = Spy(referee, log)

    monkeypatch.setattr(Session, "referee", property(get, put), raising=False)
    dispatch: Callable[..., None] = Session._dispatch

    def counted(session: Session[Any], event: Any) -> None:
        if isinstance(event, Tick | BoardSettled | ButtonEvent):
            log.append(("event", type(event).__name__))
        dispatch(session, event)

    monkeypatch.setattr(Session, "_dispatch", counted)
    return log


@pytest.mark.parametrize("game", sorted(KITS))
def test_the_runtime_asks_the_referee_only_to_decide_once_per_event(
    game: str, spied: list[tuple[str, str]]
) -> None:
    sim = Simulation(SimOptions(game, seed=3))
    try:
        sim.start()
        sim.play_computer()
        plays = len(sim.session.game.history)
        assert sim.session.game.outcome is not None
    finally:
        sim.close()
    reads = Counter(name for kind, name in spied if kind == "read")
    assert not reads, f"the runtime read {dict(reads)} of the {game} referee besides decide"
    external = {type_.__name__ for type_ in EXTERNAL}
    internal = {type_.__name__ for type_ in INTERNAL}
    decided = Counter(name for kind, name in spied if kind == "decide")
    assert set(decided) <= external | internal
    # Each event the session dispatched is decided exactly once, before the next.
    pending = 0
    events = 0
    for kind, name in spied:
        if kind == "event":
            assert pending == 0, f"an event of {game} was dispatched without a decision"
            pending, events = 1, events + 1
        elif kind == "decide" and name in external:
            assert pending == 1, f"{name} was decided twice or without an event"
            pending = 0
    assert pending == 0
    assert events > 50, "a whole game is many events"
    # The session's own events: one Committed per action played, and no more.
    assert decided["Committed"] == plays
    assert decided["TakenUp"] >= 1
