"""The spectators' command-line: ``tabletop web``, ``publish``, ``hub`` and the sim's flags.

Only argument parsing lives here; each command imports its module when it runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

DEFAULT_LISTEN = "127.0.0.1:8080"


def add_sim_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--serve", metavar="HOST:PORT", help="serve the game's live web view here while it plays"
    )
    p.add_argument(
        "--realtime",
        nargs="?",
        type=float,
        const=1.5,
        metavar="SECONDS",
        help="play at a human pace: wait this long after each move (default 1.5)",
    )
    p.add_argument("--broker", metavar="mqtt://HOST[:PORT]", help="publish the game to a club")
    p.add_argument("--board-name", metavar="NAME", help="the board's name in the club (--broker)")
    p.add_argument(
        "--club-config",
        type=Path,
        metavar="FILE",
        help="a club config (TOML) for --broker: the board's login and TLS",
    )


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("web", help="serve one board's game live to web browsers")
    p.add_argument("--journal", type=Path, required=True, help="the daemon's journal (read only)")
    p.add_argument(
        "--listen", default=DEFAULT_LISTEN, metavar="HOST:PORT", help=f"default {DEFAULT_LISTEN}"
    )
    p = sub.add_parser("publish", help="publish a board's games to a club's MQTT broker")
    p.add_argument(
        "--journal", type=Path, help="the daemon's journal (default /var/lib/tabletop/...)"
    )
    p.add_argument("--broker", metavar="mqtt[s]://HOST[:PORT]", help="the club's broker")
    p.add_argument("--board-name", metavar="NAME", help="this board's name in the club")
    p.add_argument(
        "--config", type=Path, help="a club config (TOML: broker, board_name, credentials, TLS)"
    )
    p = sub.add_parser("hub", help="show every board of a club live, from its MQTT broker")
    p.add_argument("--broker", metavar="mqtt[s]://HOST[:PORT]", help="the club's broker")
    p.add_argument(
        "--listen", default=DEFAULT_LISTEN, metavar="HOST:PORT", help=f"default {DEFAULT_LISTEN}"
    )
    p.add_argument("--config", type=Path, help="a club config (TOML) for credentials and TLS")
    p = sub.add_parser("club", help="set up a club's MQTT broker")
    club = p.add_subparsers(dest="club_command", metavar="init", required=True)
    p = club.add_parser(
        "init",
        help="write a Mosquitto configuration: a user per board and the hub, and an ACL",
    )
    p.add_argument(
        "--boards", required=True, metavar="NAME,NAME,...", help="the boards' names, by commas"
    )
    p.add_argument("--hub-user", default="hub", metavar="NAME", help="the hub's user (hub)")
    p.add_argument(
        "--folder", type=Path, required=True, help="where to write (e.g. /etc/mosquitto/tabletop)"
    )
    p.add_argument("--tls-ca", type=Path, help="the club's CA certificate (PEM)")
    p.add_argument("--tls-cert", type=Path, help="the broker's certificate (PEM)")
    p.add_argument("--tls-key", type=Path, help="the broker's private key (PEM)")
    p.add_argument("--tls-port", type=int, default=8883, help="the TLS listener's port (8883)")
    p.add_argument(
        "--listen", metavar="HOST:PORT", help="a plain listener too, e.g. 127.0.0.1:1883"
    )


def need_web_extra() -> None:

    missing = [m for m in ("waitress", "paho") if importlib.util.find_spec(m) is None]
    if missing:
        raise RuntimeError(
            f"the spectator commands need {', '.join(missing)}: install the web extra with "
            "pip install 'tabletop[web]' in tabletop's venv"
        )


def cmd_web(args: argparse.Namespace, out: TextIO) -> int:
    need_web_extra()
    from .server import run_web
    from .wsgi import parse_listen

    parse_listen(args.listen)
    journal = Path(args.journal)
    if journal.is_dir():
        raise ValueError(
            f"--journal {journal} is a folder: give the journal file in it "
            f"(for example {journal / 'journal.sqlite'})"
        )
    print(f"tabletop: serving {journal} at http://{args.listen}/", file=out, flush=True)
    if not journal.exists():
        print(
            f"tabletop: there is no journal at {journal} yet; the page shows the game once "
            "a table writes one there (check the path if a table is already playing)",
            file=sys.stderr,
            flush=True,
        )
    return run_web(journal, args.listen)


def cmd_publish(args: argparse.Namespace, out: TextIO) -> int:
    need_web_extra()
    from wiring.config import DEFAULT_JOURNAL

    from .mqtt import check_board_name, club_settings
    from .publish import run_publish

    club = club_settings(args.config, args.broker, args.board_name, args.journal)
    if club.board_name is None:
        raise ValueError("name the board: --board-name NAME or board_name in the club config")
    check_board_name(club.board_name)  # refused before anything is said of publishing
    journal = club.journal or DEFAULT_JOURNAL
    print(
        f"tabletop: publishing {journal} as {club.board_name} to {club.broker.url}",
        file=out,
        flush=True,
    )
    return run_publish(journal, club.broker, club.board_name)


def cmd_hub(args: argparse.Namespace, out: TextIO) -> int:
    need_web_extra()
    from .hub import run_hub
    from .mqtt import club_settings
    from .wsgi import parse_listen

    parse_listen(args.listen)
    club = club_settings(args.config, args.broker, None, None)
    print(f"tabletop: club hub of {club.broker.url} at http://{args.listen}/", file=out, flush=True)
    return run_hub(club.broker, args.listen)


def cmd_club(args: argparse.Namespace, out: TextIO) -> int:
    from .broker_config import Listener, Tls, write_club
    from .wsgi import parse_listen

    given = [args.tls_ca, args.tls_cert, args.tls_key]
    if any(given) and not all(given):
        raise ValueError("give all three of --tls-ca, --tls-cert and --tls-key, or none")
    tls = Tls(args.tls_ca, args.tls_cert, args.tls_key) if all(given) else None
    plain = Listener(*parse_listen(args.listen)) if args.listen else None
    boards = [b.strip() for b in args.boards.split(",") if b.strip()]
    if not boards:
        raise ValueError("--boards names no board: give their names, e.g. table-1,table-2")
    write_club(args.folder, boards, args.hub_user, tls, args.tls_port, plain)
    folder = args.folder.resolve()
    print(
        f"tabletop: wrote {folder}/mosquitto.conf, passwd and acl for {len(boards)} boards "
        f"and the hub user {args.hub_user}.\n"
        f"Each user's password is in {folder}/credentials/<user>: copy it to that board's "
        "password_file (docs/club.md; <board>.remote is the board's login for its games "
        "with other boards), then include mosquitto.conf from /etc/mosquitto/conf.d and "
        "restart mosquitto.",
        file=out,
    )
    return 0


def spectator_commands() -> dict[str, Callable[[argparse.Namespace, TextIO], int]]:
    return {"web": cmd_web, "publish": cmd_publish, "hub": cmd_hub, "club": cmd_club}
