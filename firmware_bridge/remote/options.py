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

    p.add_argument(
        "--invite",
        action="append",
        metavar="SEAT=BOARD",
        help="as --host-remote, but through the start menu's invitation: BOARD, on line at "
        "its menu, is asked, and the game starts once it accepts",
    )
    p.add_argument(
        "--invited",
        action="store_true",
        help="wait at the start menu, on line through --broker, for another board's "
        "invitation, and join its game (this board's computer accepts the first)",
    )


def wants_remote(args: argparse.Namespace) -> bool:
    return any(getattr(args, name, None) for name in ("host_remote", "join", "invite", "invited"))
