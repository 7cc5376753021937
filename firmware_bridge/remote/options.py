"""``tabletop sim``'s options for a game played board to board (kept light: the
parser is built for every simulation)."""

from __future__ import annotations

import argparse


def add_remote_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--host-remote",
        action="append",
        metavar="SEAT=BOARD",
        help="host the game with the other board BOARD holding SEAT (from 1), through "
        "--broker; this board's name is --board-name (see docs/remote.md)",
    )
    p.add_argument(
        "--join",
        metavar="HOSTBOARD",
        help="play the seats HOSTBOARD's game gives this board (--board-name), through --broker",
    )


def wants_remote(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "host_remote", None) or getattr(args, "join", None))
