"""A fake ``machine`` module for running the firmware under CPython."""

from __future__ import annotations

from firmware_bridge.sim.pico.fake_machine import Bench, FakeMachine

_machine = FakeMachine(Bench())
bench = _machine.bench
Pin = _machine.Pin
SPI = _machine.SPI
WDT = _machine.WDT


def reset() -> None:
    raise SystemExit("machine.reset() called")
