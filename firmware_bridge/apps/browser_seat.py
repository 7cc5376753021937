"""``tabletop seat``: a player with no board plays a seat of a board's game from a
browser; ``tabletop seat --revoke`` and ``--new-link`` change the seat's link.

Kept light: the command line's parser imports this module for every command.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO


def add_seat_parser(sub: Any) -> None:
    p = sub.add_parser(
        "seat", help="serve a browser seat: play a seat of a board's game from a phone"
    )
    p.add_argument("--join", metavar="HOSTBOARD", help="the board hosting the game")
    p.add_argument("--board-name", metavar="NAME", help="the seat's name, as the host gave it")
    p.add_argument("--broker", metavar="mqtt[s]://HOST[:PORT]", help="the club's broker")
    p.add_argument("--club-config", type=Path, help="a club config (TOML): login and TLS")
    p.add_argument(
        "--listen",
        default="127.0.0.1:8090",
        help="HOST:PORT to serve the page on (127.0.0.1:8090; 0.0.0.0:8090 for the network)",
    )
    p.add_argument(
        "--link-host",
        metavar="HOST[:PORT]",
        help="the address the phone reaches this computer at, for the printed link",
    )
    p.add_argument(
        "--tokens",
        type=Path,
        help="the file keeping the link's secret token (default: NAME.seat-token here)",
    )
    p.add_argument(
        "--revoke", action="store_true", help="revoke the seat's link (--tokens) and stop"
    )
    p.add_argument(
        "--new-link", action="store_true", help="give the seat a new link (--tokens) and stop"
    )


def _tokens_path(args: argparse.Namespace) -> Path:
    if args.tokens is not None:
        return Path(args.tokens)
    if not args.board_name:
        raise ValueError("name the token file with --tokens FILE (or the seat with --board-name)")
    return Path(f"{args.board_name}.seat-token")


def cmd_seat(args: argparse.Namespace, out: TextIO) -> int:
    from ..remote.seat_tokens import new_link, revoke_link
    from ..spectate.wsgi import parse_listen

    path = _tokens_path(args)
    if args.revoke and args.new_link:
        raise ValueError("--revoke and --new-link: give one of them")
    if args.revoke:
        revoke_link(path)
        print(f"tabletop: the seat's link is revoked ({path}); --new-link gives another", file=out)
        return 0
    host, port = parse_listen(args.listen)
    if args.new_link:
        token = new_link(path)
        print(_link(args.link_host, host, port, token), file=out)
        return 0
    if not args.join or not args.board_name:
        raise ValueError(
            "give the hosting board with --join HOSTBOARD and the seat's name "
            "with --board-name NAME (the host gives it with --host-remote SEAT=NAME)"
        )
    return _serve(args, out, path, host, port)


def _link(link_host: str | None, host: str, port: int, token: str) -> str:
    """The link to give the player: at ``link_host``, else where the page is served."""
    everywhere = host in ("0.0.0.0", "::")
    if link_host is None and everywhere:
        print(
            "tabletop: the link below names this computer as 127.0.0.1; give --link-host "
            "with the address the phone reaches it at",
            file=sys.stderr,
        )
    where = link_host or f"{'127.0.0.1' if everywhere else host}:{port}"
    return f"http://{where}/seat/{token}"


def _serve(args: argparse.Namespace, out: TextIO, path: Path, host: str, port: int) -> int:
    import logging

    from ..remote import protocol
    from ..remote.browser_seat import Seat
    from ..remote.link import Link
    from ..remote.seat_moves import mode_of
    from ..remote.seat_pump import Pump, seat_topics, wait_for_table
    from ..remote.seat_tokens import Tokens
    from ..remote.seat_web import SeatApp
    from ..spectate.mqtt import check_board_name, club_settings
    from ..spectate.wsgi import serve

    logging.basicConfig(level=logging.WARNING, format="tabletop: %(message)s", stream=sys.stderr)
    board = check_board_name(args.board_name)
    hosting = check_board_name(args.join)
    if hosting == board:
        raise ValueError(f"--join {hosting}: that is the seat's own name (--board-name)")
    club = club_settings(args.club_config, args.broker, board, None)
    link = Link(club.broker, board, hosting, "guest", seat_topics(hosting, board))
    link.start()
    try:
        table, early = wait_for_table(link, hosting, board)
        mode_of(table.game)

        def publish(topic: str, message: protocol.Message) -> None:
            link.publish(topic, message)

        seat = Seat(board, table, publish)
        with seat.lock:
            for topic, payload in early:
                seat.take(topic, payload)
            seat.ask()  # the table the broker kept may be older than the host's game
        tokens = Tokens(path)
        token = tokens.ensure()
        pump = Pump(seat, link)
        app = SeatApp(seat, tokens, on_start=[pump.start], on_stop=[pump.stop])
        print(f"tabletop: {board}'s seat in {hosting}'s {table.game} game", file=out)
        print(_link(args.link_host, host, port, token), file=out, flush=True)
        serve(app, args.listen)
    finally:
        link.stop()
    return 0
