"""The ``tabletop`` command."""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from games.core import GameError
from games.registry import game_names

from .spectate.commands import spectator_commands
from .transcript import print_move, result_line

GAME_NAMES = game_names()


def _add_sim(sub: Any) -> None:
    from games.registry import GAMES

    from .options import help_text

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
    from .spectate.commands import add_sim_options

    add_sim_options(p)


def _read_script(arg: str) -> Iterable[Any]:
    from .sim.script import parse, parse_all

    if arg == "-":
        return parse(sys.stdin, "standard input")
    path = Path(arg)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read the script {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        raise ValueError(
            f"the script {path} is not UTF-8 text (line {line}: {exc.reason}); save it as UTF-8"
        ) from None
    return parse_all(text, str(path))


def cmd_sim(args: argparse.Namespace, out: TextIO) -> int:
    if getattr(args, "serve", None) or getattr(args, "broker", None):
        if getattr(args, "lobby", False) or not args.game:
            raise ValueError("--serve and --broker follow one game: give --game, not --lobby")
        from .spectate.simlive import run_watched

        return run_watched(args, out)
    # Start-up allocates much and frees little, so collecting during it is wasted
    # work (about a tenth of a cold start); collection resumes once the table is up.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _sim(args, out)
    finally:
        if collecting:
            gc.enable()


def _sim(args: argparse.Namespace, out: TextIO) -> int:
    from .checks import check_sim
    from .setup_file import game_options
    from .sim.runner import SimOptions, Simulation
    from .sim.script import with_board_cells

    lobby = bool(getattr(args, "lobby", False))
    script = _read_script(args.script) if args.script else None
    if lobby:
        _check_lobby(args, script is not None)
        options: dict[str, Any] = {}
    elif not args.game:
        raise ValueError("give --game GAME, or --lobby to choose it on the start menu")
    else:
        check_sim(args.game, args.profile, computer=script is None)
        options = game_options(args.game, args.option, args.setup, args.players, args.words)
    humans = _humans(getattr(args, "humans", None), args.players, script is not None)
    if args.frames:
        _prepare_frames(args.frames)
    seed = args.seed if args.seed is not None else 1
    sim_options = SimOptions(
        game=args.game,
        players=args.players,
        seed=seed,
        profile=args.profile,
        journal=args.journal,
        frames=args.frames,
        options=options,
        resume=getattr(args, "resume", None),
        humans=humans,
        lobby=lobby,
        firmware=getattr(args, "firmware", "python"),
    )
    if isinstance(script, list) and args.journal is not None and not lobby:
        from .sim.dry_run import check_script

        check_script(sim_options, script)
    sim = Simulation(sim_options)
    if sim_options.firmware != "python" and sim.profile.serial is None:
        sim.close()
        raise ValueError(
            f"--firmware {sim_options.firmware}: profile {sim.profile.name} is scanned from the "
            "Pi's GPIO and has no firmware; choose a Pico board's profile, e.g. double-take-pico"
        )
    if script is not None:
        script = with_board_cells(script, sim.profile.cells)
    if sim.resumed:
        moves = len(sim.session.game.history)
        print(
            f"tabletop: resuming the journal's game {sim.session.game_id} after "
            f"{moves} move{'s' if moves != 1 else ''}",
            file=sys.stderr,
        )
    if sim.resumed and getattr(args, "resume", None) is None:
        flags = (("--seed", args.seed), ("--option", args.option), ("--setup", args.setup))
        given = [flag for flag, used in flags if used]
        if given:
            print(
                f"tabletop: {' and '.join(given)} ignored: {args.journal} resumes game "
                f"{sim.session.game_id}, which keeps the seed and options it began with",
                file=sys.stderr,
            )
    try:
        if args.journal and not lobby:
            from .live import LiveFile

            sim.listeners.append(LiveFile(args.journal, sim.session.game_id))
        if args.json:
            sim.listeners.append(lambda state: print(json.dumps(state), file=out, flush=True))
        elif lobby:
            print(f"Start menu on {sim.profile.name}, seed {seed}", file=out)
            sim.commits.append(lambda p: print_move(p, sim.session.game.seat_name, out))
        else:
            game = sim.session.game
            seats = " vs ".join(game.seat_name(p) for p in range(game.players))
            who = "script" if script is not None else "computer"
            print(f"{game.title}, seed {seed}: {seats} ({who})", file=out)
            sim.commits.append(lambda played: print_move(played, game.seat_name, out))
        sim.start()
        # As the daemon does: what start-up built stays out of full collections.
        gc.collect()
        gc.freeze()
        gc.enable()
        if script is not None:
            sim.run_script(script)
        else:
            sim.play_computer()
        final = sim.final()
        if args.json:
            print(json.dumps(final), file=out, flush=True)
        else:
            print(result_line(final), file=out)
        serial_sim = getattr(sim, "serial_sim", None)
        if serial_sim is not None and serial_sim.figures is not None:
            print(f"tabletop: {serial_sim.figures.text()}", file=sys.stderr)
    finally:
        sim.close()
    return 0


def _check_lobby(args: argparse.Namespace, scripted: bool) -> None:
    """Refuse what the start menu chooses itself, and a menu nobody answers."""
    if not scripted:
        raise ValueError(
            "--lobby: the start menu is answered with the script's press lines: give --script"
        )
    flags = (("--option", args.option), ("--setup", args.setup), ("--humans", args.humans))
    given = [flag for flag, used in flags if used]
    if given:
        raise ValueError(
            f"--lobby: {' and '.join(given)} not taken: the options and who plays each seat "
            "are chosen on the start menu"
        )
    if args.profile is None and args.game is None:
        return
    if args.game is not None:
        from .kits import find_kit

        find_kit(args.game)  # an unknown game stops here, with the list of games


def _humans(text: str | None, players: int, scripted: bool) -> frozenset[int] | None:
    """The seats ``--humans`` gives to people; None when it is not given."""
    from .computer import parse_seats

    if text is None:
        return None
    if not scripted:
        raise ValueError(
            "--humans: the people's seats are played by a --script; without one the "
            "computer plays every seat (leave --humans out)"
        )
    return parse_seats(text, players)


def _prepare_frames(folder: Path) -> None:
    """Make the ``--frames`` folder, clearing the frames an earlier run left there."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--frames {folder} is a file: give a folder for the frames")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        old = sorted(folder.glob("frame-*.png"))
        for frame in old:
            frame.unlink()
    except OSError as exc:
        raise ValueError(f"--frames {folder}: {exc.strerror or exc}") from None
    if old:
        print(
            f"tabletop: removed {len(old)} frames an earlier run left in {folder}", file=sys.stderr
        )


def cmd_wiring(args: argparse.Namespace, out: TextIO) -> int:
    from wiring.errors import ProfileError
    from wiring.loader import list_profiles, load_profile
    from wiring.table import pin_table

    from .checks import check_profile

    if args.svg is not None and not args.profile:
        raise ValueError("--svg draws one profile: name it, e.g. tabletop wiring sim --svg sim.svg")
    names = [args.profile] if args.profile else list_profiles()
    for i, name in enumerate(names):
        if i:
            print(file=out)
        profile = load_profile(name)
        found = check_profile(profile)
        if found.problems:
            count = len(found.problems)
            raise ProfileError(
                f"profile {profile.source or name} has {count} problem{'s' if count != 1 else ''}",
                found.problems,
            )
        print(pin_table(profile), file=out)
        for warning in found.warnings:
            print(f"warning: {warning}", file=out)
        print(f"profile {profile.name}: OK", file=out)
        if args.svg is not None:
            from wiring.diagram import wiring_svg

            try:
                args.svg.write_text(wiring_svg(profile), encoding="utf-8")
            except OSError as exc:
                raise ValueError(f"--svg {args.svg}: {exc.strerror or exc}") from None
            print(f"wiring diagram of {profile.name} written to {args.svg}", file=out)
    return 0


def cmd_bom(args: argparse.Namespace, out: TextIO) -> int:
    from wiring.bom import bom_csv, bom_table
    from wiring.loader import list_profiles, load_profile

    names = [args.profile] if args.profile else list_profiles()
    for i, name in enumerate(names):
        profile = load_profile(name)
        if args.csv:
            print(bom_csv(profile), end="", file=out)
        else:
            if i:
                print(file=out)
            print(bom_table(profile), file=out)
    return 0


def cmd_netlist(args: argparse.Namespace, out: TextIO) -> int:
    from wiring.loader import load_profile
    from wiring.netlist import write_netlist

    return write_netlist(load_profile(args.profile), args.kicad, out)


def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    from .daemon import run_daemon

    return run_daemon(args.config, out)


def cmd_enrol(args: argparse.Namespace, out: TextIO) -> int:
    from hardware.clock import SystemClock

    from . import table
    from .checks import checked_config
    from .enrol import CONNECT_TIMEOUT_S, run_enrol
    from .tags import TagTable

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


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    from .export import export_game, text_record

    record = export_game(args.journal, args.game)
    print(text_record(record) if args.text else json.dumps(record, indent=1), file=out)
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    from .show import picture, saved_game, write_png

    saved = saved_game(args.journal, args.game)
    write_png(picture(saved), args.png)
    record = saved.record
    print(f"game {record.id} ({record.game}) drawn to {args.png}", file=out)
    return 0


def cmd_diag(args: argparse.Namespace, out: TextIO) -> int:
    from .diag_terminal import cmd_diag as run_diag

    return run_diag(args, out)


def cmd_install(args: argparse.Namespace, out: TextIO) -> int:
    from . import install

    return install.cmd_install(args, out, install.ask_yes)


def cmd_uninstall(args: argparse.Namespace, out: TextIO) -> int:
    from . import install

    return install.cmd_uninstall(args, out)


def cmd_history(args: argparse.Namespace, out: TextIO) -> int:
    from .history import history, history_table

    rows = history(args.journal)
    print(json.dumps(rows, indent=1) if args.json else history_table(rows, args.journal), file=out)
    return 0


def cmd_resume(args: argparse.Namespace, out: TextIO) -> int:
    from .history import resumable

    record = resumable(args.journal, args.id)
    return cmd_sim(
        argparse.Namespace(
            **vars(args),
            game=record.game,
            players=record.players,
            seed=record.seed,
            profile=record.profile,
            option=[],
            setup=None,
            words=None,
            resume=record.id,
        ),
        out,
    )


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
    from .install_args import add_parsers
    from .spectate.commands import add_parsers as add_spectator_parsers

    add_parsers(sub)
    add_spectator_parsers(sub)
    return parser


COMMANDS = {
    "sim": cmd_sim,
    "run": cmd_run,
    "wiring": cmd_wiring,
    "bom": cmd_bom,
    "netlist": cmd_netlist,
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


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    from hardware.errors import HardwareError
    from wiring.errors import WiringError

    from .journal import JournalError

    args = parse_args(sys.argv[1:] if argv is None else list(argv))
    stream = out or sys.stdout
    try:
        return COMMANDS[args.command](args, stream)
    except (GameError, WiringError, HardwareError, JournalError, ValueError, RuntimeError) as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of our output went away (``tabletop sim | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
