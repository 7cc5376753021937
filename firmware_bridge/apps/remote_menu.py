"""The start menu's two boards' games, in simulation: a game whose seats were given to
boards on line is hosted once each has accepted its invitation
(:func:`host_chosen`), and an invitation accepted on the menu joins the host's game
(:func:`join_accepted`); both are then played as ``--host-remote`` and ``--join``
play them (:func:`.remote_play.host_game`, :func:`.remote_play.join_game`), the
computer moving the board's own seats.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..remote.invites import Invite
from ..remote.menu_link import ANSWER_WAIT_S, MenuLink
from ..remote.side import check_game
from ..runtime.lobby import Lobby
from ..sim.options import SimOptions
from .remote_play import host_game, join_game


def host_chosen(
    menu: MenuLink,
    lobby: Lobby,
    args: argparse.Namespace,
    out: TextIO,
    broker: Any,
    wait_s: float = ANSWER_WAIT_S,
) -> int | None:
    """The menu chose a game some of whose seats are other boards': each is invited;
    once every one has accepted, the game is hosted and played (its exit status);
    else the menu says why the game cannot start (None)."""
    start = lobby.chosen
    assert start is not None
    board = menu.board
    owners = [start.remote.get(seat, board) for seat in range(start.players)]
    try:
        check_game(start.game)
    except ValueError as exc:
        lobby.refused(str(exc))
        return None
    why = menu.invite(start.game, owners, lobby, wait_s)
    if why is not None:
        lobby.refused(why)
        return None
    menu.stop()  # the game's own link is the board's login too
    seed = getattr(args, "seed", None)
    opts = SimOptions(
        game=start.game,
        players=start.players,
        seed=seed if seed is not None else 1,
        profile=getattr(args, "profile", None),
        journal=args.journal,
        options=dict(start.options),
    )
    return host_game(args, out, board, broker, opts, owners)


def join_accepted(
    menu: MenuLink, invite: Invite, args: argparse.Namespace, out: TextIO, broker: Any
) -> int:
    """The menu accepted ``invite``: this board plays the seats the host's game gives it."""
    menu.stop()
    return join_game(args, out, menu.board, broker, invite.host, (invite.game, invite.seats))
