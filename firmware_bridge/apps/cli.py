"""The ``tabletop`` command."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from games.errors import GameError
from games.registry import GAMES, game_names
from hardware.errors import HardwareError
from wiring.errors import WiringError

from ..remote.options import add_remote_options
from ..spectate.commands import add_parsers as add_spectator_parsers
from ..spectate.commands import add_sim_options, spectator_commands
from .browser_seat import add_seat_parser, cmd_seat
from .commands.boards import cmd_bom, cmd_netlist, cmd_wiring
from .commands.pcb import cmd_pcb
from .commands.real_board import cmd_diag, cmd_enrol, cmd_install, cmd_run, cmd_uninstall
from .commands.records import cmd_export, cmd_history, cmd_show
from .commands.rf import cmd_rf
from .commands.sim import cmd_resume, cmd_sim
from .install_args import add_parsers

GAME_NAMES = game_names()


def _add_sim(sub: Any) -> None:

    from ..kits.options import help_text

    p = sub.add_parser(
        "sim",
        help="play a game on simulated hardware",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=help_text([(g.name, g.title) for g in GAMES]),
    )
    p.add_argument("--game", help=f"one of: {', '.join(GAME_NAMES)}")
    p.add_argument(
        "--lobby",
        action="store_true",
        help="start at the station's start menu (answered by the script's press lines): "
        "the game, players, who is the computer, options; --game is then its first choice",
    )
    p.add_argument("--players", type=int, default=2)
    p.add_argument(
        "--humans",
        metavar="SEATS",
        help="the seats people play, from 1, e.g. 1 or 1,3 (needs --script, which moves "
        "for them); the computer plays the others, its moves shown on the OLED",
    )
    p.add_argument(
        "--level",
        action="append",
        metavar="SEAT=LEVEL",
        help="how strongly the computer plays a seat (seats from 1): 1 beginner, 2 standard "
        "(the default), 3 expert, e.g. --level 2=expert; --option level=N sets every seat",
    )
    p.add_argument("--seed", type=int, help="fixes the dice and the shuffles (default 1)")
    p.add_argument("--profile", help="the simulated board (default: the game's own)")
    p.add_argument("--script", help="a scenario script, or - to read one from standard input")
    p.add_argument("--json", action="store_true", help="print one JSON object per change")
    p.add_argument(
        "--frames",
        type=Path,
        help="write every new OLED frame here as a PNG, and the lit board at each change",
    )
    p.add_argument(
        "--journal", type=Path, help="keep the game in this SQLite file (resumes if unfinished)"
    )
    p.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option"
    )
    p.add_argument(
        "--setup",
        type=Path,
        metavar="FILE",
        help="a TOML file of game options (the names of --option; --option wins over it)",
    )
    p.add_argument(
        "--words", type=Path, help="your own word list for the word games (one word a line)"
    )
    p.add_argument(
        "--firmware",
        choices=("python", "micropython"),
        default="python",
        help="what runs a serial board's firmware: python (in this process, the default) or "
        "micropython (the MicroPython unix port with a Pico-sized heap; prints its heap and "
        "loop times at the end)",
    )

    add_sim_options(p)
    add_remote_options(p)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tabletop")
    except PackageNotFoundError:
        return "(not installed)"


class _VersionAction(argparse.Action):
    """``--version``, looking the version up only when asked (importlib.metadata is slow
    to import and weighs some 3 MB)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        print(f"{parser.prog} {_version()}")
        parser.exit()


ALONE = ("sim",)
"""Commands whose parser is built alone when the command line starts with them: the
others' parsers would only cost time (about 5 ms) before a simulation's first frame."""


class _Retry(Exception):
    """A command line the parser of one command alone finds wrong: the whole parser
    says what is wrong, as it would have without it."""


class _AloneParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Retry(message)


def parse_args(words: Sequence[str]) -> argparse.Namespace:
    """The command line parsed; a command of :data:`ALONE` by its own parser alone."""
    if words and words[0] in ALONE:
        try:
            return build_parser(words[0]).parse_args(words)
        except _Retry:
            pass
    return build_parser().parse_args(words)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; for a ``command`` of :data:`ALONE`, one that knows only
    that command (and raises ``_Retry`` instead of printing what is wrong)."""
    parser = (_AloneParser if command in ALONE else argparse.ArgumentParser)(
        prog="tabletop", description="The electronic referee inside a wooden game board."
    )
    parser.add_argument(
        "--version", action=_VersionAction, help="show the program's version number and exit"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    _add_sim(sub)
    if command in ALONE:
        return parser
    p = sub.add_parser("run", help="run the referee on a real board (the daemon)")
    p.add_argument("--config", type=Path, required=True, help="the daemon's TOML config")
    p = sub.add_parser("wiring", help="print and check a board profile's pin table")
    p.add_argument("profile", nargs="?", help="a shipped profile name or a TOML file")
    p.add_argument("--svg", type=Path, metavar="FILE", help="also draw its wiring diagram here")
    p = sub.add_parser("bom", help="print a board's bill of materials and power budget")
    p.add_argument(
        "profile", nargs="?", help="a shipped profile name or a TOML file (default: all)"
    )
    p.add_argument("--csv", action="store_true", help="CSV instead of a table")
    p = sub.add_parser(
        "netlist", help="write a Pico board's netlist for KiCad (SKiDL, checked by its ERC)"
    )
    p.add_argument("profile", help="a shipped profile name or a TOML file of a Pico board")
    p.add_argument("--kicad", type=Path, required=True, metavar="FILE", help="the netlist to write")
    p = sub.add_parser("pcb", help="write a Pico board's KiCad 9 project, checked by KiCad")
    p.add_argument("profile", help="a shipped profile name or a TOML file of a Pico board")
    p.add_argument("dir", type=Path, help="the folder to write the project into")
    p.add_argument("--fab", action="store_true", help="also Gerbers, drill, CPL, PDF, BOM, PNGs")
    p = sub.add_parser("rf", help="simulate an RFID board's radio (ngspice), antenna by antenna")
    p.add_argument("profile", help="a shipped RFID profile name or a TOML file")
    p.add_argument("--s1p", type=Path, metavar="FILE", help="write one antenna's simulated S11")
    p.add_argument("--antenna", help="with --s1p: the antenna (default: R1)")
    p = sub.add_parser("enrol", help="name the RFID tags of the pieces, one by one")
    p.add_argument("--config", type=Path, required=True, help="the daemon's TOML config")
    p.add_argument("--overwrite", action="store_true", help="rename tags already enrolled")
    p = sub.add_parser(
        "diag", help="check a board at the workbench: sensors, buttons, link, OLED, buzzer"
    )
    p.add_argument("--config", type=Path, help="the daemon's TOML config (a real board)")
    p.add_argument("--sim", action="store_true", help="the simulated devices tabletop sim uses")
    p.add_argument("--profile", help="with --sim: the simulated board (default: sim)")
    p.add_argument("--script", help="with --sim: place/lift/slide/tap/press/hold/wait lines")
    p.add_argument("--once", action="store_true", help="print the view once, as text, and stop")
    p.add_argument(
        "--frames", type=int, metavar="N", help="print the view as text at each change, N times"
    )
    p.add_argument("--width", type=int, default=100, help="columns of printed views (default 100)")
    p.add_argument(
        "--cross-read", type=int, metavar="ROW", help="one tag on each square of ROW: the matrix"
    )
    p = sub.add_parser("export", help="print a game record from a journal as JSON")
    p.add_argument("--journal", type=Path, required=True)
    p.add_argument("--game", type=int, help="the game id (default: the newest)")
    p.add_argument("--text", action="store_true", help="a readable text record, not JSON")
    p = sub.add_parser("show", help="draw the board of a saved game as a PNG picture")
    p.add_argument("--journal", type=Path, required=True)
    p.add_argument("--game", type=int, help="the game id (default: the newest)")
    p.add_argument("--png", type=Path, required=True, metavar="FILE", help="the picture to write")
    p = sub.add_parser("history", help="list the saved games of a journal")
    p.add_argument("--journal", type=Path, required=True)
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p = sub.add_parser("resume", help="play an unfinished game of a journal on, in simulation")
    p.add_argument("--journal", type=Path, required=True)
    p.add_argument("id", type=int, help="the game id (see tabletop history)")
    p.add_argument("--script", help="a scenario script, or - to read one from standard input")
    p.add_argument("--json", action="store_true", help="print one JSON object per change")
    p.add_argument("--frames", type=Path, help="write every new OLED frame here as a PNG")

    add_parsers(sub)
    add_spectator_parsers(sub)
    add_seat_parser(sub)
    return parser


COMMANDS = {
    "sim": cmd_sim,
    "run": cmd_run,
    "wiring": cmd_wiring,
    "bom": cmd_bom,
    "netlist": cmd_netlist,
    "pcb": cmd_pcb,
    "rf": cmd_rf,
    "enrol": cmd_enrol,
    "export": cmd_export,
    "diag": cmd_diag,
    "show": cmd_show,
    "install": cmd_install,
    "uninstall": cmd_uninstall,
    "history": cmd_history,
    "resume": cmd_resume,
}
COMMANDS.update(spectator_commands())
COMMANDS["seat"] = cmd_seat


EXIT_INTERRUPTED = 130
"""The exit status of every command stopped by Ctrl-C (128 + SIGINT, as shells report it)."""


def stopped_line(args: argparse.Namespace) -> str:
    """What every command says when Ctrl-C stops it: where its game is kept, if anywhere."""
    journal = getattr(args, "journal", None)
    if args.command in ("sim", "resume"):
        if journal is None:
            return "tabletop: stopped; the game was not kept (give --journal FILE to keep one)"
        return f"tabletop: stopped; the game is kept in {journal}"
    if args.command == "run":
        return "tabletop: stopped; the game is kept in the journal and resumes at the next start"
    return "tabletop: stopped"


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:

    from ..journal import JournalError

    args = parse_args(sys.argv[1:] if argv is None else list(argv))
    stream = out or sys.stdout
    try:
        return COMMANDS[args.command](args, stream)
    except (GameError, WiringError, HardwareError, JournalError, ValueError, RuntimeError) as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(stopped_line(args), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of our output went away (``tabletop sim | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
