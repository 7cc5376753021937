"""The start menu's two boards' games, in simulation: a game whose seats were given to
boards on line is hosted once each has accepted its invitation
(:func:`host_chosen`), and an invitation accepted on the menu joins the host's game
(:func:`join_accepted`); both are then played as ``--host-remote`` and ``--join``
play them (:func:`.remote_play.host_game`, :func:`.remote_play.join_game`), the
computer moving the board's own seats.

``tabletop sim --invite SEAT=BOARD`` gives the menu's choice on the command line, and
``--invited`` waits at the menu, this board's computer accepting the first
invitation as it plays the board's seats (:func:`run_menu`).
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any, TextIO

from games.registry import find_listed

from ..referees.events import ButtonEvent
from ..remote.invites import Invite
from ..remote.menu_link import ANSWER_WAIT_S, POLL_S, MenuLink
from ..remote.privacy import SEALED
from ..remote.side import check_game
from ..runtime.lobby import Choice, Lobby, Start
from ..sim.options import SimOptions
from ..spectate.mqtt import check_board_name, club_settings
from .remote_play import host_cli, host_game, join_cli, join_game, parse_remote_seats

SETTLE_S = 0.5
"""How long the menu waits for more of what the broker kept (who is on line) before
it takes it all to have come."""
PLAYED = ("double-take", "doubles-wild", "crosslet", *sorted(SEALED))
"""The games played board to board, which the menu an invitation stands on offers."""


def run_menu(args: argparse.Namespace, out: TextIO, board: str, broker: Any) -> int:
    """``tabletop sim --invite`` or ``--invited``, on line at the start menu."""
    menu = MenuLink(broker, board)
    menu.start()
    try:
        if getattr(args, "invite", None):
            return _invite(menu, args, out, broker)
        return _invited(menu, args, out, broker)
    finally:
        menu.stop()


def _invite(menu: MenuLink, args: argparse.Namespace, out: TextIO, broker: Any) -> int:
    from .setup_file import game_options

    if not args.game:
        raise ValueError("--invite: give the game with --game GAME")
    check_game(args.game)
    owners = parse_remote_seats(args.invite, args.players, menu.board, "--invite")
    options = game_options(args.game, list(args.option), args.setup, args.players, args.words)
    listed = find_listed(args.game)
    lobby = Lobby([Choice(args.game, listed.title, args.players, args.players)])
    while menu.pump(lobby, SETTLE_S):
        pass  # who is on line: the presences the broker kept
    remote = {seat: owner for seat, owner in enumerate(owners) if owner != menu.board}
    lobby.chosen = Start(args.game, args.players, options=options, remote=remote)
    said = host_chosen(menu, lobby, args, out, broker)
    if said is None:
        raise ValueError(f"the game did not start: {lobby.problem}")
    return said


def _invited(menu: MenuLink, args: argparse.Namespace, out: TextIO, broker: Any) -> int:
    games = [find_listed(name) for name in PLAYED]
    lobby = Lobby([Choice(g.name, g.title, g.min_players, g.max_players) for g in games])
    print("tabletop: waiting at the start menu for an invitation", file=sys.stderr, flush=True)
    while menu.joined is None:
        menu.pump(lobby, POLL_S)
        offer = lobby.offer
        if offer is not None and (offer.accepted is None or offer.note):
            said = offer.note or "accepted"
            print(f"tabletop: {offer.text}: {said}", file=sys.stderr, flush=True)
            lobby.handle(ButtonEvent("ok", False))  # join; or, called off, close it
    return join_accepted(menu, menu.joined, args, out, broker)


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
    if board not in owners:  # the host's referee decides: it plays a seat
        lobby.refused("every seat is another board's: keep one at this board")
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


def run_remote(args: argparse.Namespace, out: TextIO) -> int:
    """``tabletop sim`` with ``--host-remote`` or ``--join``."""
    logging.basicConfig(level=logging.WARNING, format="tabletop: %(message)s", stream=sys.stderr)
    if getattr(args, "script", None) or getattr(args, "lobby", False):
        raise ValueError(
            "--host-remote and --join: the computer plays this board's seats; "
            "leave --script and --lobby out"
        )
    if getattr(args, "serve", None) or getattr(args, "frames", None):
        raise ValueError("--host-remote and --join do not take --serve or --frames yet")
    if not args.board_name:
        raise ValueError("--host-remote and --join: name this board with --board-name NAME")
    board = check_board_name(args.board_name)
    club = club_settings(args.club_config, args.broker, board, None)
    if getattr(args, "invite", None) or getattr(args, "invited", False):
        return run_menu(args, out, board, club.broker)
    if args.host_remote:
        return host_cli(args, out, board, club.broker)
    return join_cli(args, out, board, club.broker)
