"""``tabletop diag``: the bench, live in a terminal (rich), or printed frame by frame.

On a terminal the view is redrawn in place whenever something changes, and keys
work: ``o`` shows the OLED test pattern, ``b`` plays the next buzzer sound, ``q``
quits; in simulation ``1``–``5`` press the station's buttons (shifted: hold them).
With ``--once``, ``--frames N`` or ``--script``, or when the output is not a
terminal, each view is printed as plain text, one after another.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import sys
import termios
import time
import tty
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol, TextIO

from rich.console import Console

from hardware.buttons import ButtonStation
from hardware.clock import SystemClock

from .diag import Bench
from .diag_view import KEYS, KEYS_SIM, render

START_S = 0.6
"""Time for the first scans to settle (and a serial board to say hello)."""
POLL_S = 0.005
"""How often the real board is read."""
HOLD_KEYS = "!@#$%"
MIN_WIDTH = 40


class Rig(Protocol):
    """The devices a bench runs on, and its clock."""

    bench: Bench

    def run_for(self, seconds: float) -> None: ...

    def close(self) -> None: ...


class HardwareRig:
    """The Pi's own devices, as a run config wires them, on the system clock."""

    def __init__(self, config_path: Path) -> None:

        from ..runtime.table import open_devices
        from ..runtime.tags import TagTable
        from .checks import checked_config

        config = checked_config(config_path)
        profile = config.profile
        self.clock = SystemClock()
        labels = TagTable.load(config.tags).lookup
        self.devices = open_devices(profile, self.clock)
        try:
            devices = self.devices
            self.bench = Bench(
                profile, devices.board, devices.oled, devices.signals, labels, lights=devices.lights
            )
            self.station = ButtonStation(
                profile.buttons,
                pin_factory=devices.pin_factory,
                clock=self.clock,
                on_event=self.bench.events.put,
            )
        except BaseException:
            self.devices.close()
            raise

    def run_for(self, seconds: float) -> None:
        end = self.clock.now() + seconds
        while True:
            self.bench.step(self.clock.now())
            if self.clock.now() >= end:
                return
            time.sleep(POLL_S)

    def close(self) -> None:
        self.station.close()
        self.devices.close()


def open_rig(args: argparse.Namespace) -> Rig:
    if args.sim:
        from wiring.loader import load_profile

        from .diag_sim import SimBench

        return SimBench(load_profile(args.profile or "sim"))
    if args.config is None:
        raise ValueError(
            "diag needs the board: --config /etc/tabletop/tabletop.toml on the Pi, "
            "or --sim [--profile NAME] for the simulated one"
        )
    return HardwareRig(args.config)


def plain_console(out: TextIO, width: int) -> Console:
    """A console that prints frames as plain text (no colour, no cursor moves)."""
    return Console(
        file=out,
        width=width,
        color_system=None,
        force_terminal=False,
        highlight=False,
        emoji=False,
    )


def cmd_diag(args: argparse.Namespace, out: TextIO) -> int:
    if args.sim and args.config is not None:
        raise ValueError("give --config for a real board or --sim for a simulated one, not both")
    if not args.sim and args.profile is not None:
        raise ValueError(
            "--profile picks a simulated board: add --sim (a real board's profile "
            "is named in its --config)"
        )
    if args.frames is not None and args.frames < 1:
        raise ValueError(f"--frames counts the views to print: 1 or more, not {args.frames}")
    if args.width < MIN_WIDTH:
        raise ValueError(f"--width {args.width} is too narrow: give {MIN_WIDTH} columns or more")
    cross_row = getattr(args, "cross_read", None)
    if cross_row is not None and args.script:
        raise ValueError("--cross-read walks a row itself: give it without --script")
    script = _script(args) if args.script else None
    rig = open_rig(args)
    try:
        rig.run_for(START_S)
        if cross_row is not None:
            return _cross_read(rig, cross_row, out)
        live = script is None and not args.once and args.frames is None and out.isatty()
        if live:
            _live(rig, args, out)
        else:
            _print_frames(rig, args, out, script)
    finally:
        rig.close()
    return 0


def _cross_read(rig: Rig, row: int, out: TextIO) -> int:
    """Walk one tag along row ``row`` (1-based), the simulated hand laying it on a
    simulated board; print the prompts, then the matrix. 1 when a problem was found."""
    from .diag_cross import CrossRead, report, walk_row

    walk = CrossRead(rig.bench, row - 1)
    lay = getattr(rig, "lay_tag", None)

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    walk_row(walk, rig.run_for, lambda: bench_clock(rig), lay=lay, say=say)
    for line in report(walk):
        print(line, file=out)
    return 1 if walk.problems() else 0


def _script(args: argparse.Namespace) -> list[Any]:
    if not args.sim:
        raise ValueError("--script moves simulated pieces: add --sim")
    from ..sim.script import parse_all

    path = Path(args.script)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read the script {path}: {exc.strerror}") from None
    return parse_all(text, str(path))


def _print_frames(
    rig: Rig, args: argparse.Namespace, out: TextIO, script: list[Any] | None
) -> None:
    console = plain_console(out, args.width)
    limit = 1 if args.once else args.frames
    printed = 0

    def frame(title: str) -> bool:
        nonlocal printed
        console.rule(title)
        console.print(render(rig.bench, keys=""))
        printed += 1
        return limit is not None and printed >= limit

    if frame("at start"):
        return
    if script is not None:
        from .diag_sim import SimBench

        assert isinstance(rig, SimBench)
        for line in script:
            rig.run_line(line)
            if frame(f"after line {line.lineno}: {line.text()}"):
                return
        return
    if args.sim:
        return  # nothing moves a simulated board without a script
    seen = rig.bench.changes
    while True:
        rig.run_for(0.05)
        if rig.bench.changes != seen:
            seen = rig.bench.changes
            if frame(time.strftime("%H:%M:%S")):
                return


@contextlib.contextmanager
def _keys(stream: TextIO) -> Iterator[bool]:
    """Single key presses from ``stream`` while in the block (when it is a terminal)."""
    if not stream.isatty():
        yield False
        return

    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield True
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _live(rig: Rig, args: argparse.Namespace, out: TextIO) -> None:
    from rich.live import Live

    console = Console(file=out)
    bench = rig.bench
    names = list(bench.profile.buttons.pins)
    keys = KEYS_SIM if args.sim else KEYS
    with (
        _keys(sys.stdin) as keyboard,
        Live(render(bench, keys=keys), console=console, auto_refresh=False) as live,
    ):
        seen = -1
        last = time.monotonic()
        while True:
            now = time.monotonic()
            rig.run_for(now - last)
            last = now
            if bench.changes != seen:
                seen = bench.changes
                live.update(render(bench, keys=keys), refresh=True)
            if not keyboard:
                time.sleep(0.05)
                continue
            ready, _, _ = select.select([sys.stdin], [], [], 0.05)
            if not ready:
                continue
            key = os.read(sys.stdin.fileno(), 1).decode(errors="replace")
            if key == "q":
                return
            clock = bench_clock(rig)
            if key == "o":
                bench.oled_pattern(clock)
            elif key == "b":
                bench.buzzer_test(clock)
            elif key == "l":
                bench.led_test(clock)
            elif args.sim and (key.isdigit() or key in HOLD_KEYS):
                index = int(key) - 1 if key.isdigit() else HOLD_KEYS.index(key)
                if 0 <= index < len(names):
                    rig.press(names[index], long=key in HOLD_KEYS)  # type: ignore[attr-defined]


def bench_clock(rig: Rig) -> float:
    clock = getattr(rig, "clock", None)
    return float(clock.now()) if clock is not None else 0.0
