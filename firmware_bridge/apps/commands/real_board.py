"""The commands on a real board: ``tabletop run`` (the daemon), ``enrol``, ``diag``, ``install``
and ``uninstall``."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from hardware.clock import SystemClock


def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    from ..daemon import run_daemon

    return run_daemon(args.config, out)


def cmd_enrol(args: argparse.Namespace, out: TextIO) -> int:

    from ...runtime import table
    from ...runtime.tags import TagTable
    from ..checks import checked_config
    from ..enrol import CONNECT_TIMEOUT_S, run_enrol

    config = checked_config(args.config)
    profile = config.profile
    if profile.serial is None or profile.serial.sensor == "occupancy":
        raise ValueError(f"profile {profile.name} has no tag readers: enrolment is for RFID boards")
    clock = SystemClock()
    board = table.sensor_board(profile, None, clock)

    def ask(tag: str) -> str | None:
        print(
            f"New tag {tag}: what piece is it (a letter, ? for a blank, 6-3:6, red)? "
            "An empty line (or Ctrl-C) ends enrolment.",
            file=out,
            flush=True,
        )
        line = sys.stdin.readline().strip()
        return line or None

    print(f"Enrolling into {config.tags}; every tag is saved as soon as it is named.", file=out)
    try:
        run_enrol(
            board,
            ask,
            config.tags,
            clock,
            lambda text: print(text, file=out, flush=True),
            overwrite=args.overwrite,
            connect_timeout_s=CONNECT_TIMEOUT_S,
            where=profile.serial.port,
        )
    except KeyboardInterrupt:
        pass
    finally:
        board.close()
    print(f"{len(TagTable.load(config.tags))} tags in {config.tags}", file=out)
    return 0


def cmd_diag(args: argparse.Namespace, out: TextIO) -> int:
    from ..diag_terminal import cmd_diag as run_diag

    return run_diag(args, out)


def cmd_install(args: argparse.Namespace, out: TextIO) -> int:
    from .. import install

    return install.cmd_install(args, out, install.ask_yes)


def cmd_uninstall(args: argparse.Namespace, out: TextIO) -> int:
    from .. import install

    return install.cmd_uninstall(args, out)
